import { addDecline, addResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import type { EndUser } from '../fake/store';
import { listRequestBound, TriggerSession } from '../support/wootric';

/** The Wootric Trigger through n8n's poll machinery, many polls with static data kept, against the fake. */
describe('Wootric Trigger', () => {
	let fake: FakeWootric;
	let user: EndUser;

	beforeEach(async () => {
		fake = await startFakeWootric();
		user = createEndUser(fake.account, fake.store, 'ada@example.com', { externalId: 'crm-1', properties: { plan: 'pro' } });
	});
	afterEach(async () => await fake.close());

	const listRequests = (path: string) => fake.requestsTo(path, 'GET');
	/** Responses one second apart from `start` (default: after now), scores cycling 0..10. */
	const insertResponses = (count: number, start = fake.clock.now() + 1, secondOf = (index: number) => start + index) =>
		Array.from({ length: count }, (_, index) =>
			addResponse(fake.account, fake.store, { endUserId: user.id, score: index % 11, text: index % 3 ? `comment ${index}` : null, createdAt: secondOf(index) }),
		);

	it('starts from now on its first poll, then an idle poll costs exactly one request per event', async () => {
		insertResponses(5, fake.clock.now() - 100);
		const session = new TriggerSession(fake, { events: ['response', 'decline'] });

		const first = await session.poll();
		const idle = await session.poll();

		expect(first.result).toBeNull();
		expect(idle.result).toBeNull();
		expect(fake.apiRequests().map((request) => request.path).sort()).toEqual(['/v1/declines', '/v1/responses']);
		expect(listRequests('/v1/responses')[0].rawQuery).toBe(`created[gte]=${session.staticData.response && (session.staticData.response as { since: number }).since}&sort_key=created_at&sort_order=asc&page=1&per_page=50`);
	});

	it('signs in once for events read at the same time without a token', async () => {
		const session = new TriggerSession(fake, { events: ['response', 'responseUpdated', 'decline'] });
		await session.poll();
		fake.latencyMs = 20;

		const poll = await session.poll();

		expect(poll.error).toBeUndefined();
		expect(fake.requestsTo('/oauth/token').map((request) => request.body.grant_type)).toEqual(['password']);
		expect(fake.apiRequests().map((request) => request.status)).toEqual([200, 200, 200]);
	});

	it('reads the events at the same time, and emits them together, oldest first', async () => {
		const session = new TriggerSession(fake, { events: ['response', 'decline'] });
		await session.poll();
		const now = fake.clock.now();
		const decline = addDecline(fake.account, fake.store, { endUserId: user.id, createdAt: now + 1 });
		const [response] = insertResponses(1, now + 2);
		fake.latencyMs = 50;

		const poll = await session.poll();

		expect(poll.error).toBeUndefined();
		expect(session.emitted.map((item) => [item.event, item.id])).toEqual([
			['decline', decline.id],
			['response', response.id],
		]);
		expect(fake.mostAtOnce).toBe(2);
	});

	it('emits a burst of 5,000 with a 120-response same-second cluster: each once, oldest first, within ceil(N/50) + ceil(N/1500) + the pages in flight', async () => {
		const session = new TriggerSession(fake, { events: ['response'] });
		await session.poll();
		const start = fake.clock.now() + 1;
		const burst = insertResponses(5000, start, (index) => (index < 600 ? start + index : index < 720 ? start + 600 : start + index - 119));

		const poll = await session.poll();
		const burstRequests = listRequests('/v1/responses').length;
		const after = await session.poll();

		expect(poll.error).toBeUndefined();
		expect(session.emitted.map((item) => item.id)).toEqual(burst.map((response) => response.id));
		expect(burstRequests).toBeLessThanOrEqual(listRequestBound(5000));
		expect(listRequests('/v1/responses')).toHaveLength(burstRequests + 1);
		expect(after.result).toBeNull();
		expect(session.emitted[0]).toMatchObject({ event: 'response', id: burst[0].id, score: 0, end_user_id: user.id });
	});

	it('emits responses created while it pages, in that poll or the next, never twice', async () => {
		const session = new TriggerSession(fake, { events: ['response'] });
		await session.poll();
		const first = insertResponses(200);
		const latest = first[first.length - 1].createdAt;
		let late: ReturnType<typeof insertResponses> = [];
		fake.arrivalHooks.push((request) => {
			if (request.query.page === '3' && late.length === 0) {
				// Three at the last second already listed, three after it.
				late = [...insertResponses(3, latest, () => latest), ...insertResponses(3, latest + 1)];
			}
		});

		await session.poll();
		await session.poll();

		const expected = [...first, ...late].map((response) => response.id).sort((a, b) => a - b);
		expect(session.emitted.map((item) => item.id).sort((a, b) => Number(a) - Number(b))).toEqual(expected);
	});

	it('fails a poll on a 500 at page 7 without moving its cursor; the next poll emits exactly what was missing', async () => {
		const session = new TriggerSession(fake, { events: ['response'] });
		await session.poll();
		const burst = insertResponses(400);
		const before = JSON.stringify(session.staticData);
		// Page 7 fails every try of this poll (the page asked for ahead and every retry).
		fake.faults.inject({ path: '/v1/responses', when: (request) => request.query.page === '7', times: Infinity, fault: { kind: 'status', status: 500 } });

		const failed = await session.poll();
		fake.faults.clear();

		expect(failed.error).toMatchObject({ httpCode: '500' });
		expect(failed.result).toBeNull();
		expect(JSON.stringify(session.staticData)).toBe(before);

		const recovered = await session.poll();

		expect(recovered.error).toBeUndefined();
		expect(session.emitted.map((item) => item.id)).toEqual(burst.map((response) => response.id));
	});

	it('filters responses by category, score and comment; lets declines through; tells the events apart, oldest first', async () => {
		const session = new TriggerSession(fake, { events: ['response', 'decline'], filters: { categories: ['detractor'], minScore: 2, onlyWithComment: true } });
		await session.poll();
		const now = fake.clock.now();
		const responses = insertResponses(11, now + 1);
		const decline = addDecline(fake.account, fake.store, { endUserId: user.id, createdAt: now + 4 });
		const excluded = addResponse(fake.account, fake.store, { endUserId: user.id, score: 1, text: 'excluded', createdAt: now + 2, excludedFromCalculations: true });

		const poll = await session.poll();

		const wanted = responses.filter((response) => response.score >= 2 && response.score <= 6 && response.text);
		expect(poll.items.map((item) => [item.event, item.id])).toEqual(
			[...wanted.map((response) => ['response', response.id, response.createdAt] as const), ['decline', decline.id, decline.createdAt] as const]
				.sort((a, b) => a[2] - b[2] || a[0].localeCompare(b[0]))
				.map(([event, id]) => [event, id]),
		);
		expect(poll.items.map((item) => item.id)).not.toContain(excluded.id);
	});

	it('with Include End User adds each end user once per poll; a deleted one is marked', async () => {
		const other = createEndUser(fake.account, fake.store, 'grace@example.com');
		const session = new TriggerSession(fake, { events: ['response'], options: { includeEndUser: true, simplify: true } });
		await session.poll();
		insertResponses(3);
		addResponse(fake.account, fake.store, { endUserId: other.id, score: 9, createdAt: fake.clock.now() + 10 });
		fake.account.endUsers.delete(other.id);

		const poll = await session.poll();

		expect(poll.items.map((item) => item.end_user)).toEqual([
			...Array(3).fill({ properties: {}, id: user.id, email: 'ada@example.com', external_id: 'crm-1', current_properties: { plan: 'pro' } }),
			{ properties: {}, deleted: true },
		]);
		expect(fake.requestsTo(`/v1/end_users/${user.id}`)).toHaveLength(1);
		expect(poll.items[0]).toMatchObject({ nps_category: 'detractor', created_at: expect.stringMatching(/Z$/) });
	});

	it('returns the newest matching record in manual mode and leaves the cursor alone', async () => {
		const session = new TriggerSession(fake, { events: ['response'], filters: { categories: ['promoter'] } });
		await session.poll();
		const responses = insertResponses(30);
		const state = JSON.stringify(session.staticData);

		const sample = await session.poll('manual');

		const newestPromoter = responses.filter((response) => response.score >= 9).pop()!;
		expect(sample.items).toEqual([expect.objectContaining({ event: 'response', id: newestPromoter.id })]);
		expect(JSON.stringify(session.staticData)).toBe(state);
		expect((await session.poll()).items).toHaveLength(responses.filter((response) => response.score >= 9).length);
	});

	it('starts from Start From on its first poll', async () => {
		const old = insertResponses(3, fake.clock.now() - 3600);
		const older = insertResponses(2, fake.clock.now() - 7200);
		const session = new TriggerSession(fake, { events: ['response'], options: { startFrom: new Date((fake.clock.now() - 4000) * 1000).toISOString() } });

		const poll = await session.poll();

		expect(poll.items.map((item) => item.id)).toEqual(old.map((response) => response.id));
		expect(poll.items.map((item) => item.id)).not.toContain(older[0].id);
	});

	it('with a Lookback emits a record that arrives late with an older created_at, once', async () => {
		const session = new TriggerSession(fake, { events: ['response'], options: { lookbackMinutes: 10 } });
		await session.poll();
		const onTime = insertResponses(5);
		await session.poll();
		const late = insertResponses(1, onTime[0].createdAt - 120);

		await session.poll();
		await session.poll();

		expect(session.emitted.map((item) => item.id)).toEqual([...onTime, ...late].map((response) => response.id));
	});

	it('rejects an empty event list or a minimum above the maximum, before any request', async () => {
		const noEvents = await new TriggerSession(fake, { events: [] }).poll();
		const badRange = await new TriggerSession(fake, { events: ['response'], filters: { minScore: 9, maxScore: 3 } }).poll();

		expect(noEvents.error?.message).toMatch(/^Events needs at least one event/);
		expect(badRange.error?.message).toMatch(/^Minimum Score must not be above the Maximum Score \(3\)/);
		expect(fake.requests).toEqual([]);
	});
});
