import { addResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import type { EndUser, SurveyResponse } from '../fake/store';
import { cursorOf, listRequestBound, TriggerSession, updatedSinceQuery } from '../support/wootric';

/**
 * Account data no window of 1,500 can page past: same-second clusters larger than a window (an
 * import that sets created_at), and records whose time cannot be read. The trigger keeps going,
 * each record once.
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
	const cluster = (
		count: number,
		createdAt: number,
		updatedAt: (index: number) => number = () => createdAt,
	) =>
		Array.from({ length: count }, (_, index) =>
			addResponse(fake.account, fake.store, {
				endUserId: user.id,
				score: index % 11,
				createdAt,
				updatedAt: updatedAt(index),
			}),
		);
	const idsOf = (records: SurveyResponse[]) => records.map((record) => record.id);
	const emittedIds = () =>
		session.emitted.filter((item) => item.event === 'response').map((item) => item.id);
	const sorted = (ids: unknown[]) => [...ids].sort((a, b) => Number(a) - Number(b));
	const listRequests = () => fake.requestsTo('/v1/responses', 'GET');
	/**
	 * Moves the service's clock on until `second` is `by` seconds old, as time passes after records
	 * are stored.
	 */
	const letTimePass = (second: number, by: number) =>
		fake.clock.advance(second + by - fake.clock.now());
	/** The raw queries of the requests one poll sends. */
	const queriesOf = async () => {
		const before = listRequests().length;
		const poll = await session.poll();
		return {
			poll,
			queries: listRequests()
				.slice(before)
				.map((request) => request.rawQuery),
		};
	};

	it('emits 1,600 responses of one created and updated second, and one five seconds later, each once; the next poll carries on', async () => {
		const second = fake.clock.now() + 1;
		const imported = cluster(1600, second);
		const later = cluster(1, second + 5);
		// Time passes: both seconds are a quarter of a minute old when the trigger reads them.
		letTimePass(second + 5, 15);

		const { poll, queries } = await queriesOf();
		const { complete } = cursorOf(session, 'responses');
		const idle = await queriesOf();
		const next = cluster(2, fake.clock.now());
		const after = await session.poll();

		expect(poll.error).toBeUndefined();
		expect(sorted(poll.items.map((item) => item.id))).toEqual(idsOf([...imported, ...later]));
		expect(poll.items.at(-1)?.id).toBe(later[0].id);
		expect(idle.poll.result).toBeNull();
		expect(idle.queries).toEqual([updatedSinceQuery(complete + 1)]);
		expect(complete).toBeGreaterThanOrEqual(second + 5);
		expect(after.items.map((item) => item.id)).toEqual(idsOf(next));
		expect(new Set(emittedIds()).size).toBe(emittedIds().length);
		// The updated second was read oldest first, then newest first until the two met: no split by
		// created_at.
		expect(
			queries.filter((query) =>
				query.startsWith(`updated[eq]=${second}&sort_key=updated_at&sort_order=desc&`),
			),
		).toHaveLength(3);
		expect(queries.filter((query) => query.includes('created['))).toEqual([]);
	});

	it('emits 4,000 responses of one created second, imported over 40 seconds, each once: the updated stream reads them as any others', async () => {
		const second = fake.clock.now() + 1;
		const imported = cluster(4000, second, (index) => second + Math.floor(index / 100));
		const later = cluster(3, second + 60);
		letTimePass(second + 60, 15);

		const { poll, queries } = await queriesOf();
		const { complete } = cursorOf(session, 'responses');
		const idle = await queriesOf();

		expect(poll.error).toBeUndefined();
		expect(sorted(emittedIds())).toEqual(idsOf([...imported, ...later]));
		// 100 records in each updated second: the window moves along updated_at, no second needs
		// another filter; then one look at the last 10 seconds for records changed while it paged.
		const [check] = queries.splice(-1);
		expect(check).toMatch(
			/^updated\[gte\]=\d+&excluded_from_calculations=true&sort_key=updated_at&sort_order=asc&page=1&per_page=50$/,
		);
		expect(
			queries.every((query) =>
				/^updated\[gte\]=\d+&sort_key=updated_at&sort_order=asc&page=\d+&per_page=50$/.test(query),
			),
		).toBe(true);
		expect(queries.length).toBeLessThanOrEqual(listRequestBound(4003));
		expect(idle.poll.result).toBeNull();
		expect(idle.queries).toEqual([updatedSinceQuery(complete + 1)]);
	});

	it('passes 4,000 responses of one created and one updated second: emits the 3,000 it can read and a warning, once, then carries on', async () => {
		const second = fake.clock.now() + 1;
		const stuck = cluster(4000, second);
		const later = cluster(2, second + 5);

		const poll = await session.poll();
		const told = cursorOf(session, 'responses').told;
		// The second is young: the next polls read it again, and say nothing of it again.
		const idle = await session.poll();
		const next = cluster(1, second + 9);
		const after = await session.poll();
		// Time passes: the second is read for good, and forgotten.
		letTimePass(second + 9, 15);
		await session.poll();
		const settled = await queriesOf();

		expect(poll.error).toBeUndefined();
		const responses = poll.items.filter((item) => item.event === 'response');
		expect(responses).toHaveLength(3002);
		expect(responses.map((item) => item.id)).toEqual(expect.arrayContaining(idsOf(later)));
		expect(new Set(responses.map((item) => item.id)).size).toBe(3002);
		const stuckIds = new Set(idsOf(stuck));
		expect(responses.filter((item) => stuckIds.has(Number(item.id)))).toHaveLength(3000);
		const iso = new Date(second * 1000).toISOString();
		// The wording is the transport's (nodes/Wootric/transport/paging.ts): it names both seconds,
		// says not all could be read, and how many were.
		expect(poll.items.filter((item) => item.event === 'warning')).toEqual([
			{
				event: 'warning',
				warning: expect.stringMatching(
					new RegExp(
						`^Records of /v1/responses that share created_at ${iso} and updated_at ${iso} (cannot all be reached|could not all be read):.* 3000 (of them )?were read\\b`,
					),
				),
				path: '/v1/responses',
				created_at: iso,
				updated_at: iso,
				records_read: 3000,
			},
		]);
		expect(told).toEqual([`${second}/${second}`]);
		expect(idle.result).toBeNull();
		expect(after.items).toEqual([expect.objectContaining({ event: 'response', id: next[0].id })]);
		expect(new Set(emittedIds()).size).toBe(emittedIds().length);
		expect(settled.poll.result).toBeNull();
		expect(settled.queries).toHaveLength(1);
		expect(cursorOf(session, 'responses').told).toBeUndefined();
	});

	it('emits a record whose created_at cannot be read with its neighbours, and carries on', async () => {
		const start = fake.clock.now() + 1;
		const responses = Array.from({ length: 60 }, (_, index) => cluster(1, start + index)[0]);
		const broken = responses[30].id;
		fake.replyHooks.push((_request, body) => {
			for (const record of Array.isArray(body)
				? (body as Array<{ id: number; created_at: string }>)
				: []) {
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
