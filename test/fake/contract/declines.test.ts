import { addDecline, createEndUser } from '../index';
import type { Decline, EndUser } from '../store';
import { DAY, expectNotFound, FIXED_NOW, HOUR, idsOf, useFakeApi } from './setup';

const { fake, api } = useFakeApi({ now: FIXED_NOW });

const user = (email: string, properties: Record<string, string> = {}) =>
	createEndUser(fake().account, fake().store, email, { properties });

const decline = (endUser: EndUser, createdAt: number, fields: Partial<Decline> = {}) =>
	addDecline(fake().account, fake().store, {
		endUserId: endUser.id,
		createdAt,
		updatedAt: createdAt,
		...fields,
	});

describe('GET /v1/declines and /v1/end_users/<id>/declines', () => {
	let ada: EndUser;
	let early: Decline;
	let middle: Decline;
	let late: Decline;

	// Stored out of time order, so that neither id order matches created_at or updated_at order.
	beforeEach(() => {
		ada = user('ada@example.com');
		const grace = user('grace@example.com');
		late = decline(grace, FIXED_NOW - 1 * HOUR, { updatedAt: FIXED_NOW - 2 * HOUR });
		early = decline(ada, FIXED_NOW - 3 * HOUR, { updatedAt: FIXED_NOW - 1 * HOUR });
		middle = decline(ada, FIXED_NOW - 2 * HOUR, { updatedAt: FIXED_NOW - 3 * HOUR });
	});

	it('lists all declines newest first by default, as full decline objects', async () => {
		const reply = await api().get('/v1/declines');
		expect(reply.status).toBe(200);
		expect(idsOf(reply)).toEqual([late.id, middle.id, early.id]);
		expect(reply.body[2]).toEqual({
			id: early.id,
			end_user_id: ada.id,
			survey_id: early.surveyId,
			ip_address: null,
			origin_url: null,
			created_at: '2024-03-10 09:00:00 -0800',
			updated_at: '2024-03-10 11:00:00 -0800',
			end_user: { properties: {} },
		});
	});

	it.each([
		['sort_order=asc', () => [early, middle, late]],
		['sort_key=updated_at', () => [early, late, middle]],
		['sort_key=updated_at&sort_order=asc', () => [middle, late, early]],
		[`created[gte]=${FIXED_NOW - 2 * HOUR}`, () => [late, middle]],
		[`created[lt]=${FIXED_NOW - 2 * HOUR}`, () => [early]],
		[`updated[gt]=${FIXED_NOW - 3 * HOUR}&updated[lt]=${FIXED_NOW - 1 * HOUR}`, () => [late]],
		['per_page=2', () => [late, middle]],
		['per_page=2&page=2', () => [early]],
	])('takes %s', async (query, expected) => {
		const reply = await api().get('/v1/declines', query);
		expect(reply.status).toBe(200);
		expect(idsOf(reply)).toEqual(expected().map((record) => record.id));
	});

	it('answers 400 to page over 30 and per_page over 50', async () => {
		expect((await api().get('/v1/declines', 'page=31')).status).toBe(400);
		expect((await api().get('/v1/declines', 'per_page=51')).status).toBe(400);
	});

	it('lists one end user’s declines, newest first, with the same parameters', async () => {
		const path = `/v1/end_users/${ada.id}/declines`;
		expect(idsOf(await api().get(path))).toEqual([middle.id, early.id]);
		expect(idsOf(await api().get(path, 'sort_order=asc'))).toEqual([early.id, middle.id]);
		expect(idsOf(await api().get(path, 'sort_key=updated_at'))).toEqual([early.id, middle.id]);
		expect(idsOf(await api().get(path, 'per_page=1&page=2'))).toEqual([early.id]);
		expect(idsOf(await api().get(path, `created[gt]=${FIXED_NOW - 3 * HOUR}`))).toEqual([
			middle.id,
		]);
	});

	it('answers 404 for an unknown end user', async () => {
		expectNotFound(await api().get('/v1/end_users/999999/declines'));
	});
});

describe('GET /v1/end_users/<id>/declines/<id>', () => {
	it('reads one decline of that end user', async () => {
		const ada = user('ada@example.com');
		const record = decline(ada, FIXED_NOW - DAY, {
			ipAddress: '198.51.100.4',
			originUrl: 'https://app.example.com/settings',
			endUserProperties: { plan: 'pro' },
		});
		const reply = await api().get(`/v1/end_users/${ada.id}/declines/${record.id}`);
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({
			id: record.id,
			end_user_id: ada.id,
			survey_id: record.surveyId,
			ip_address: '198.51.100.4',
			origin_url: 'https://app.example.com/settings',
			created_at: '2024-03-09 12:00:00 -0800',
			updated_at: '2024-03-09 12:00:00 -0800',
			end_user: { properties: { plan: 'pro' } },
		});
	});

	it('answers 404 for another end user’s decline and for unknown ids', async () => {
		const ada = user('ada@example.com');
		const graces = decline(user('grace@example.com'), FIXED_NOW - HOUR);
		expectNotFound(await api().get(`/v1/end_users/${ada.id}/declines/${graces.id}`));
		expectNotFound(await api().get(`/v1/end_users/${ada.id}/declines/999999`));
	});
});

describe('POST /v1/end_users/<id>/declines', () => {
	let ada: EndUser;

	beforeEach(() => {
		ada = user('ada@example.com', { plan: 'pro', region: 'EU' });
	});

	it('creates a decline: 201 with its body; end_user[properties] update the end user and stay with the decline', async () => {
		const reply = await api().post(
			`/v1/end_users/${ada.id}/declines`,
			`origin_url=https%3A%2F%2Fapp.example.com%2Fsettings&created_at=${FIXED_NOW - DAY}&end_user[properties][plan]=enterprise`,
		);
		expect(reply.status).toBe(201);
		expect(reply.body).toEqual({
			id: expect.any(Number),
			end_user_id: ada.id,
			survey_id: expect.any(Number),
			user_id: fake().account.userId,
			ip_address: null,
			origin_url: 'https://app.example.com/settings',
			created_at: '2024-03-09 12:00:00 -0800',
			updated_at: expect.stringMatching(/^2024-03-10 12:00:\d\d -0800$/),
			end_user: { properties: { plan: 'enterprise', region: 'EU' } },
		});
		const readBack = await api().get(`/v1/end_users/${ada.id}/declines/${reply.body.id}`);
		const { user_id: _userId, ...declineBody } = reply.body;
		expect(readBack.body).toEqual(declineBody);
		expect((await api().get(`/v1/end_users/${ada.id}`)).body.properties).toEqual({
			plan: 'enterprise',
			region: 'EU',
		});
		expect(idsOf(await api().get('/v1/declines'))).toEqual([reply.body.id]);
	});

	it('needs no parameters: created now, with the end user’s current properties', async () => {
		const before = fake().clock.now();
		const reply = await api().post(`/v1/end_users/${ada.id}/declines`);
		expect(reply.status).toBe(201);
		expect(reply.body.origin_url).toBeNull();
		expect(reply.body.end_user).toEqual({ properties: { plan: 'pro', region: 'EU' } });
		expect(fake().account.declines.get(reply.body.id)!.createdAt).toBeGreaterThanOrEqual(before);
		expect(fake().account.declines.get(reply.body.id)!.createdAt).toBeLessThanOrEqual(
			fake().clock.now(),
		);
	});

	it('answers 400 naming created_at when it is not a UNIX timestamp, and 404 for an unknown end user', async () => {
		const bad = await api().post(`/v1/end_users/${ada.id}/declines`, 'created_at=2024-03-09');
		expect(bad.status).toBe(400);
		expect(bad.body.errors[0].field).toBe('created_at');
		expectNotFound(
			await api().post('/v1/end_users/999999/declines', 'origin_url=https://app.example.com/'),
		);
		expect(fake().account.declines.size).toBe(0);
	});
});

describe('PUT /v1/declines/<id>', () => {
	let ada: EndUser;
	let record: Decline;
	let other: Decline;

	beforeEach(() => {
		ada = user('ada@example.com', { plan: 'pro' });
		record = decline(ada, FIXED_NOW - 2 * HOUR, {
			endUserProperties: { plan: 'starter', seats: '3' },
		});
		other = decline(ada, FIXED_NOW - 1 * HOUR, { endUserProperties: { plan: 'pro' } });
	});

	it('answers 423 to end_user[properties] unless historical edits are enabled, and changes nothing', async () => {
		const reply = await api().put(
			`/v1/declines/${record.id}`,
			'end_user[properties][plan]=enterprise',
		);
		expect(reply.status).toBe(423);
		expect(reply.body).toEqual({
			type: 'error_list',
			errors: [{ status: 'locked', message: expect.any(String), field: 'end_user[properties]' }],
		});
		expect(fake().account.declines.get(record.id)!.endUserProperties).toEqual({
			plan: 'starter',
			seats: '3',
		});
	});

	it('with historical edits enabled: 204, empty body; only that decline’s properties change', async () => {
		fake().account.historicalEditsEnabled = true;
		const reply = await api().put(
			`/v1/declines/${record.id}`,
			'end_user[properties][plan]=enterprise',
		);
		expect(reply.status).toBe(204);
		expect(reply.text).toBe('');
		expect(
			(await api().get(`/v1/end_users/${ada.id}/declines/${record.id}`)).body.end_user,
		).toEqual({ properties: { plan: 'enterprise' } });
		expect((await api().get(`/v1/end_users/${ada.id}/declines/${other.id}`)).body.end_user).toEqual(
			{ properties: { plan: 'pro' } },
		);
		expect((await api().get(`/v1/end_users/${ada.id}`)).body.properties).toEqual({ plan: 'pro' });
	});

	it('answers 404 for an unknown decline, and does not update declines through /v1/responses/<id>', async () => {
		expectNotFound(await api().put('/v1/declines/999999', 'end_user[properties][plan]=enterprise'));
		expectNotFound(await api().put(`/v1/responses/${record.id}`, 'completed=true'));
	});
});

describe('DELETE /v1/end_users/<id>/declines/<id>', () => {
	it('deletes: 204 with an empty body; the decline is gone', async () => {
		const ada = user('ada@example.com');
		const kept = decline(ada, FIXED_NOW - 2 * HOUR);
		const deleted = decline(ada, FIXED_NOW - 1 * HOUR);
		const reply = await api().delete(`/v1/end_users/${ada.id}/declines/${deleted.id}`);
		expect(reply.status).toBe(204);
		expect(reply.text).toBe('');
		expectNotFound(await api().get(`/v1/end_users/${ada.id}/declines/${deleted.id}`));
		expect(idsOf(await api().get('/v1/declines'))).toEqual([kept.id]);
	});

	it('answers 404 for another end user’s decline (which stays) and for unknown ids', async () => {
		const ada = user('ada@example.com');
		const graces = decline(user('grace@example.com'), FIXED_NOW - HOUR);
		expectNotFound(await api().delete(`/v1/end_users/${ada.id}/declines/${graces.id}`));
		expectNotFound(await api().delete(`/v1/end_users/${ada.id}/declines/999999`));
		expect(fake().account.declines.has(graces.id)).toBe(true);
	});
});
