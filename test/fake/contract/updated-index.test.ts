import { addDecline, addResponse, changeResponse, createEndUser } from '../index';
import type { EndUser } from '../store';
import { FIXED_NOW, HOUR, idsOf, useFakeApi } from './setup';

const { fake, api } = useFakeApi({ now: FIXED_NOW });

/**
 * The `updated` index (the spec's common list parameter and sort_key updated_at) on every list
 * endpoint that takes it, and a response that is stored before it is complete: what the trigger's
 * Updated Response and Wait Until Complete read.
 */
describe('updated[...] and sort_key=updated_at on every list endpoint that takes them', () => {
	let ada: EndUser;
	/** Records a, b, c of each kind: created in that order, updated in the order c, a, b. */
	const ids: Record<string, number[]> = {};
	const created = [FIXED_NOW - 3 * HOUR, FIXED_NOW - 2 * HOUR, FIXED_NOW - 1 * HOUR];
	const updated = [FIXED_NOW - 20 * 60, FIXED_NOW - 10 * 60, FIXED_NOW - 30 * 60];

	beforeEach(() => {
		const { account, store } = fake();
		// End users: ada is the owner of the responses and declines; the two others complete the trio.
		ada = createEndUser(account, store, 'ada@example.com', {
			createdAt: created[0],
			updatedAt: updated[0],
		});
		const users = [
			ada,
			...['bob', 'cy'].map((name, index) =>
				createEndUser(account, store, `${name}@example.com`, {
					createdAt: created[index + 1],
					updatedAt: updated[index + 1],
				}),
			),
		];
		ids.endUsers = users.map((user) => user.id);
		ids.responses = created.map(
			(createdAt, index) =>
				addResponse(account, store, {
					endUserId: ada.id,
					score: 3,
					createdAt,
					updatedAt: updated[index],
				}).id,
		);
		ids.declines = created.map(
			(createdAt, index) =>
				addDecline(account, store, { endUserId: ada.id, createdAt, updatedAt: updated[index] }).id,
		);
	});

	const endpoints: Array<[string, () => string, string]> = [
		['/v1/responses', () => '/v1/responses', 'responses'],
		['/v1/end_users/<id>/responses', () => `/v1/end_users/${ada.id}/responses`, 'responses'],
		['/v1/declines', () => '/v1/declines', 'declines'],
		['/v1/end_users/<id>/declines', () => `/v1/end_users/${ada.id}/declines`, 'declines'],
		['/v1/end_users', () => '/v1/end_users', 'endUsers'],
	];

	it.each(endpoints)('%s filters on updated and sorts by updated_at', async (_name, path, kind) => {
		const [a, b, c] = ids[kind];
		const list = async (query: string) =>
			idsOf(await api().get(path(), `${query}&sort_key=updated_at&sort_order=asc`));

		expect(await list('')).toEqual([c, a, b]);
		expect(await list(`updated[gt]=${updated[2]}`)).toEqual([a, b]);
		expect(await list(`updated[gte]=${updated[2]}&updated[lt]=${updated[1]}`)).toEqual([c, a]);
		expect(await list(`updated[eq]=${updated[0]}`)).toEqual([a]);
		expect(await list(`updated[lte]=${updated[0]}&created[eq]=${created[2]}`)).toEqual([c]);
		expect(idsOf(await api().get(path(), 'sort_key=updated_at&sort_order=desc'))).toEqual([
			b,
			a,
			c,
		]);
	});

	describe('in an older variant of the API, without the updated index (updatedIndex off)', () => {
		beforeEach(() => (fake().updatedIndex = false));

		it.each(endpoints.slice(0, 4))(
			'%s accepts updated[...] and sort_key and ignores both: created_at order, newest first unless sort_order says, the created filter applied',
			async (_name, path, kind) => {
				const [a, b, c] = ids[kind];
				const list = async (query: string) => {
					const reply = await api().get(path(), query);
					expect(reply.status).toBe(200);
					return idsOf(reply);
				};

				expect(await list(`updated[gt]=${updated[2]}&sort_key=updated_at`)).toEqual([c, b, a]);
				expect(await list(`updated[eq]=${updated[0]}&sort_key=updated_at&sort_order=asc`)).toEqual([
					a,
					b,
					c,
				]);
				expect(await list(`updated[lt]=${updated[1]}&created[gte]=${created[1]}`)).toEqual([c, b]);
			},
		);

		it('/v1/end_users keeps its updated index', async () => {
			const [a, b, c] = ids.endUsers;
			const reply = await api().get('/v1/end_users', 'sort_key=updated_at&sort_order=asc');

			expect(idsOf(reply)).toEqual([c, a, b]);
		});
	});
});

describe('a response stored before it is complete', () => {
	it('is listed with completed false; the comment given later moves updated_at, which updated[...] finds', async () => {
		const { account, store } = fake();
		const ada = createEndUser(account, store, 'ada@example.com');
		const response = addResponse(account, store, {
			endUserId: ada.id,
			score: 2,
			completed: false,
			createdAt: FIXED_NOW - 120,
			updatedAt: FIXED_NOW - 120,
		});

		const before = await api().get('/v1/responses');
		expect(before.body[0]).toMatchObject({ id: response.id, completed: false, text: null });
		expect(idsOf(await api().get('/v1/responses', `updated[gt]=${FIXED_NOW - 120}`))).toEqual([]);

		changeResponse(
			account,
			store,
			response.id,
			{ text: 'Too slow', completed: true },
			FIXED_NOW - 60,
		);

		const after = await api().get('/v1/responses', `updated[gt]=${FIXED_NOW - 120}`);
		expect(after.body).toHaveLength(1);
		expect(after.body[0]).toMatchObject({
			id: response.id,
			completed: true,
			text: 'Too slow',
			updated_at: '2024-03-10 11:59:00 -0800',
			created_at: '2024-03-10 11:58:00 -0800',
		});
	});

	it('PUT completed=true marks it completed and moves updated_at to now', async () => {
		const { account, store } = fake();
		const ada = createEndUser(account, store, 'ada@example.com');
		const response = addResponse(account, store, {
			endUserId: ada.id,
			score: 9,
			completed: false,
			createdAt: FIXED_NOW - 600,
			updatedAt: FIXED_NOW - 600,
		});

		expect((await api().put(`/v1/responses/${response.id}`, 'completed=true')).status).toBe(204);

		const listed = await api().get('/v1/responses', `updated[gte]=${FIXED_NOW}`);
		expect(listed.body).toEqual([expect.objectContaining({ id: response.id, completed: true })]);
	});
});
