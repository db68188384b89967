import { addResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import type { EndUser, SurveyResponse } from '../fake/store';
import { TriggerSession } from '../support/wootric';

/**
 * Account data no window of 1,500 can page past: same-second clusters larger than a window (an import that
 * sets created_at), and records whose time cannot be read. The trigger keeps going, each record once.
 */
describe('Wootric Trigger: clusters no window can page past', () => {
	let fake: FakeWootric;
	let user: EndUser;
	let session: TriggerSession;

	beforeEach(async () => {
		fake = await startFakeWootric();
		user = createEndUser(fake.account, fake.store, 'ada@example.com');
		session = new TriggerSession(fake, { events: ['response'] });
		await session.poll();
	});
	afterEach(async () => await fake.close());

	/** `count` responses created in second `createdAt`, the i-th updated in second updatedAt(i). */
	const cluster = (count: number, createdAt: number, updatedAt: (index: number) => number = () => createdAt) =>
		Array.from({ length: count }, (_, index) => addResponse(fake.account, fake.store, { endUserId: user.id, score: index % 11, createdAt, updatedAt: updatedAt(index) }));
	const idsOf = (records: SurveyResponse[]) => records.map((record) => record.id);
	const emittedIds = () => session.emitted.filter((item) => item.event === 'response').map((item) => item.id);
	const sorted = (ids: unknown[]) => [...ids].sort((a, b) => Number(a) - Number(b));

	it('emits 1,600 responses of one created and updated second, and one five seconds later, each once; the next poll carries on', async () => {
		const second = fake.clock.now() + 1;
		const imported = cluster(1600, second);
		const later = cluster(1, second + 5);

		const poll = await session.poll();
		const idle = await session.poll();
		const next = cluster(2, second + 6);
		const after = await session.poll();

		expect(poll.error).toBeUndefined();
		expect(sorted(poll.items.map((item) => item.id))).toEqual(idsOf([...imported, ...later]));
		expect(poll.items.at(-1)?.id).toBe(later[0].id);
		expect(idle.result).toBeNull();
		expect(after.items.map((item) => item.id)).toEqual(idsOf(next));
		expect(new Set(emittedIds()).size).toBe(emittedIds().length);
		// The second was read oldest first, then newest first until the two met.
		const splitReads = fake.requestsTo('/v1/responses').filter((request) => request.rawQuery.includes(`created[eq]=${second}&`));
		expect(splitReads.some((request) => request.query.sort_order === 'desc')).toBe(true);
	});

	it('emits 4,000 responses of one created second, imported over 40 seconds, each once: the second is read along updated_at', async () => {
		const second = fake.clock.now() + 1;
		const imported = cluster(4000, second, (index) => second + Math.floor(index / 100));
		const later = cluster(3, second + 60);

		const poll = await session.poll();
		const idle = await session.poll();

		expect(poll.error).toBeUndefined();
		expect(sorted(emittedIds())).toEqual(idsOf([...imported, ...later]));
		expect(idle.result).toBeNull();
		const alongUpdated = fake.requestsTo('/v1/responses').filter((request) => request.rawQuery.startsWith('updated[gte]=') && request.rawQuery.includes(`created[eq]=${second}&sort_key=updated_at&sort_order=asc`));
		expect(alongUpdated.length).toBeGreaterThan(0);
	});

	it('passes 4,000 responses of one created and one updated second: emits the 3,000 it can read and a warning, once, then carries on', async () => {
		const second = fake.clock.now() + 1;
		const stuck = cluster(4000, second);
		const later = cluster(2, second + 5);

		const poll = await session.poll();
		const idle = await session.poll();
		const next = cluster(1, second + 9);
		const after = await session.poll();

		expect(poll.error).toBeUndefined();
		const responses = poll.items.filter((item) => item.event === 'response');
		expect(responses).toHaveLength(3002);
		expect(responses.map((item) => item.id)).toEqual(expect.arrayContaining(idsOf(later)));
		expect(new Set(responses.map((item) => item.id)).size).toBe(3002);
		const stuckIds = new Set(idsOf(stuck));
		expect(responses.filter((item) => stuckIds.has(Number(item.id)))).toHaveLength(3000);
		const iso = new Date(second * 1000).toISOString();
		expect(poll.items.filter((item) => item.event === 'warning')).toEqual([
			{
				event: 'warning',
				warning:
					`Records of /v1/responses that share created_at ${iso} and updated_at ${iso} cannot all be reached: ` +
					'Wootric lists at most 1500 records per filter, and 3000 of them were read. Read the rest with Get Many for one end user, or with another filter.',
				path: '/v1/responses',
				created_at: iso,
				updated_at: iso,
				records_read: 3000,
			},
		]);
		expect(idle.result).toBeNull();
		expect(after.items).toEqual([expect.objectContaining({ event: 'response', id: next[0].id })]);
		expect(new Set(emittedIds()).size).toBe(emittedIds().length);
	});

	it('emits a record whose created_at cannot be read with its neighbours, and carries on', async () => {
		const start = fake.clock.now() + 1;
		const responses = Array.from({ length: 60 }, (_, index) => cluster(1, start + index)[0]);
		const broken = responses[30].id;
		fake.replyHooks.push((_request, body) => {
			for (const record of Array.isArray(body) ? (body as Array<{ id: number; created_at: string }>) : []) {
				if (record.id === broken) record.created_at = 'sometime last week';
			}
		});

		const poll = await session.poll();
		const later = cluster(1, start + 70);
		const after = await session.poll();

		expect(poll.error).toBeUndefined();
		expect(poll.items.map((item) => item.id)).toEqual(idsOf(responses));
		expect(poll.items[30].created_at).toBe('sometime last week');
		expect(after.items.map((item) => item.id)).toEqual(idsOf(later));
	});
});
