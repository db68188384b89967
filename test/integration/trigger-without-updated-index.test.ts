import {
	addDecline,
	addResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import type { EndUser } from '../fake/store';
import { cursorOf, listRequestBound, TriggerSession } from '../support/wootric';

/**
 * The Wootric Trigger against an older variant of the API, whose response and decline lists accept
 * the `updated` filter and sort_key=updated_at and ignore them (the fake's updatedIndex off): before
 * the trigger checked each page, its first poll over 3,000 records never ended.
 */
describe('Wootric Trigger: an API that ignores the updated filter', () => {
	let fake: FakeWootric;
	let user: EndUser;

	beforeEach(async () => {
		fake = await startFakeWootric();
		fake.updatedIndex = false;
		user = createEndUser(fake.account, fake.store, 'ada@example.com');
	});
	afterEach(async () => await fake.close());

	const now = () => fake.clock.now();
	const respond = (createdAt: number) =>
		addResponse(fake.account, fake.store, { endUserId: user.id, score: 3, createdAt });
	const decline = (createdAt: number) =>
		addDecline(fake.account, fake.store, { endUserId: user.id, createdAt });
	/** `count` records of one kind, `perSecond` in each second from `start`. */
	const stored = <T>(add: (createdAt: number) => T, count: number, start: number, perSecond = 1) =>
		Array.from({ length: count }, (_, index) => add(start + Math.floor(index / perSecond)));
	/** The list requests of one poll, by endpoint. */
	const pollRequests = async (session: TriggerSession) => {
		const before = fake.requests.length;
		const poll = await session.poll();
		const requests = fake.requests.slice(before);
		const to = (path: string) => requests.filter((request) => request.path === path);
		return { poll, responses: to('/v1/responses'), declines: to('/v1/declines') };
	};
	/**
	 * The raw query of a read by creation time from `from` on: no sort_key, invalidated responses
	 * too.
	 */
	const createdSinceQuery = (from: number, path = '/v1/responses') =>
		`${path === '/v1/responses' ? 'excluded_from_calculations=true&' : ''}created[gte]=${from}&sort_order=asc&page=1&per_page=50`;
	const ids = (records: Array<{ id?: unknown }>) => records.map((record) => Number(record.id));

	it.each([120, 3000])(
		'with %i records before activation and as many after: the first polls end, emit each new record once, and cost a request more once, then read by creation time',
		async (count) => {
			stored(respond, count, now() - count - 100);
			stored(decline, count, now() - count - 100);
			const session = new TriggerSession(fake, { events: ['response', 'decline'] });
			await session.poll();
			const { from } = cursorOf(session, 'responses');
			const firstFrom = {
				responses: from,
				declines: cursorOf(session, 'declines').from,
			};
			// Stored after activation, three a second; the trigger reads them half a minute after.
			const responses = stored(respond, count, from + 1, 3);
			const declines = stored(decline, count, from + 1, 3);
			fake.clock.advance(responses.at(-1)!.createdAt + 30 - now());

			const first = await pollRequests(session);
			const { complete, by } = cursorOf(session, 'responses');
			const idle = await pollRequests(session);
			fake.clock.advance(5);
			const later = [respond(now()), decline(now())];
			fake.clock.advance(30);
			const next = await pollRequests(session);

			expect(first.poll.error).toBeUndefined();
			const emitted = (event: string) =>
				ids(session.emitted.filter((item) => item.event === event));
			expect(emitted('response')).toEqual(ids([...responses, later[0]]));
			expect(emitted('decline')).toEqual(ids([...declines, later[1]]));
			// Per endpoint: the updated reading refused on its first page, then the records by creation
			// time.
			// Each from its own cursor: on a busy machine the first poll may read the two endpoints in
			// different seconds.
			for (const [stream, requests] of [
				['responses', first.responses],
				['declines', first.declines],
			] as const) {
				const since = firstFrom[stream];
				expect(requests[0].rawQuery).toBe(
					`updated[gte]=${since}&sort_key=updated_at&sort_order=asc&page=1&per_page=50`,
				);
				expect(requests[1].rawQuery).toBe(createdSinceQuery(since, requests[1].path));
				expect(requests.length).toBeLessThanOrEqual(1 + listRequestBound(count));
			}
			expect(by).toBe('created');
			expect(cursorOf(session, 'declines').by).toBe('created');
			expect(idle.poll.result).toBeNull();
			expect(idle.responses.map((request) => request.rawQuery)).toEqual([
				createdSinceQuery(complete + 1),
			]);
			expect(idle.declines).toHaveLength(1);
			expect(next.responses).toHaveLength(1);
			expect(next.declines).toHaveLength(1);
		},
		60_000,
	);

	/** A trigger with a Lookback of 10 minutes, activated over an account with history. */
	const lookingBack = async () => {
		stored(respond, 120, now() - 300);
		const session = new TriggerSession(fake, {
			events: ['response'],
			options: { lookbackMinutes: 10 },
		});
		await session.poll();
		return session;
	};
	/** A response an import stores now, with an older created_at. */
	const imported = (createdAt: number) =>
		addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 8,
			createdAt,
			updatedAt: now(),
		});

	it('with a Lookback emits a record stored late with an older created_at once, reading the window again on every poll', async () => {
		const session = await lookingBack();
		const { from } = cursorOf(session, 'responses');
		fake.clock.advance(120);
		const onTime = respond(now() - 5);
		fake.clock.advance(30);
		await session.poll();
		const { complete } = cursorOf(session, 'responses');
		const late = imported(complete - 60);
		const arrival = await pollRequests(session);
		fake.clock.advance(60);
		await session.poll();
		fake.clock.advance(60);
		const after = await pollRequests(session);

		expect(cursorOf(session, 'responses').by).toBe('created');
		expect(ids(session.emitted)).toEqual([onTime.id, late.id]);
		expect(ids(arrival.poll.items)).toEqual([late.id]);
		expect(after.poll.result).toBeNull();
		expect(after.responses.map((request) => request.rawQuery)).toEqual([
			createdSinceQuery(Math.max(from, cursorOf(session, 'responses').complete + 1 - 600)),
		]);
	});

	it('with a Lookback emits a late import that became readable after one stored after it (its commit came later)', async () => {
		const session = await lookingBack();
		fake.clock.advance(120);
		await session.poll();
		const { complete } = cursorOf(session, 'responses');
		const committedLate = imported(complete - 60);
		fake.account.responses.delete(committedLate.id);
		const committed = imported(complete - 60);
		const first = await session.poll();
		fake.clock.advance(3);
		fake.account.responses.set(committedLate.id, committedLate);
		fake.clock.advance(60);
		const second = await session.poll();

		expect(cursorOf(session, 'responses').by).toBe('created');
		expect(ids(first.items)).toEqual([committed.id]);
		expect(ids(second.items)).toEqual([committedLate.id]);
	});

	it.each([
		['Response Updated', { events: ['response', 'responseUpdated'] }],
		['Wait Until Complete', { events: ['response'], options: { waitUntilComplete: true } }],
	])(
		'with %s fails the poll, naming what Wootric ignored and that the option needs it, and keeps the cursor',
		async (_name, parameters) => {
			stored(respond, 120, now() - 300);
			const session = new TriggerSession(fake, parameters);
			await session.poll();
			const started = structuredClone(session.staticData);
			respond(now());
			fake.clock.advance(30);

			const poll = await session.poll();

			expect(poll.error?.message).toMatch(
				/^Wootric ignored updated\[gte\] on \/v1\/responses: record \d+ has updated_at \S+, outside the updated_at asked for \(from \S+\)\. Response Updated and Wait Until Complete need Wootric's updated filter and sort_key=updated_at/,
			);
			// The user has to change the events: declared so, and n8n's durable poller backs off for it.
			expect(poll.error).toHaveProperty('failure', { cause: 'configuration-invalid' });
			expect(session.staticData).toEqual(started);
			expect(session.emitted).toEqual([]);
		},
	);

	it('fails the poll when Wootric ignores the reading by creation time too, naming both', async () => {
		stored(respond, 120, now() - 300);
		const session = new TriggerSession(fake, { events: ['response'] });
		await session.poll();
		const started = structuredClone(session.staticData);
		stored(respond, 3, now() + 1);
		fake.clock.advance(30);
		// A service that sorts the created_at reading newest first whatever sort_order says.
		fake.replyHooks.push((request, body) => {
			if (request.query.created && Array.isArray(body)) body.reverse();
		});

		const poll = await session.poll();

		expect(poll.error?.message).toMatch(
			/^Wootric ignored the trigger's filters by both times, so it cannot tell what is new\. Wootric ignored updated\[gte\] on \/v1\/responses: .*\. Wootric ignored sort_order=asc on \/v1\/responses: record \d+ \(created_at \S+\) follows record \d+ \(created_at \S+\) on one page, against sort_order=asc\.$/,
		);
		expect(session.staticData).toEqual(started);
	});
});
