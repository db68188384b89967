import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	startFakeWootric,
	type Fault,
	type FakeWootric,
} from '../fake';
import { responseView } from '../fake/resources/responses';
import type { EndUser } from '../fake/store';
import {
	cursorOf,
	listRequestBound,
	requestsSeen,
	TriggerSession,
	updatedSinceQuery,
} from '../support/wootric';

/**
 * The Wootric Trigger through n8n's poll machinery, many polls with static data kept, against the
 * fake.
 */
describe('Wootric Trigger', () => {
	let fake: FakeWootric;
	let user: EndUser;

	beforeEach(async () => {
		fake = await startFakeWootric();
		user = createEndUser(fake.account, fake.store, 'ada@example.com', {
			externalId: 'crm-1',
			properties: { plan: 'pro' },
		});
	});
	afterEach(async () => await fake.close());

	const listRequests = (path: string) => fake.requestsTo(path, 'GET');
	/** Responses one second apart from `start` (default: after now), scores cycling 0..10. */
	const insertResponses = (
		count: number,
		start = fake.clock.now() + 1,
		secondOf = (index: number) => start + index,
	) =>
		Array.from({ length: count }, (_, index) =>
			addResponse(fake.account, fake.store, {
				endUserId: user.id,
				score: index % 11,
				text: index % 3 ? `comment ${index}` : null,
				createdAt: secondOf(index),
			}),
		);
	/**
	 * Moves the service's clock on until `second` is `by` seconds old, as time passes after records
	 * are stored.
	 */
	const letTimePass = (second: number, by: number) =>
		fake.clock.advance(second + by - fake.clock.now());
	const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
	/**
	 * A Response Created trigger with 400 responses waiting, 30 s old (a poll that read them all would
	 * move the cursor past them), whose list page `page` fails every try with `fault`; and its cursor.
	 */
	const waitingWithPageFailing = async (page: string, fault: Fault) => {
		const session = new TriggerSession(fake, { events: ['response'] });
		await session.poll();
		const burst = insertResponses(400);
		letTimePass(burst[399].createdAt, 30);
		fake.faults.inject({
			path: '/v1/responses',
			when: (request) => request.query.page === page,
			times: Infinity,
			fault,
		});
		return { session, burst, before: JSON.stringify(session.staticData) };
	};

	it('starts from the service’s now on its first poll (one request per endpoint), then an idle poll costs exactly one request per endpoint', async () => {
		// The service's clock is an hour behind the n8n host's: the cursor starts at the service's
		// second.
		fake.clock.advance(-3600);
		const history = insertResponses(5, fake.clock.now() - 100);
		addDecline(fake.account, fake.store, { endUserId: user.id, createdAt: fake.clock.now() - 50 });
		const session = new TriggerSession(fake, { events: ['response', 'decline'] });

		const before = fake.clock.now();
		const first = await session.poll();
		const after = fake.clock.now();
		const started = structuredClone(session.staticData);
		const firstRequests = requestsSeen(fake).sort(byPath);
		const idle = await session.poll();

		expect(first.result).toBeNull();
		expect(idle.result).toBeNull();
		const { from } = cursorOf(session, 'responses');
		const { from: declinesFrom } = cursorOf(session, 'declines');
		for (const second of [from, declinesFrom]) {
			expect(second).toBeGreaterThanOrEqual(before);
			expect(second).toBeLessThanOrEqual(after);
		}
		expect(history[4].createdAt).toBeLessThan(from);
		expect(started).toEqual({
			responses: { complete: from - 1, from, storedThrough: 0, recent: [] },
			declines: { complete: declinesFrom - 1, from: declinesFrom, storedThrough: 0, recent: [] },
		});
		const request = (path: string, rawQuery: string) => ({
			method: 'GET',
			path,
			rawQuery,
			rawBody: '',
			status: 200,
		});
		expect(firstRequests).toEqual([
			request('/v1/declines', 'page=1&per_page=1'),
			request('/v1/responses', 'page=1&per_page=1'),
		]);
		expect(requestsSeen(fake).slice(2).sort(byPath)).toEqual([
			request('/v1/declines', updatedSinceQuery(declinesFrom)),
			request('/v1/responses', updatedSinceQuery(from)),
		]);
	});

	it('signs in once for endpoints read at the same time without a token, and reads New and Updated Response in one request', async () => {
		const session = new TriggerSession(fake, {
			events: ['response', 'responseUpdated', 'decline'],
		});
		fake.latencyMs = 20;

		const first = await session.poll();
		const poll = await session.poll();

		expect(first.error).toBeUndefined();
		expect(poll.error).toBeUndefined();
		expect(fake.requestsTo('/oauth/token').map((request) => request.body.grant_type)).toEqual([
			'password',
		]);
		expect(fake.requestsTo('/oauth/token')).toHaveLength(1);
		expect(fake.apiRequests().map((request) => request.status)).toEqual([200, 200, 200, 200]);
		const { from } = cursorOf(session, 'responses');
		expect(listRequests('/v1/responses').map((request) => request.rawQuery)).toEqual([
			'page=1&per_page=1',
			updatedSinceQuery(from),
		]);
		expect(listRequests('/v1/declines')).toHaveLength(2);
	});

	it('reads the endpoints at the same time, and emits them together, oldest first', async () => {
		const session = new TriggerSession(fake, { events: ['response', 'decline'] });
		await session.poll();
		const now = fake.clock.now();
		const decline = addDecline(fake.account, fake.store, {
			endUserId: user.id,
			createdAt: now + 1,
		});
		const [response] = insertResponses(1, now + 2);
		fake.latencyMs = 50;
		fake.mostAtOnce = 0;

		const poll = await session.poll();

		expect(poll.error).toBeUndefined();
		expect(session.emitted.map((item) => [item.event, item.id])).toEqual([
			['decline', decline.id],
			['response', response.id],
		]);
		expect(fake.mostAtOnce).toBe(2);
	});

	it('reads an account in Rails’ UTC zone (times `… UTC`): its response, its change and a decline, keyed by their seconds', async () => {
		await fake.close();
		fake = await startFakeWootric({ railsUtc: true });
		user = createEndUser(fake.account, fake.store, 'ada@example.com');
		const session = new TriggerSession(fake, {
			events: ['response', 'responseUpdated', 'decline'],
		});
		await session.poll();
		const [response] = insertResponses(1);
		const decline = addDecline(fake.account, fake.store, {
			endUserId: user.id,
			createdAt: response.createdAt + 1,
		});
		letTimePass(response.createdAt, 60);
		await session.poll();
		changeResponse(fake.account, fake.store, response.id, { text: 'Later' });
		letTimePass(fake.clock.now(), 60);
		const poll = await session.poll();

		expect(poll.error).toBeUndefined();
		const second = (unix: number) => new Date(unix * 1000).toISOString().replace('.000Z', 'Z');
		// The service wrote `… UTC`; the items carry the same second in ISO 8601.
		expect(responseView(fake.account, response).created_at).toMatch(/ UTC$/);
		expect(session.emitted[0].created_at).toBe(new Date(response.createdAt * 1000).toISOString());
		expect(session.emitted.map((item) => item.idempotency_key)).toEqual([
			`response:${response.id}`,
			`decline:${decline.id}`,
			`responseUpdated:${response.id}:${second(fake.account.responses.get(response.id)!.updatedAt)}`,
		]);
	});

	it('emits a burst of 5,000 with a 120-response same-second cluster: each once, oldest first, within ceil(N/50) + ceil(N/1500) + the pages in flight; the next idle poll is one request', async () => {
		const session = new TriggerSession(fake, { events: ['response'] });
		await session.poll();
		const { from } = cursorOf(session, 'responses');
		const start = from + 1;
		const burst = insertResponses(5000, start, (index) =>
			index < 600 ? start + index : index < 720 ? start + 600 : start + index - 119,
		);
		// The burst was stored over 81 minutes; the trigger reads it half a minute after the last one.
		letTimePass(burst[4999].createdAt, 30);
		const before = listRequests('/v1/responses').length;

		const poll = await session.poll();
		const burstRequests = listRequests('/v1/responses').slice(before);
		const { complete } = cursorOf(session, 'responses');
		const after = await session.poll();

		expect(poll.error).toBeUndefined();
		expect(session.emitted.map((item) => item.id)).toEqual(burst.map((response) => response.id));
		expect(burstRequests[0].rawQuery).toBe(updatedSinceQuery(from));
		expect(burstRequests.length).toBeLessThanOrEqual(listRequestBound(5000));
		expect(complete).toBeGreaterThanOrEqual(burst[4999].createdAt);
		expect(
			listRequests('/v1/responses')
				.slice(before + burstRequests.length)
				.map((request) => request.rawQuery),
		).toEqual([updatedSinceQuery(complete + 1)]);
		expect(after.result).toBeNull();
		expect(session.emitted[0]).toMatchObject({
			event: 'response',
			id: burst[0].id,
			score: 0,
			end_user_id: user.id,
		});
	});

	it('emits responses stored while it pages, in that poll or the next, never twice', async () => {
		const session = new TriggerSession(fake, { events: ['response'] });
		await session.poll();
		// 50 responses in each of four seconds, the last two seconds ago: the poll reads them on four
		// pages.
		const start = fake.clock.now() + 1;
		const first = insertResponses(200, start, (index) => start + Math.floor(index / 50));
		const latest = first[first.length - 1].createdAt;
		letTimePass(latest, 2);
		let late: ReturnType<typeof insertResponses> = [];
		fake.arrivalHooks.push((request) => {
			if (request.query.page === '3' && late.length === 0) {
				// Stored now: three stamped five seconds ago (the second of page 1, read already), three in
				// the next second.
				late = [
					...insertResponses(3, start, () => start),
					...insertResponses(3, latest + 1, () => latest + 1),
				];
			}
		});

		await session.poll();
		await session.poll();
		// Time passes: a poll reads those seconds once more, for good, and the next has nothing to read
		// again.
		fake.clock.advance(15);
		const settled = await session.poll();
		const before = listRequests('/v1/responses').length;
		const idle = await session.poll();

		expect(late).toHaveLength(6);
		const expected = [...first, ...late].map((response) => response.id).sort((a, b) => a - b);
		expect(session.emitted.map((item) => item.id).sort((a, b) => Number(a) - Number(b))).toEqual(
			expected,
		);
		expect(settled.result).toBeNull();
		expect(idle.result).toBeNull();
		expect(listRequests('/v1/responses')).toHaveLength(before + 1);
	});

	it('fails a poll on a 500 at page 7 without moving its cursor; the next poll emits exactly what was missing', async () => {
		// Page 7 fails every try of this poll (the page asked for ahead and every retry).
		const { session, burst, before } = await waitingWithPageFailing('7', {
			kind: 'status',
			status: 500,
		});

		const failed = await session.poll();
		fake.faults.clear();

		expect(failed.error).toMatchObject({
			httpCode: '500',
			failure: { cause: 'temporarily-unavailable' },
		});
		expect(failed.result).toBeNull();
		expect(JSON.stringify(session.staticData)).toBe(before);

		const recovered = await session.poll();

		expect(recovered.error).toBeUndefined();
		expect(session.emitted.map((item) => item.id)).toEqual(burst.map((response) => response.id));
		expect(cursorOf(session, 'responses').complete).toBeGreaterThanOrEqual(burst[399].createdAt);
	});

	it("two polls at once on n8n's own poller (two Poll Times of one second, or a poll longer than the gap): one reads, the other skips; each response once, and the next poll reads on", async () => {
		const session = new TriggerSession(fake, { events: ['response'] });
		await session.poll();
		const burst = insertResponses(120);
		letTimePass(burst[119].createdAt, 30);

		const both = await session.pollAtOnce(2);
		const later = insertResponses(3);
		letTimePass(later[2].createdAt, 30);
		const next = await session.poll();

		expect(both.errors).toEqual([]);
		expect(both.emitted.map((items) => items.length)).toEqual([120]);
		expect(next.items.map((item) => item.id)).toEqual(later.map((response) => response.id));
		expect(session.emitted.map((item) => item.id)).toEqual(
			[...burst, ...later].map((response) => response.id),
		);
	});

	describe("a rate limit that resets after n8n's poll time (10 s here, a minute's wait)", () => {
		const ids = (items: Array<{ id?: unknown }>) => items.map((item) => Number(item.id));

		it('a limit of 3 requests a minute: each poll reads a page and keeps 2 requests for its closing look; every poll goes on from the last, each response once', async () => {
			const session = new TriggerSession(fake, { events: ['response'] });
			await session.poll();
			const burst = insertResponses(400);
			letTimePass(burst[399].createdAt, 30);
			fake.rateLimits.set('GET /v1/responses', 3, 60);

			const perPoll: number[] = [];
			while (session.emitted.length < burst.length && perPoll.length < 12) {
				// Waiting the minute would pass the test's time limit.
				const run = await session.poll('trigger', 10_000);
				expect(run.error).toBeUndefined();
				perPoll.push(run.items.length);
				fake.clock.advance(61);
			}

			expect(perPoll.every((count) => count > 0)).toBe(true);
			expect(ids(session.emitted)).toEqual(ids(burst));
			expect(fake.requestsTo('/v1/responses').every((request) => request.status === 200)).toBe(
				true,
			);
		});

		it('a 429 at page 3, from another client spending the limit: the poll fails declaring the reset, at once, and keeps its cursor; the next reads on', async () => {
			const { session, burst, before } = await waitingWithPageFailing('3', {
				kind: 'rateLimited',
				resetInSeconds: 60,
			});

			const limited = await session.poll('trigger', 10_000);
			const kept = JSON.stringify(session.staticData);
			fake.faults.clear();
			const after = await session.poll('trigger', 10_000);

			expect(limited.error).toMatchObject({ failure: { cause: 'rate-limited' } });
			expect(kept).toBe(before);
			expect(after.error).toBeUndefined();
			expect(ids(session.emitted)).toEqual(ids(burst));
		});

		it('with nothing read yet, the poll fails declaring when the limit resets, and keeps its cursor', async () => {
			const session = new TriggerSession(fake, { events: ['response'] });
			await session.poll();
			insertResponses(10);
			letTimePass(fake.clock.now() + 10, 30);
			const before = JSON.stringify(session.staticData);
			fake.faults.inject({
				path: '/v1/responses',
				times: Infinity,
				fault: { kind: 'rateLimited', resetInSeconds: 60 },
			});
			const started = Date.now();

			const failed = await session.poll('trigger', 10_000);

			expect(failed.error).toMatchObject({
				httpCode: '429',
				failure: { cause: 'rate-limited', resetsAtEpochMs: expect.any(Number) },
			});
			const { resetsAtEpochMs } = (
				failed.error as unknown as { failure: { resetsAtEpochMs: number } }
			).failure;
			expect(resetsAtEpochMs - started).toBeGreaterThan(58_000);
			expect(resetsAtEpochMs - Date.now()).toBeLessThan(62_000);
			expect(JSON.stringify(session.staticData)).toBe(before);
		});

		it("the first poll too (it asks the service's time): it fails declaring the reset instead of waiting for it, and stores no start", async () => {
			const session = new TriggerSession(fake, { events: ['response', 'decline'] });
			fake.faults.inject({
				path: '/v1/declines',
				times: Infinity,
				fault: { kind: 'rateLimited', resetInSeconds: 60 },
			});

			// Waiting for the reset would pass the test's time limit.
			const failed = await session.poll('trigger', 10_000);
			const storedByFailure = structuredClone(session.staticData);
			fake.faults.clear();
			const started = await session.poll('trigger', 10_000);

			expect(failed.error).toMatchObject({
				httpCode: '429',
				failure: { cause: 'rate-limited', resetsAtEpochMs: expect.any(Number) },
			});
			expect(storedByFailure).toEqual({});
			expect(started.error).toBeUndefined();
			expect(Object.keys(session.staticData).sort()).toEqual(['declines', 'responses']);
		});
	});

	it('filters responses by category, score and comment; lets declines through; tells the events apart, oldest first', async () => {
		const session = new TriggerSession(fake, {
			events: ['response', 'decline'],
			filters: { categories: ['detractor'], minScore: 2, onlyWithComment: true },
		});
		await session.poll();
		const now = fake.clock.now();
		const responses = insertResponses(11, now + 1);
		const decline = addDecline(fake.account, fake.store, {
			endUserId: user.id,
			createdAt: now + 4,
		});
		const excluded = addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 1,
			text: 'excluded',
			createdAt: now + 2,
			excludedFromCalculations: true,
		});

		const poll = await session.poll();

		const wanted = responses.filter(
			(response) => response.score >= 2 && response.score <= 6 && response.text,
		);
		expect(poll.items.map((item) => [item.event, item.id])).toEqual(
			[
				...wanted.map((response) => ['response', response.id, response.createdAt] as const),
				['decline', decline.id, decline.createdAt] as const,
			]
				.sort((a, b) => a[2] - b[2] || a[0].localeCompare(b[0]))
				.map(([event, id]) => [event, id]),
		);
		expect(poll.items.map((item) => item.id)).not.toContain(excluded.id);
	});

	it('with Include End User adds each end user once per poll; a deleted one is marked', async () => {
		const other = createEndUser(fake.account, fake.store, 'grace@example.com');
		const session = new TriggerSession(fake, {
			events: ['response'],
			options: { includeEndUser: true, simplify: true },
		});
		await session.poll();
		insertResponses(3);
		addResponse(fake.account, fake.store, {
			endUserId: other.id,
			score: 9,
			createdAt: fake.clock.now() + 10,
		});
		fake.account.endUsers.delete(other.id);

		const poll = await session.poll();

		expect(poll.items.map((item) => item.end_user)).toEqual([
			...Array(3).fill({
				properties: {},
				id: user.id,
				email: 'ada@example.com',
				external_id: 'crm-1',
				current_properties: { plan: 'pro' },
			}),
			{ properties: {}, deleted: true },
		]);
		expect(fake.requestsTo(`/v1/end_users/${user.id}`)).toHaveLength(1);
		expect(poll.items[0]).toMatchObject({
			nps_category: 'detractor',
			created_at: expect.stringMatching(/Z$/),
		});
	});

	it.each([
		['true', true],
		['a list', [1]],
		['" 1"', ' 1'],
	])(
		'with Include End User reads no end user by an end_user_id answered as %s: it is no ID',
		async (_, answered) => {
			const session = new TriggerSession(fake, {
				events: ['response'],
				options: { includeEndUser: true },
			});
			await session.poll();
			insertResponses(1);
			fake.faults.inject({
				method: 'GET',
				path: '/v1/responses',
				fault: {
					kind: 'mangle',
					mangle: (body) => {
						for (const record of body as Array<Record<string, unknown>>)
							record.end_user_id = answered;
						return body;
					},
				},
			});

			const poll = await session.poll();

			expect(poll.error).toBeUndefined();
			expect(poll.items).toHaveLength(1);
			expect(poll.items[0].end_user).not.toHaveProperty('current_properties');
			expect(fake.requestsTo('/v1/end_users/1')).toEqual([]);
		},
	);

	/**
	 * A Response Created trigger with Include End User, started, and `count` responses after it, one a
	 * second, each of its own end user, 30 s old.
	 */
	const withEndUsersWaiting = async (count: number) => {
		const session = new TriggerSession(fake, {
			events: ['response'],
			options: { includeEndUser: true },
		});
		await session.poll();
		const start = fake.clock.now() + 1;
		const responses = Array.from({ length: count }, (_, index) =>
			addResponse(fake.account, fake.store, {
				endUserId: createEndUser(fake.account, fake.store, `own${index}@example.com`).id,
				score: index % 11,
				createdAt: start + index,
			}),
		);
		letTimePass(start + count - 1, 30);
		return { session, responses };
	};

	it("with Include End User reads the end users as it reads the pages, within n8n's poll time: a poll that runs out stops early with every item's end user, and the next ones go on, each response once", async () => {
		// 400 responses, each of its own end user, every request answered 40 ms late: read one after
		// another, the end users alone would take 16 s of a poll given 2.
		const { session, responses } = await withEndUsersWaiting(400);
		fake.latencyMs = 40;

		const first = await session.poll('trigger', 2_000);
		expect(first.error).toBeUndefined();
		expect(first.items.length).toBeGreaterThan(0);
		expect(first.items.length).toBeLessThan(400);
		for (let poll = 0; poll < 10 && session.emitted.length < 400; poll++)
			expect((await session.poll('trigger', 2_000)).error).toBeUndefined();

		expect(session.emitted.map((item) => item.id)).toEqual(responses.map(({ id }) => id));
		expect(
			session.emitted.every(
				(item) =>
					(item.end_user as { email?: string }).email ===
					fake.account.endUsers.get(Number(item.end_user_id))?.email,
			),
		).toBe(true);
	});

	it("with Include End User, end users limited to 40 a minute and n8n's durable poller's 36 s a poll: each poll stops before the first response whose end user it could not read, and the next goes on", async () => {
		const { session, responses } = await withEndUsersWaiting(120);
		fake.rateLimits.set('GET /v1/end_users/:id', 40, 60);

		const perPoll: number[] = [];
		for (let poll = 0; poll < 4; poll++) {
			const run = await session.poll('trigger', 36_000);
			expect(run.error).toBeUndefined();
			perPoll.push(run.items.length);
			fake.clock.advance(60);
		}

		expect(perPoll).toEqual([40, 40, 40, 0]);
		expect(session.emitted.map((item) => item.id)).toEqual(responses.map(({ id }) => id));
		expect(session.emitted.map((item) => (item.end_user as { email?: string }).email)).toEqual(
			responses.map(({ endUserId }) => fake.account.endUsers.get(endUserId)?.email),
		);
	});

	it('puts the idempotency key of its event right after `event` on every item: the same key for the same event in a restarted session and in another one started from Start From, simplified or not, with the end user or not', async () => {
		const events = ['response', 'responseUpdated', 'decline'];
		const first = new TriggerSession(fake, { events });
		await first.poll();
		const { from } = cursorOf(first, 'responses');
		// The same trigger after an n8n restart, and another activated with Start From.
		const restarted = new TriggerSession(fake, { events }, first.staticData);
		const other = new TriggerSession(fake, {
			events,
			options: {
				startFrom: new Date(from * 1000).toISOString(),
				simplify: true,
				includeEndUser: true,
			},
		});
		await other.poll();
		const sessions = [first, restarted, other];
		const response = addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 4,
			createdAt: from + 1,
		});
		const decline = addDecline(fake.account, fake.store, {
			endUserId: user.id,
			createdAt: from + 2,
		});
		letTimePass(from + 2, 30);
		for (const session of sessions) await session.poll();
		const changedAt = fake.clock.now();
		changeResponse(fake.account, fake.store, response.id, { tags: ['billing'] }, changedAt);
		letTimePass(changedAt, 30);
		for (const session of sessions) await session.poll();

		const expected = [
			`response:${response.id}`,
			`decline:${decline.id}`,
			`responseUpdated:${response.id}:${new Date(changedAt * 1000).toISOString().replace('.000Z', 'Z')}`,
		];
		for (const session of sessions) {
			expect(session.emitted.map((item) => item.idempotency_key)).toEqual(expected);
			for (const item of session.emitted)
				expect(Object.keys(item).slice(0, 2)).toEqual(['event', 'idempotency_key']);
		}
		expect(other.emitted[0]).toMatchObject({
			nps_category: 'detractor',
			end_user: { id: user.id },
		});
	});

	it('returns the newest matching record in manual mode and leaves the cursor alone', async () => {
		const session = new TriggerSession(fake, {
			events: ['response'],
			filters: { categories: ['promoter'] },
		});
		await session.poll();
		const responses = insertResponses(30);
		const state = JSON.stringify(session.staticData);

		const sample = await session.poll('manual');

		const newestPromoter = responses.filter((response) => response.score >= 9).pop()!;
		expect(sample.items).toEqual([
			expect.objectContaining({ event: 'response', id: newestPromoter.id }),
		]);
		expect(JSON.stringify(session.staticData)).toBe(state);
		expect((await session.poll()).items).toHaveLength(
			responses.filter((response) => response.score >= 9).length,
		);
	});

	it('starts from Start From on its first poll, in one request', async () => {
		const now = fake.clock.now();
		const old = insertResponses(3, now - 3600);
		const older = insertResponses(2, now - 7200);
		const session = new TriggerSession(fake, {
			events: ['response'],
			options: { startFrom: new Date((now - 4000) * 1000).toISOString() },
		});

		const poll = await session.poll();

		expect(poll.items.map((item) => item.id)).toEqual(old.map((response) => response.id));
		expect(poll.items.map((item) => item.id)).not.toEqual(expect.arrayContaining([older[0].id]));
		expect(poll.items.map((item) => item.id)).not.toEqual(expect.arrayContaining([older[1].id]));
		expect(requestsSeen(fake).map((request) => [request.path, request.rawQuery])).toEqual([
			['/v1/responses', updatedSinceQuery(now - 4000)],
		]);
		expect(cursorOf(session, 'responses').from).toBe(now - 4000);
	});

	it('with a Lookback emits responses stored late with an older created_at within it, once, as new (not changed); none created beyond it or before activation', async () => {
		const session = new TriggerSession(fake, {
			events: ['response', 'responseUpdated'],
			options: { lookbackMinutes: 10 },
		});
		await session.poll();
		const { from } = cursorOf(session, 'responses');
		/** Responses an import stores now, with older created_at (updated_at: now). */
		const imported = (...createdAt: number[]) =>
			createdAt.map((second) =>
				addResponse(fake.account, fake.store, {
					endUserId: user.id,
					score: 7,
					createdAt: second,
					updatedAt: fake.clock.now(),
				}),
			);
		// Two minutes after activation, five responses are stored on time; the trigger reads them 15 s
		// later.
		letTimePass(from, 120);
		const onTime = insertResponses(5, fake.clock.now() - 5);
		fake.clock.advance(15);
		await session.poll();
		const newIds = (items: Array<{ event?: unknown; id?: unknown }>) =>
			items.filter((item) => item.event === 'response').map((item) => item.id);
		// An import stores two within the Lookback: one created after activation, one before it.
		const [early, beforeActivation] = imported(from + 30, from - 60);
		const firstImport = await session.poll();
		// Twenty minutes after activation, after an idle poll, another: one created within the
		// Lookback, one after activation but beyond it.
		letTimePass(from, 1200);
		await session.poll();
		const { complete } = cursorOf(session, 'responses');
		const [within, beyond] = imported(complete - 300, complete - 900);
		const secondImport = await session.poll();
		fake.clock.advance(30);
		const later = await session.poll();

		expect(early.createdAt).toBeLessThan(complete);
		expect(beyond.createdAt).toBeGreaterThan(from);
		expect(beforeActivation.createdAt).toBeLessThan(from);
		expect(newIds(firstImport.items)).toEqual([early.id]);
		expect(newIds(secondImport.items)).toEqual([within.id]);
		expect(later.result).toBeNull();
		expect(newIds(session.emitted)).toEqual(
			[...onTime, early, within].map((response) => response.id),
		);
		// Their arrival is not a change.
		const changed = session.emitted
			.filter((item) => item.event === 'responseUpdated')
			.map((item) => item.id);
		expect(changed).not.toContain(early.id);
		expect(changed).not.toContain(within.id);
	});

	it('rejects an empty event list or a minimum above the maximum, before any request', async () => {
		const noEvents = await new TriggerSession(fake, { events: [] }).poll();
		const badRange = await new TriggerSession(fake, {
			events: ['response'],
			filters: { minScore: 9, maxScore: 3 },
		}).poll();

		expect(noEvents.error?.message).toMatch(/^Events needs at least one event/);
		expect(badRange.error?.message).toMatch(
			/^Minimum Score must not be above the Maximum Score \(3\)/,
		);
		expect(fake.requests).toEqual([]);
	});
});
