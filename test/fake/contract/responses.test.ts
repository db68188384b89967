import { addResponse, createEndUser } from '../index';
import type { EndUser, SurveyResponse } from '../store';
import type { RawReply } from './client';
import { DAY, expectBadRequest, expectNotFound, FIXED_NOW, HOUR, idsOf, useFakeApi } from './setup';

const { fake, api } = useFakeApi({ now: FIXED_NOW });

const scoresOf = (reply: RawReply): number[] =>
	reply.body.map((record: { score: number }) => record.score);

const user = (email: string, properties: Record<string, string> = {}) =>
	createEndUser(fake().account, fake().store, email, { properties });

const respond = (
	endUser: EndUser,
	score: number,
	createdAt: number,
	fields: Partial<SurveyResponse> = {},
) =>
	addResponse(fake().account, fake().store, {
		endUserId: endUser.id,
		score,
		createdAt,
		updatedAt: createdAt,
		...fields,
	});

describe('GET /v1/responses', () => {
	let early: SurveyResponse;
	let middle: SurveyResponse;
	let late: SurveyResponse;

	// Stored out of time order, so that neither id order matches created_at or updated_at order.
	beforeEach(() => {
		const ada = user('ada@example.com');
		const grace = user('grace@example.com');
		late = respond(grace, 10, FIXED_NOW - 1 * HOUR, { updatedAt: FIXED_NOW - 2 * HOUR });
		early = respond(ada, 3, FIXED_NOW - 3 * HOUR, { updatedAt: FIXED_NOW - 1 * HOUR });
		middle = respond(ada, 8, FIXED_NOW - 2 * HOUR, { updatedAt: FIXED_NOW - 3 * HOUR });
	});

	it('lists every end user’s responses newest first by default, as full response objects', async () => {
		const reply = await api().get('/v1/responses');
		expect(reply.status).toBe(200);
		expect(idsOf(reply)).toEqual([late.id, middle.id, early.id]);
		expect(reply.body[0]).toEqual({
			id: late.id,
			end_user_id: late.endUserId,
			survey_id: late.surveyId,
			score: 10,
			text: null,
			completed: true,
			excluded_from_calculations: false,
			ip_address: late.ipAddress,
			origin_url: late.originUrl,
			created_at: '2024-03-10 11:00:00 -0800',
			updated_at: '2024-03-10 10:00:00 -0800',
			tags: [],
			notes: [],
			end_user: { properties: {} },
		});
	});

	it.each([
		['sort_order=asc', () => [early, middle, late]],
		['sort_order=desc', () => [late, middle, early]],
		['sort_key=created_at', () => [late, middle, early]],
		['sort_key=updated_at', () => [early, late, middle]],
		['sort_key=updated_at&sort_order=asc', () => [middle, late, early]],
	])('sorts with %s', async (query, expected) => {
		const reply = await api().get('/v1/responses', query);
		expect(reply.status).toBe(200);
		expect(idsOf(reply)).toEqual(expected().map((response) => response.id));
	});

	it('rejects a sort_key the endpoint does not know', async () => {
		expectBadRequest(await api().get('/v1/responses', 'sort_key=score'), 'sort_key');
	});

	it.each([
		['created[gt]', -2, () => [late]],
		['created[gte]', -2, () => [late, middle]],
		['created[lt]', -2, () => [early]],
		['created[lte]', -2, () => [middle, early]],
		['created[eq]', -2, () => [middle]],
		['updated[gt]', -2, () => [early]],
		['updated[gte]', -2, () => [late, early]],
		['updated[lt]', -2, () => [middle]],
		['updated[eq]', -3, () => [middle]],
	])('filters with %s (hours before now: %d)', async (key, hours, expected) => {
		const reply = await api().get('/v1/responses', `${key}=${FIXED_NOW + hours * HOUR}`);
		expect(reply.status).toBe(200);
		expect(idsOf(reply)).toEqual(expected().map((response) => response.id));
	});

	it('combines created bounds', async () => {
		const reply = await api().get(
			'/v1/responses',
			`created[gt]=${FIXED_NOW - 3 * HOUR}&created[lt]=${FIXED_NOW - 1 * HOUR}`,
		);
		expect(idsOf(reply)).toEqual([middle.id]);
	});

	it('leaves responses excluded from calculations out unless excluded_from_calculations=true', async () => {
		const excluded = respond(user('linus@example.com'), 0, FIXED_NOW - 10 * 60, {
			excludedFromCalculations: true,
		});

		expect(idsOf(await api().get('/v1/responses'))).toEqual([late.id, middle.id, early.id]);
		expect(idsOf(await api().get('/v1/responses', 'excluded_from_calculations=false'))).toEqual([
			late.id,
			middle.id,
			early.id,
		]);
		const withExcluded = await api().get('/v1/responses', 'excluded_from_calculations=true');
		expect(idsOf(withExcluded)).toEqual([excluded.id, late.id, middle.id, early.id]);
		expect(withExcluded.body[0].excluded_from_calculations).toBe(true);
	});
});

describe('GET /v1/responses paging', () => {
	/** newest[i] was created i minutes before now. */
	let newest: number[];

	beforeEach(() => {
		const ada = user('ada@example.com');
		newest = [];
		for (let minutes = 59; minutes >= 0; minutes--)
			newest[minutes] = respond(ada, minutes % 11, FIXED_NOW - minutes * 60).id;
	});

	it.each([
		['', 0, 25],
		['page=2', 25, 50],
		['page=3', 50, 60],
		['per_page=50', 0, 50],
		['per_page=7&page=3', 14, 21],
		['per_page=50&page=30', 60, 60],
	])('pages with "%s"', async (query, from, to) => {
		const reply = await api().get('/v1/responses', query);
		expect(reply.status).toBe(200);
		expect(idsOf(reply)).toEqual(newest.slice(from, to));
	});

	it('answers 400 to page over 30 and per_page over 50', async () => {
		const page = await api().get('/v1/responses', 'page=31');
		expectBadRequest(page, 'page');
		expect(page.body.errors[0].message).toBe('page does not have a valid value');
		expectBadRequest(await api().get('/v1/responses', 'per_page=51'), 'per_page');
	});
});

describe('GET /v1/end_users/<id>/responses', () => {
	let ada: EndUser;
	let adaOld: SurveyResponse;
	let adaNew: SurveyResponse;
	let adaExcluded: SurveyResponse;

	beforeEach(() => {
		ada = user('ada@example.com');
		const grace = user('grace@example.com');
		adaNew = respond(ada, 9, FIXED_NOW - 1 * HOUR, { updatedAt: FIXED_NOW - 5 * HOUR });
		respond(grace, 4, FIXED_NOW - 2 * HOUR);
		adaOld = respond(ada, 2, FIXED_NOW - 3 * HOUR, { updatedAt: FIXED_NOW - 4 * HOUR });
		adaExcluded = respond(ada, 5, FIXED_NOW - 4 * HOUR, {
			updatedAt: FIXED_NOW - 30 * 60,
			excludedFromCalculations: true,
		});
	});

	it('lists only that end user’s responses, newest first, without excluded ones', async () => {
		const reply = await api().get(`/v1/end_users/${ada.id}/responses`);
		expect(reply.status).toBe(200);
		expect(idsOf(reply)).toEqual([adaNew.id, adaOld.id]);
		expect(
			reply.body.every((response: { end_user_id: number }) => response.end_user_id === ada.id),
		).toBe(true);
	});

	it('takes excluded_from_calculations, sort_key, sort_order, created, updated, page and per_page', async () => {
		const path = `/v1/end_users/${ada.id}/responses`;
		expect(idsOf(await api().get(path, 'excluded_from_calculations=true'))).toEqual([
			adaNew.id,
			adaOld.id,
			adaExcluded.id,
		]);
		expect(idsOf(await api().get(path, 'sort_order=asc'))).toEqual([adaOld.id, adaNew.id]);
		expect(
			idsOf(await api().get(path, 'excluded_from_calculations=true&sort_key=updated_at')),
		).toEqual([adaExcluded.id, adaOld.id, adaNew.id]);
		expect(idsOf(await api().get(path, `created[lt]=${FIXED_NOW - 1 * HOUR}`))).toEqual([
			adaOld.id,
		]);
		expect(idsOf(await api().get(path, `updated[gte]=${FIXED_NOW - 4 * HOUR}`))).toEqual([
			adaOld.id,
		]);
		expect(idsOf(await api().get(path, 'per_page=1&page=2'))).toEqual([adaOld.id]);
		expectBadRequest(await api().get(path, 'page=31'), 'page');
	});

	it('answers 404 for an unknown end user', async () => {
		for (const id of ['999999', 'ada@example.com']) {
			expectNotFound(await api().get(`/v1/end_users/${id}/responses`));
		}
	});
});

describe('GET /v1/end_users/<id>/responses/promoters|passives|detractors', () => {
	let ada: EndUser;

	// Scores 0, 6, 7, 8, 9, 10, each an hour newer than the one before; the boundaries are 6|7 and
	// 8|9.
	beforeEach(() => {
		ada = user('ada@example.com');
		[0, 6, 7, 8, 9, 10].forEach((score, index) =>
			respond(ada, score, FIXED_NOW - (6 - index) * HOUR),
		);
		respond(user('grace@example.com'), 10, FIXED_NOW - 30 * 60);
		respond(user('linus@example.com'), 4, FIXED_NOW - 30 * 60);
	});

	it.each([
		['promoters', [10, 9]],
		['passives', [8, 7]],
		['detractors', [6, 0]],
	])(
		'%s hold that end user’s responses of the category, newest first',
		async (category, scores) => {
			const reply = await api().get(`/v1/end_users/${ada.id}/responses/${category}`);
			expect(reply.status).toBe(200);
			expect(scoresOf(reply)).toEqual(scores);
			expect(
				reply.body.every((response: { end_user_id: number }) => response.end_user_id === ada.id),
			).toBe(true);
		},
	);

	it('take sort_order, page, per_page and created', async () => {
		const path = `/v1/end_users/${ada.id}/responses`;
		expect(scoresOf(await api().get(`${path}/promoters`, 'sort_order=asc'))).toEqual([9, 10]);
		expect(scoresOf(await api().get(`${path}/passives`, 'per_page=1&page=2'))).toEqual([7]);
		expect(scoresOf(await api().get(`${path}/passives`, 'per_page=1'))).toEqual([8]);
		expect(
			scoresOf(await api().get(`${path}/detractors`, `created[gt]=${FIXED_NOW - 6 * HOUR}`)),
		).toEqual([6]);
		expect(
			scoresOf(await api().get(`${path}/promoters`, `created[lte]=${FIXED_NOW - 2 * HOUR}`)),
		).toEqual([9]);
		expectBadRequest(await api().get(`${path}/detractors`, 'per_page=51'), 'per_page');
	});

	it('leave out responses excluded from calculations', async () => {
		respond(ada, 10, FIXED_NOW - 10 * 60, { excludedFromCalculations: true });
		expect(scoresOf(await api().get(`/v1/end_users/${ada.id}/responses/promoters`))).toEqual([
			10, 9,
		]);
	});

	it('answer 404 for an unknown end user', async () => {
		expectNotFound(await api().get('/v1/end_users/999999/responses/promoters'));
	});
});

describe('GET /v1/end_users/<id>/responses/<id>', () => {
	it('reads one response of that end user', async () => {
		const ada = user('ada@example.com', { plan: 'pro' });
		const response = respond(ada, 9, FIXED_NOW - DAY, {
			text: 'Great support.',
			ipAddress: '198.51.100.23',
			originUrl: 'https://app.example.com/billing',
			completed: false,
			tags: ['support'],
			endUserProperties: { plan: 'starter' },
		});
		const reply = await api().get(`/v1/end_users/${ada.id}/responses/${response.id}`);
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({
			id: response.id,
			end_user_id: ada.id,
			survey_id: response.surveyId,
			score: 9,
			text: 'Great support.',
			completed: false,
			excluded_from_calculations: false,
			ip_address: '198.51.100.23',
			origin_url: 'https://app.example.com/billing',
			created_at: '2024-03-09 12:00:00 -0800',
			updated_at: '2024-03-09 12:00:00 -0800',
			tags: ['support'],
			notes: [],
			end_user: { properties: { plan: 'starter' } },
		});
	});

	it('answers 404 for another end user’s response and for unknown ids', async () => {
		const ada = user('ada@example.com');
		const grace = user('grace@example.com');
		const gracesResponse = respond(grace, 9, FIXED_NOW - HOUR);
		for (const path of [
			`/v1/end_users/${ada.id}/responses/${gracesResponse.id}`,
			`/v1/end_users/${grace.id}/responses/999999`,
		]) {
			expectNotFound(await api().get(path));
		}
	});
});

describe('POST /v1/end_users/<id>/responses', () => {
	let ada: EndUser;
	let earlier: SurveyResponse;

	beforeEach(() => {
		ada = user('ada@example.com', { plan: 'pro', region: 'EU' });
		earlier = respond(ada, 6, FIXED_NOW - 2 * DAY, {
			endUserProperties: { plan: 'pro', region: 'EU' },
		});
	});

	it('creates a response: 201 with the response body; end_user[properties] update the end user and stay with the response', async () => {
		const reply = await api().post(
			`/v1/end_users/${ada.id}/responses`,
			`score=8&text=Good%20but%20pricey&ip_address=198.51.100.23&origin_url=https%3A%2F%2Fapp.example.com%2Fbilling` +
				`&created_at=${FIXED_NOW - DAY}&end_user[properties][plan]=enterprise&end_user[properties][seats]=40`,
		);
		expect(reply.status).toBe(201);
		expect(reply.body).toEqual({
			id: expect.any(Number),
			end_user_id: ada.id,
			survey_id: expect.any(Number),
			score: 8,
			text: 'Good but pricey',
			completed: true,
			excluded_from_calculations: false,
			ip_address: '198.51.100.23',
			origin_url: 'https://app.example.com/billing',
			created_at: '2024-03-09 12:00:00 -0800',
			updated_at: expect.stringMatching(/^2024-03-10 12:00:\d\d -0800$/),
			tags: [],
			notes: [],
			end_user: { properties: { plan: 'enterprise', region: 'EU', seats: '40' } },
		});

		const readBack = await api().get(`/v1/end_users/${ada.id}/responses/${reply.body.id}`);
		expect(readBack.body).toEqual(reply.body);
		const endUser = await api().get(`/v1/end_users/${ada.id}`);
		expect(endUser.body.properties).toEqual({ plan: 'enterprise', region: 'EU', seats: '40' });
		const earlierNow = await api().get(`/v1/end_users/${ada.id}/responses/${earlier.id}`);
		expect(earlierNow.body.end_user.properties).toEqual({ plan: 'pro', region: 'EU' });
		expect(idsOf(await api().get('/v1/responses'))).toEqual([reply.body.id, earlier.id]);
	});

	it('without end_user[properties], keeps the end user’s current properties with the response; without created_at, uses now', async () => {
		const before = fake().clock.now();
		const reply = await api().post(
			`/v1/end_users/${ada.id}/responses`,
			'score=10&ip_address=203.0.113.9&origin_url=https://app.example.com/',
		);
		const after = fake().clock.now();
		expect(reply.status).toBe(201);
		expect(reply.body.text).toBeNull();
		expect(reply.body.end_user).toEqual({ properties: { plan: 'pro', region: 'EU' } });
		expect(reply.body.created_at).toMatch(/^2024-03-10 12:00:\d\d -0800$/);
		const stored = fake().account.responses.get(reply.body.id)!;
		expect(stored.createdAt).toBeGreaterThanOrEqual(before);
		expect(stored.createdAt).toBeLessThanOrEqual(after);
		expect(fake().account.endUsers.get(ada.id)!.properties).toEqual({ plan: 'pro', region: 'EU' });
	});

	it.each(['0', '10'])('accepts the boundary score %s', async (score) => {
		const reply = await api().post(
			`/v1/end_users/${ada.id}/responses`,
			`score=${score}&ip_address=203.0.113.9&origin_url=https://app.example.com/`,
		);
		expect(reply.status).toBe(201);
		expect(reply.body.score).toBe(Number(score));
	});

	it.each([['score=-1&'], ['score=11&'], ['score=7.5&'], ['score=ten&'], ['score=&'], ['']])(
		'answers 400 naming score for "%s" and stores nothing',
		async (scorePart) => {
			const reply = await api().post(
				`/v1/end_users/${ada.id}/responses`,
				`${scorePart}ip_address=203.0.113.9&origin_url=https://app.example.com/&end_user[properties][plan]=enterprise`,
			);
			expectBadRequest(reply, 'score');
			expect([...fake().account.responses.keys()]).toEqual([earlier.id]);
			expect(fake().account.endUsers.get(ada.id)!.properties).toEqual({
				plan: 'pro',
				region: 'EU',
			});
		},
	);

	it.each([
		['ip_address', 'score=9&origin_url=https://app.example.com/'],
		['origin_url', 'score=9&ip_address=203.0.113.9'],
		[
			'created_at',
			'score=9&ip_address=203.0.113.9&origin_url=https://app.example.com/&created_at=yesterday',
		],
	])('answers 400 naming %s when it is missing or malformed', async (field, form) => {
		expectBadRequest(await api().post(`/v1/end_users/${ada.id}/responses`, form), field);
		expect(fake().account.responses.size).toBe(1);
	});

	it('answers 404 for an unknown end user', async () => {
		expectNotFound(
			await api().post(
				'/v1/end_users/999999/responses',
				'score=9&ip_address=203.0.113.9&origin_url=https://app.example.com/',
			),
		);
	});
});

describe('PUT /v1/responses/<id>', () => {
	let ada: EndUser;
	let response: SurveyResponse;
	let other: SurveyResponse;

	beforeEach(() => {
		ada = user('ada@example.com', { plan: 'pro', seats: '3' });
		response = respond(ada, 9, FIXED_NOW - 2 * HOUR, {
			endUserProperties: { plan: 'starter', seats: '3' },
		});
		other = respond(ada, 4, FIXED_NOW - 1 * HOUR, {
			endUserProperties: { plan: 'pro', seats: '3' },
		});
		fake().clock.advance(HOUR);
	});

	it('sets completed: 204 with an empty body, and bumps updated_at', async () => {
		const reply = await api().put(`/v1/responses/${response.id}`, 'completed=false');
		expect(reply.status).toBe(204);
		expect(reply.text).toBe('');
		const readBack = await api().get(`/v1/end_users/${ada.id}/responses/${response.id}`);
		expect(readBack.body.completed).toBe(false);
		expect(readBack.body.updated_at).toMatch(/^2024-03-10 13:00:\d\d -0800$/);
		expect(idsOf(await api().get('/v1/responses', 'sort_key=updated_at'))).toEqual([
			response.id,
			other.id,
		]);

		expect((await api().put(`/v1/responses/${response.id}`, 'completed=true')).status).toBe(204);
		expect(fake().account.responses.get(response.id)!.completed).toBe(true);
	});

	it('sets and clears excluded_from_calculations, which moves the response out of and back into the default list', async () => {
		const exclude = await api().put(
			`/v1/responses/${response.id}`,
			'excluded_from_calculations=true',
		);
		expect(exclude.status).toBe(204);
		expect(exclude.text).toBe('');
		expect(idsOf(await api().get('/v1/responses'))).toEqual([other.id]);
		const all = await api().get('/v1/responses', 'excluded_from_calculations=true');
		expect(
			all.body.map(
				(record: { excluded_from_calculations: boolean }) => record.excluded_from_calculations,
			),
		).toEqual([false, true]);

		const include = await api().put(
			`/v1/responses/${response.id}`,
			'excluded_from_calculations=false',
		);
		expect(include.status).toBe(204);
		expect(idsOf(await api().get('/v1/responses'))).toEqual([other.id, response.id]);
	});

	it('answers 423 to end_user[properties] unless historical edits are enabled, and changes nothing', async () => {
		const reply = await api().put(
			`/v1/responses/${response.id}`,
			'completed=false&end_user[properties][plan]=enterprise',
		);
		expect(reply.status).toBe(423);
		expect(reply.body).toEqual({
			type: 'error_list',
			errors: [{ status: 'locked', message: expect.any(String), field: 'end_user[properties]' }],
		});
		const stored = fake().account.responses.get(response.id)!;
		expect(stored.completed).toBe(true);
		expect(stored.endUserProperties).toEqual({ plan: 'starter', seats: '3' });
		expect(stored.updatedAt).toBe(FIXED_NOW - 2 * HOUR);
	});

	it('with historical edits enabled, replaces that response’s properties only, not the end user’s nor other responses’', async () => {
		fake().account.historicalEditsEnabled = true;
		const reply = await api().put(
			`/v1/responses/${response.id}`,
			'end_user[properties][plan]=enterprise',
		);
		expect(reply.status).toBe(204);
		expect(reply.text).toBe('');
		expect(
			(await api().get(`/v1/end_users/${ada.id}/responses/${response.id}`)).body.end_user,
		).toEqual({ properties: { plan: 'enterprise' } });
		expect(
			(await api().get(`/v1/end_users/${ada.id}/responses/${other.id}`)).body.end_user,
		).toEqual({ properties: { plan: 'pro', seats: '3' } });
		expect((await api().get(`/v1/end_users/${ada.id}`)).body.properties).toEqual({
			plan: 'pro',
			seats: '3',
		});
	});

	it('answers 400 to a flag that is not a boolean', async () => {
		expectBadRequest(
			await api().put(`/v1/responses/${response.id}`, 'completed=maybe'),
			'completed',
		);
		expectBadRequest(
			await api().put(`/v1/responses/${response.id}`, 'excluded_from_calculations=yes'),
			'excluded_from_calculations',
		);
	});

	it('answers 404 with an error_list for an unknown response', async () => {
		for (const id of ['999999', 'abc']) {
			expectNotFound(await api().put(`/v1/responses/${id}`, 'completed=true'));
		}
	});
});

describe('DELETE /v1/end_users/<id>/responses/<id>', () => {
	it('deletes: 204 with an empty body; the response is gone from reads and lists', async () => {
		const ada = user('ada@example.com');
		const kept = respond(ada, 9, FIXED_NOW - 2 * HOUR);
		const deleted = respond(ada, 3, FIXED_NOW - 1 * HOUR);
		const reply = await api().delete(`/v1/end_users/${ada.id}/responses/${deleted.id}`);
		expect(reply.status).toBe(204);
		expect(reply.text).toBe('');
		expect((await api().get(`/v1/end_users/${ada.id}/responses/${deleted.id}`)).status).toBe(404);
		expect(idsOf(await api().get('/v1/responses'))).toEqual([kept.id]);
		expect(idsOf(await api().get(`/v1/end_users/${ada.id}/responses`))).toEqual([kept.id]);
	});

	it('answers 404 for another end user’s response (which stays) and for unknown ids', async () => {
		const ada = user('ada@example.com');
		const grace = user('grace@example.com');
		const gracesResponse = respond(grace, 9, FIXED_NOW - HOUR);
		for (const path of [
			`/v1/end_users/${ada.id}/responses/${gracesResponse.id}`,
			`/v1/end_users/${ada.id}/responses/999999`,
		]) {
			expectNotFound(await api().delete(path));
		}
		expect(fake().account.responses.has(gracesResponse.id)).toBe(true);
	});
});
