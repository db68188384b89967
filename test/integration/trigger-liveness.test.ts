import type { IDataObject } from 'n8n-workflow';

import type { FakeWootric } from '../fake';
import { addDecline, addResponse, createEndUser, startFakeWootric } from '../fake';
import type { EndUser, SurveyResponse } from '../fake/store';
import { fakeDateOnly, TriggerSession } from '../support/wootric';
import type { Sleeping } from '../support/sleep-on-both-clocks';
import { sentTimesOf } from '../support/sent-at';

/**
 * The polling trigger's failures to go on (issue 57, items 4 to 6), each as it was reproduced: a
 * poll that crashed on the end users both endpoints share, end-user reads that ran past n8n's time
 * for the poll, and a list rate limit too tight for a second larger than a poll's reading. The
 * host's clock (Date) is the test's and moves with the service's, as time passes for both.
 */
jest.mock('n8n-workflow', () =>
	jest.requireActual<Sleeping>('../support/sleep-on-both-clocks').n8n(),
);

describe('Wootric Trigger: every poll ends, and the next goes on', () => {
	let fake: FakeWootric;

	beforeAll(() => fakeDateOnly(Date.UTC(2026, 10, 20, 12, 0, 0, 400)));
	afterAll(() => jest.useRealTimers());
	/** When the request the fake received last was sent. */
	let lastSentAt: () => number;
	beforeEach(async () => {
		fake = await startFakeWootric();
		lastSentAt = sentTimesOf(fake);
	});
	afterEach(async () => await fake.close());

	const now = () => fake.clock.now();
	/** Time passes on both clocks. */
	const wait = (seconds: number) => jest.setSystemTime(Date.now() + seconds * 1000);
	const user = (name: string) => createEndUser(fake.account, fake.store, `${name}@example.com`);
	const respond = (by: EndUser, fields: Partial<SurveyResponse> = {}) =>
		addResponse(fake.account, fake.store, {
			endUserId: by.id,
			score: 3,
			createdAt: now(),
			...fields,
		});
	/** A promise and what settles it. */
	const signal = () => {
		let fire!: () => void;
		const fired = new Promise<void>((resolve) => (fire = resolve));
		return { fired, fire };
	};
	const endUserPath = (of: EndUser) => `/v1/end_users/${of.id}`;
	const END_USERS = /^\/v1\/end_users\/\d+$/;

	it("4. the end users both endpoints share: one read out of the poll's time, read again by the responses' closing look while the declines' page waits on another, ends the poll declared, and the next polls emit all", async () => {
		const [x, y, z] = [user('x'), user('y'), user('z')];
		const session = new TriggerSession(fake, {
			events: ['response', 'decline'],
			options: { includeEndUser: true, waitUntilComplete: true, completeAfterMinutes: 1 },
		});
		await session.poll();
		wait(5);
		// Held for its comment, due by the poll under test: its closing look lists it and reads X.
		const heldOfX = respond(x, { completed: false });
		wait(30);
		await session.poll();
		wait(5);
		// Read, and held, before the response of X on the responses' page.
		const heldOfZ = respond(z, { completed: false });
		wait(1);
		const ofX = respond(x, { completed: true });
		const declines = [x, y].map((by) =>
			addDecline(fake.account, fake.store, { endUserId: by.id, createdAt: now() }),
		);
		wait(30);

		// The declines' page asks for X and Y; the responses' page is answered once both are asked.
		const yAsked = signal();
		const xAskedAgain = signal();
		const yAnswered = signal();
		fake.faults.inject({
			method: 'GET',
			path: '/v1/responses',
			when: (request) => request.query.updated !== undefined,
			fault: { kind: 'held', released: yAsked.fired },
		});
		// X's limit resets after the poll's time (a 429 that does not say when: a minute).
		fake.faults.inject({
			method: 'GET',
			path: endUserPath(x),
			fault: { kind: 'status', status: 429 },
		});
		// Y answers once the responses' closing look asks for X again; that read answers after Y.
		fake.faults.inject({
			method: 'GET',
			path: endUserPath(y),
			when: () => (yAsked.fire(), true),
			fault: { kind: 'held', released: xAskedAgain.fired },
		});
		fake.faults.inject({
			method: 'GET',
			path: endUserPath(x),
			when: () => (xAskedAgain.fire(), true),
			fault: { kind: 'held', released: yAnswered.fired },
		});
		fake.answeredHooks.push((request) => {
			if (request.path === endUserPath(y)) setTimeout(yAnswered.fire, 300);
		});
		const crossed = await session.poll('trigger', 10_000);
		fake.faults.clear();
		fake.answeredHooks.length = 0;
		wait(60);
		await session.poll();
		wait(60);
		await session.poll();

		expect(crossed.error?.message ?? '').not.toMatch(/Cannot read properties/);
		if (crossed.error)
			expect((crossed.error as { failure?: unknown }).failure).toEqual(
				expect.objectContaining({ cause: expect.any(String) }),
			);
		const emitted = session.emitted.map(({ event, id }) => `${String(event)} ${Number(id)}`);
		expect([...emitted].sort()).toEqual(
			[
				...[heldOfX, heldOfZ, ofX].map(({ id }) => `response ${id}`),
				...declines.map(({ id }) => `decline ${id}`),
			].sort(),
		);
		expect(session.emitted.every((item) => (item.end_user as IDataObject)?.email)).toBe(true);
	});

	/**
	 * Every request to `path` takes `ms` on both clocks from when it was sent; requests at once overlap
	 * (four at once take `ms`, not four times it).
	 */
	const slow = (path: RegExp, ms: number) =>
		fake.faults.inject({
			method: 'GET',
			path,
			times: Infinity,
			fault: {
				kind: 'held',
				get released() {
					const answeredAt = lastSentAt() + ms;
					return new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
						jest.setSystemTime(Math.max(Date.now(), answeredAt)),
					);
				},
			},
		});
	/**
	 * A poll as n8n runs it with `budgetMs`: one that takes longer than n8n's timeout (the budget is
	 * four fifths of it) is dropped, and nothing it stored is kept.
	 */
	const pollWithin = async (session: TriggerSession, budgetMs: number) => {
		const stored = structuredClone(session.staticData);
		const emittedBefore = session.emitted.length;
		const started = Date.now();
		const poll = await session.poll('trigger', budgetMs);
		const tookMs = Date.now() - started;
		if (tookMs > budgetMs / 0.8) {
			session.restart(stored);
			session.emitted.length = emittedBefore;
		}
		return { ...poll, tookMs };
	};

	/** `count` polls a minute apart with a 5 s budget: how long each took, and its failure's class. */
	const pollsAMinuteApart = async (session: TriggerSession, count: number) => {
		const polls: Array<{ tookMs: number; failure?: unknown }> = [];
		for (let poll = 0; poll < count; poll++) {
			const { tookMs, error } = await pollWithin(session, 5_000);
			polls.push({ tookMs, failure: error && ((error as { failure?: unknown }).failure ?? error) });
			wait(60);
		}
		return polls;
	};

	it("5. a page's 50 end users read at 600 ms each, 5 s budget: every poll ends within n8n's timeout, and three polls emit all, in order, each once", async () => {
		const options = { includeEndUser: true };
		const session = new TriggerSession(fake, { events: ['response'], options });
		await session.poll();
		wait(5);
		const responses = Array.from({ length: 50 }, (_, index) =>
			respond(user(`reader${index}`), { createdAt: now() + Math.floor(index / 10) }),
		);
		wait(60);
		slow(END_USERS, 600);

		const took: number[] = [];
		for (let poll = 0; poll < 3; poll++) {
			took.push((await pollWithin(session, 5_000)).tookMs);
			wait(60);
		}

		expect(took.every((ms) => ms <= 6_250)).toBe(true);
		expect(session.emitted.map((item) => Number(item.id))).toEqual(responses.map(({ id }) => id));
		expect(session.emitted.every((item) => (item.end_user as IDataObject)?.email)).toBe(true);
	}, 60_000);

	it("5. three pages at 0.8 s and 8 end users at 2 s, 5 s budget: a read that could not end before the reading's end is not started, so the closing look ends within n8n's timeout, and each poll emits the next records in order", async () => {
		const session = new TriggerSession(fake, {
			events: ['decline'],
			options: { includeEndUser: true },
		});
		await session.poll();
		wait(5);
		const users = Array.from({ length: 8 }, (_, index) => user(`slow${index}`));
		const declines = Array.from({ length: 120 }, (_, index) =>
			addDecline(fake.account, fake.store, { endUserId: users[index % 8].id, createdAt: now() }),
		);
		wait(60);
		slow(END_USERS, 2_000);
		slow(/^\/v1\/declines$/, 800);

		const polls: Array<{ tookMs: number; emitted: number }> = [];
		for (let poll = 0; poll < 3; poll++) {
			const { tookMs, items } = await pollWithin(session, 5_000);
			polls.push({ tookMs, emitted: items.length });
			wait(60);
		}

		expect(polls.filter(({ tookMs }) => tookMs > 6_250)).toEqual([]);
		expect(polls.every(({ emitted }) => emitted > 0)).toBe(true);
		const ids = session.emitted.map((item) => Number(item.id));
		expect(ids).toEqual(declines.slice(0, ids.length).map(({ id }) => id));
	}, 60_000);

	it("1. Detractors only with Include End User at the least (pages 0.8 s, end users 2 s, 5 s budget), 350 promoters before the first detractors: no poll runs past n8n's timeout, and the detractors are emitted, each once, with their end users", async () => {
		const session = new TriggerSession(fake, {
			events: ['response'],
			filters: { categories: ['detractor'] },
			options: { includeEndUser: true },
		});
		await session.poll();
		wait(5);
		const promoter = user('promoter');
		Array.from({ length: 350 }, (_, index) =>
			respond(promoter, { score: 10, createdAt: now() + Math.floor(index / 100) }),
		);
		const detractors = Array.from({ length: 4 }, (_, index) =>
			respond(user(`detractor${index}`), { score: 2, createdAt: now() + 4 }),
		);
		wait(60);
		slow(END_USERS, 2_000);
		slow(/^\/v1\/responses$/, 800);

		const took: number[] = [];
		for (let poll = 0; poll < 3; poll++) {
			took.push((await pollWithin(session, 5_000)).tookMs);
			wait(60);
		}

		expect(took.filter((ms) => ms > 6_250)).toEqual([]);
		expect(session.emitted.map((item) => Number(item.id))).toEqual(detractors.map(({ id }) => id));
		expect(session.emitted.every((item) => (item.end_user as IDataObject)?.email)).toBe(true);
	}, 60_000);

	it("F33 4. a 503 three times on a page asked for near the reading's end (pages 0.8 s, 5 s budget): no retry runs the poll past its budget, and the polls emit all, in order, each once", async () => {
		const session = new TriggerSession(fake, { events: ['response'] });
		await session.poll();
		wait(5);
		const responses = Array.from({ length: 400 }, (_, index) =>
			respond(user('many'), { createdAt: now() + Math.floor(index / 50) }),
		);
		wait(60);
		// Page 8 is asked for at 2.4 s, the last page the reading may start.
		fake.faults.inject({
			method: 'GET',
			path: '/v1/responses',
			times: 3,
			when: (request) => request.query.page === '8',
			fault: { kind: 'status', status: 503 },
		});
		slow(/^\/v1\/responses$/, 800);

		const polls = await pollsAMinuteApart(session, 4);

		expect(polls.filter(({ tookMs }) => tookMs > 5_000)).toEqual([]);
		expect(session.emitted.map((item) => Number(item.id))).toEqual(responses.map(({ id }) => id));
	}, 60_000);

	it("F33 3. 400 responses in the 9 s before a poll (pages 0.8 s, 5 s budget): the closing look, which lists every record changed in its 10 s margin, ends within n8n's timeout, and the polls emit all, in order, each once", async () => {
		const session = new TriggerSession(fake, { events: ['response'] });
		await session.poll();
		wait(60);
		const responses: SurveyResponse[] = [];
		for (let second = 0; second < 8; second++) {
			responses.push(...Array.from({ length: 50 }, () => respond(user('burst'))));
			wait(1);
		}
		wait(1);
		slow(/^\/v1\/responses$/, 800);

		const polls = await pollsAMinuteApart(session, 4);

		expect(polls.filter(({ tookMs }) => tookMs > 6_250)).toEqual([]);
		for (const { failure } of polls.filter((poll) => poll.failure))
			expect(failure).toMatchObject({ cause: 'temporarily-unavailable' });
		expect(session.emitted.map((item) => Number(item.id))).toEqual(responses.map(({ id }) => id));
	}, 60_000);

	it('below the least: end users limited to 1 read a minute, both endpoints read at once: a poll that emits nothing says why, declaring the reset, and each poll that does emits the next in order', async () => {
		const session = new TriggerSession(fake, {
			events: ['response', 'decline'],
			options: { includeEndUser: true },
		});
		await session.poll();
		wait(5);
		const users = Array.from({ length: 6 }, (_, index) => user(`limited${index}`));
		const responses = users.map((by) => respond(by));
		const declines = users.map((by) =>
			addDecline(fake.account, fake.store, { endUserId: by.id, createdAt: now() }),
		);
		wait(60);
		fake.rateLimits.set('GET /v1/end_users/:id', 1, 60);
		// In the first poll the first record's end user is answered last: another read takes the limit.
		fake.faults.inject({
			method: 'GET',
			path: endUserPath(users[0]),
			fault: { kind: 'held', released: new Promise((resolve) => setTimeout(resolve, 50)) },
		});

		const polls: Array<{ emitted: number; failure?: unknown }> = [];
		for (let poll = 0; poll < 6; poll++) {
			const run = await session.poll('trigger', 5_000);
			polls.push({
				emitted: run.items.length,
				failure: (run.error as { failure?: unknown } | undefined)?.failure,
			});
			wait(61);
		}

		const silent = polls.filter(({ emitted, failure }) => emitted === 0 && failure === undefined);
		expect(silent).toEqual([]);
		for (const { failure } of polls.filter(({ emitted }) => emitted === 0))
			expect(failure).toMatchObject({ cause: 'rate-limited' });
		const ids = (kind: string) =>
			session.emitted.filter((item) => item.event === kind).map((item) => Number(item.id));
		expect(ids('response')).toEqual(responses.slice(0, ids('response').length).map(({ id }) => id));
		expect(ids('decline')).toEqual(declines.slice(0, ids('decline').length).map(({ id }) => id));
		expect(session.emitted.length).toBeGreaterThan(0);
	}, 60_000);

	// At 3 a minute, the page before the first not read and that page go together, and the closing
	// look of a second whose records were created in it asks once.
	it.each([3, 4])(
		'6. a second of 131 responses with GET /v1/responses limited to %i a minute, 5 s budget: polls a minute apart emit all, in order, each once',
		async (limit) => {
			const session = new TriggerSession(fake, { events: ['response'] });
			await session.poll();
			wait(5);
			const second = now();
			const cluster = Array.from({ length: 131 }, () =>
				respond(user('many'), { createdAt: second }),
			);
			wait(30);
			fake.rateLimits.set('GET /v1/responses', limit, 60);

			const polls: Array<{ emitted: number; error?: string }> = [];
			for (let poll = 0; poll < 6; poll++) {
				const run = await pollWithin(session, 5_000);
				polls.push({ emitted: run.items.length, error: run.error?.message });
				wait(61);
			}

			expect(polls.every(({ error }) => error === undefined)).toBe(true);
			expect(session.emitted.map((item) => Number(item.id))).toEqual(cluster.map(({ id }) => id));
		},
		60_000,
	);

	it.each([2])(
		'6. GET /v1/responses limited to %i a minute, fewer than a poll needs: each poll fails saying so, declaring the reset, and emits nothing twice',
		async (limit) => {
			const session = new TriggerSession(fake, { events: ['response'] });
			await session.poll();
			wait(5);
			const second = now();
			Array.from({ length: 131 }, () => respond(user('many'), { createdAt: second }));
			wait(30);
			fake.rateLimits.set('GET /v1/responses', limit, 60);

			const polls = [];
			for (let poll = 0; poll < 3; poll++) {
				polls.push(await pollWithin(session, 5_000));
				wait(61);
			}
			const failed = polls.filter(({ error }) => error !== undefined);

			expect(failed.length).toBeGreaterThan(0);
			for (const { error } of failed) {
				expect(error?.message).toMatch(
					/^Wootric's rate limit for GET \/v1\/responses left this poll too few requests to read on: it needs 3 .* 4 inside a second/,
				);
				expect(error).toMatchObject({ failure: { cause: 'rate-limited' } });
			}
			const ids = session.emitted.map((item) => Number(item.id));
			expect(new Set(ids).size).toBe(ids.length);
		},
		60_000,
	);
});
