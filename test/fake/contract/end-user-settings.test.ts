import { createEndUser, DEFAULT_END_USER_SETTINGS } from '../index';
import type { EndUser } from '../store';
import { invalidParameter, NOT_FOUND_BODY, useFakeApi } from './setup';

/** 2023-11-14T22:13:20Z, i.e. 14:13:20 on the 14th at the default account offset of -08:00. */
const T = 1_700_000_000;

const SETTINGS_FIELDS = ['id', 'end_user_id', 'created_at', 'updated_at', 'email_nps'];

const { fake, api } = useFakeApi({ now: T });
let user: EndUser;
beforeEach(() => {
	user = createEndUser(fake().account, fake().store, 'settings@example.com');
});

const settingsPath = () => `/v1/end_users/${user.id}/settings`;
/** The settings body expected for the test's end user. */
const settingsBody = (created_at: string, updated_at: string, email_nps: boolean) => ({
	id: user.settings.id,
	end_user_id: user.id,
	created_at,
	updated_at,
	email_nps,
});
const summaryOnRead = async () => (await api().get(`/v1/end_users/${user.id}`)).body.settings;

describe('GET /v1/end_users/<id>/settings', () => {
	it('answers only id, end_user_id, created_at, updated_at and email_nps, with "YYYY-MM-DD HH:MM:SS-08:00" datetimes', async () => {
		const reply = await api().get(settingsPath());
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual(
			settingsBody('2023-11-14 14:13:20-08:00', '2023-11-14 14:13:20-08:00', true),
		);
		expect(Object.keys(reply.body)).toEqual(SETTINGS_FIELDS);
		expect(reply.body.id).not.toBe(user.id);
	});

	it('answers 404 for an unknown or non-numeric end user', async () => {
		expect(await api().get('/v1/end_users/999999/settings')).toMatchObject({
			status: 404,
			body: NOT_FOUND_BODY,
		});
		expect(await api().get('/v1/end_users/settings%40example.com/settings')).toMatchObject({
			status: 404,
			body: NOT_FOUND_BODY,
		});
	});
});

describe('PUT /v1/end_users/<id>/settings', () => {
	it('changes email_nps, answering the settings body with ISO-millisecond datetimes', async () => {
		fake().clock.set(T + 3600);
		const reply = await api().put(settingsPath(), 'email_nps=false');
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual(
			settingsBody('2023-11-14T14:13:20.000-08:00', '2023-11-14T15:13:20.000-08:00', false),
		);
		expect(Object.keys(reply.body)).toEqual(SETTINGS_FIELDS);
		const read = await api().get(settingsPath());
		expect(read.body).toMatchObject({
			email_nps: false,
			created_at: '2023-11-14 14:13:20-08:00',
			updated_at: '2023-11-14 15:13:20-08:00',
		});
		expect(await summaryOnRead()).toEqual({ ...DEFAULT_END_USER_SETTINGS, email_nps: false });
	});

	it.each([
		['mobile_nps', 'false', false],
		['web_nps', 'false', false],
		['force_web_survey', 'true', true],
		['force_mobile_survey', 'true', true],
	] as const)(
		'changes %s, shown in the settings hash of the end user and not in the settings body',
		async (flag, sent, expected) => {
			const reply = await api().put(settingsPath(), `${flag}=${sent}`);
			expect(reply.status).toBe(200);
			expect(Object.keys(reply.body)).toEqual(SETTINGS_FIELDS);
			expect(reply.body.email_nps).toBe(true);
			expect(await summaryOnRead()).toEqual({ ...DEFAULT_END_USER_SETTINGS, [flag]: expected });
		},
	);

	it('changes several flags at once, reads 1 and 0 as booleans, and leaves flags not sent alone', async () => {
		await api().put(settingsPath(), 'email_nps=0&web_nps=0&force_mobile_survey=1');
		expect(await summaryOnRead()).toEqual({
			...DEFAULT_END_USER_SETTINGS,
			email_nps: false,
			web_nps: false,
			force_mobile_survey: true,
		});
		await api().put(settingsPath(), 'email_nps=true');
		expect(await summaryOnRead()).toEqual({
			...DEFAULT_END_USER_SETTINGS,
			web_nps: false,
			force_mobile_survey: true,
		});
	});

	it('does not let surveys_disabled_by_end_user be set (it is the end user\u2019s own choice)', async () => {
		await api().put(settingsPath(), 'surveys_disabled_by_end_user=true');
		expect((await summaryOnRead()).surveys_disabled_by_end_user).toBe(false);
	});

	it('answers 400 for a value that is not a boolean, and changes nothing', async () => {
		fake().clock.set(T + 60);
		const reply = await api().put(settingsPath(), 'email_nps=false&web_nps=maybe');
		expect([reply.status, reply.body]).toEqual([400, invalidParameter('web_nps')]);
		expect(await summaryOnRead()).toEqual(DEFAULT_END_USER_SETTINGS);
		expect(user.settings.updatedAt).toBe(T);
		const hash = await api().put(settingsPath(), 'email_nps[]=false');
		expect([hash.status, hash.body]).toEqual([400, invalidParameter('email_nps')]);
	});

	it('answers 404 for an unknown end user', async () => {
		expect(await api().put('/v1/end_users/999999/settings', 'email_nps=false')).toMatchObject({
			status: 404,
			body: NOT_FOUND_BODY,
		});
	});
});
