import { addDecline, addResponse, createEndUser } from '../index';
import type { EndUser, SurveyResponse } from '../store';
import { expectBadRequest, useFakeApi } from './setup';

const PST = -480;
const IST = 330;

/** UNIX seconds of a wall-clock time at a UTC offset (in minutes). */
const localTime = (day: string, time: string, offsetMinutes: number) =>
	Date.parse(`${day}T${time}Z`) / 1000 - offsetMinutes * 60;

const EMPTY_SUMMARY = {
	nps: 0,
	responses: 0,
	detractors: 0,
	passives: 0,
	promoters: 0,
	response_rate: 0,
	email_response_rate: 0,
};

const { fake, api, restart } = useFakeApi();
let ada: EndUser;

/** Restarts the fake with its clock reading `day time` in the account's zone (PST unless told). */
async function startAt(day: string, time: string, offsetMinutes = PST) {
	await restart({ utcOffsetMinutes: offsetMinutes });
	fake().clock.set(localTime(day, time, offsetMinutes));
	ada = createEndUser(fake().account, fake().store, 'ada@example.com');
}

const respond = (score: number, createdAt: number, fields: Partial<SurveyResponse> = {}) =>
	addResponse(fake().account, fake().store, {
		endUserId: ada.id,
		score,
		createdAt,
		updatedAt: createdAt,
		...fields,
	});

const summary = (query = '') => api().get('/v1/nps_summary', query);

describe('GET /v1/nps_summary: the figures', () => {
	beforeEach(() => startAt('2024-03-10', '12:00:00'));

	const inRange = () => localTime('2024-03-05', '10:00:00', PST);
	const range = 'date[start]=2024-03-01&date[end]=2024-03-10';

	it('counts stored responses by category (0–6, 7–8, 9–10), leaving out excluded ones and those outside the range', async () => {
		for (const score of [10, 10, 9, 9, 7]) respond(score, inRange());
		respond(6, inRange(), { channel: 'email' });
		respond(0, inRange(), { channel: 'email' });
		respond(10, inRange(), { channel: 'email', excludedFromCalculations: true });
		respond(0, localTime('2024-02-20', '10:00:00', PST));
		addDecline(fake().account, fake().store, {
			endUserId: ada.id,
			channel: 'web',
			createdAt: inRange(),
		});
		addDecline(fake().account, fake().store, {
			endUserId: ada.id,
			channel: 'email',
			createdAt: inRange(),
		});
		addDecline(fake().account, fake().store, {
			endUserId: ada.id,
			channel: 'email',
			createdAt: localTime('2024-02-20', '10:00:00', PST),
		});

		const reply = await summary(range);
		expect(reply.status).toBe(200);
		// nps = round(100 · (4 − 2) / 7) = 29; response rate 7 of 7 + 2 declines; by email 2 of 2 + 1
		// decline.
		expect(reply.body).toEqual({
			nps: 29,
			responses: 7,
			detractors: 2,
			passives: 1,
			promoters: 4,
			response_rate: 78,
			email_response_rate: 67,
		});
	});

	it.each([
		['all promoters', [9, 10, 10], 100],
		['all detractors', [0, 6], -100],
		['all passives', [7, 8], 0],
		['+12.5 rounds to 13', [9, 9, 0, 7, 7, 7, 8, 8], 13],
		['−12.5 rounds to −13 (half away from zero, symmetric)', [0, 0, 9, 7, 7, 7, 8, 8], -13],
		['+33.3 rounds to 33', [10, 7, 7], 33],
		['−66.7 rounds to −67', [3, 5, 8], -67],
	])('nps with %s', async (_case, scores, nps) => {
		for (const score of scores) respond(score, inRange());
		const reply = await summary(range);
		expect(reply.body.nps).toBe(nps);
		expect(reply.body.responses).toBe(scores.length);
	});

	it('answers zeros for a range without responses', async () => {
		respond(10, localTime('2024-02-20', '10:00:00', PST));
		const reply = await summary(range);
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual(EMPTY_SUMMARY);
	});
});

/**
 * A range asked for at 2024-03-20 12:00 in `zone`, with responses stored at local times of that
 * zone.
 */
interface RangeCase {
	title: string;
	zone: number;
	range: string;
	responses: Array<[score: number, day: string, time: string]>;
	/** What the summary must hold. */
	counted: Partial<typeof EMPTY_SUMMARY>;
}

describe('GET /v1/nps_summary: date[start] and date[end] are days in the account’s time zone', () => {
	it.each<RangeCase>([
		{
			title: 'includes the whole end day and the start day from local midnight (UTC−8)',
			zone: PST,
			range: 'date[start]=2024-03-01&date[end]=2024-03-10',
			responses: [
				[9, '2024-03-01', '00:00:00'],
				[10, '2024-03-10', '23:30:00'],
				[0, '2024-02-29', '23:59:59'],
				[1, '2024-03-11', '00:00:30'],
			],
			counted: { responses: 2, promoters: 2, detractors: 0, nps: 100 },
		},
		{
			title: 'uses the account’s offset, not UTC, on the other side of Greenwich too (UTC+5:30)',
			zone: IST,
			range: 'date[start]=2024-03-01&date[end]=2024-03-10',
			// 2024-03-01 00:30 local is still 29 February in UTC; 2024-03-11 01:30 local is still 10
			// March in UTC.
			responses: [
				[10, '2024-03-01', '00:30:00'],
				[0, '2024-03-11', '01:30:00'],
				[0, '2024-02-29', '23:30:00'],
			],
			counted: { responses: 1, promoters: 1, detractors: 0, nps: 100 },
		},
		{
			title: 'covers a single day when start and end are the same',
			zone: PST,
			range: 'date[start]=2024-03-10&date[end]=2024-03-10',
			responses: [
				[10, '2024-03-10', '00:00:00'],
				[0, '2024-03-10', '23:59:59'],
				[10, '2024-03-11', '00:00:00'],
				[10, '2024-03-09', '23:59:59'],
			],
			counted: { responses: 2, promoters: 1, detractors: 1, nps: 0 },
		},
	])('$title', async ({ zone, range, responses, counted }) => {
		await startAt('2024-03-20', '12:00:00', zone);
		for (const [score, day, time] of responses) respond(score, localTime(day, time, zone));
		expect((await summary(range)).body).toMatchObject(counted);
	});

	it('follows a change of the account’s offset', async () => {
		await startAt('2024-03-20', '12:00:00', PST);
		respond(10, Date.parse('2024-03-10T20:00:00Z') / 1000);
		expect((await summary('date[start]=2024-03-10&date[end]=2024-03-10')).body.responses).toBe(1);
		fake().account.utcOffsetMinutes = IST;
		expect((await summary('date[start]=2024-03-10&date[end]=2024-03-10')).body.responses).toBe(0);
		expect((await summary('date[start]=2024-03-11&date[end]=2024-03-11')).body.responses).toBe(1);
	});
});

describe('GET /v1/nps_summary: default range', () => {
	it('covers the last month up to now when no range is given', async () => {
		await startAt('2024-05-15', '12:00:00');
		respond(10, localTime('2024-05-15', '08:00:00', PST));
		respond(9, localTime('2024-04-25', '08:00:00', PST));
		respond(0, localTime('2024-04-05', '08:00:00', PST));
		const reply = await summary();
		expect(reply.status).toBe(200);
		expect(reply.body).toMatchObject({ responses: 2, promoters: 2, detractors: 0, nps: 100 });
	});

	it('still reaches into the previous month at the end of a long month (31 March)', async () => {
		await startAt('2024-03-31', '12:00:00');
		respond(10, localTime('2024-03-01', '12:00:00', PST));
		respond(0, localTime('2024-02-27', '12:00:00', PST));
		expect((await summary()).body).toMatchObject({ responses: 1, promoters: 1, detractors: 0 });
	});

	it('with only date[start], ends today; with only date[end], starts a month before it', async () => {
		await startAt('2024-05-15', '12:00:00');
		respond(10, localTime('2024-05-15', '08:00:00', PST));
		respond(9, localTime('2024-05-05', '08:00:00', PST));
		respond(0, localTime('2024-01-20', '08:00:00', PST));
		respond(3, localTime('2023-12-20', '08:00:00', PST));
		expect((await summary('date[start]=2024-05-01')).body).toMatchObject({
			responses: 2,
			promoters: 2,
		});
		const onlyEnd = await summary('date[end]=2024-01-31');
		expect(onlyEnd.status).toBe(200);
		expect(onlyEnd.body).toMatchObject({ responses: 1, detractors: 1, promoters: 0 });
	});
});

describe('GET /v1/nps_summary: malformed dates', () => {
	beforeEach(() => startAt('2024-03-10', '12:00:00'));

	it.each([
		['date[start]=2024-13-01', 'date[start]'],
		['date[start]=2024-02-30', 'date[start]'],
		['date[start]=2024-3-1', 'date[start]'],
		['date[start]=1709251200', 'date[start]'],
		['date[end]=03/10/2024', 'date[end]'],
		['date[end]=', 'date[end]'],
		['date=2024-03-01', 'date'],
		['date[start]=2024-03-10&date[end]=2024-03-01', 'date[start]'],
	])('answers 400 to %s, naming %s', async (query, field) => {
		expectBadRequest(await summary(query), field);
	});
});
