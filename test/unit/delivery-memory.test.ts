import { claimKeys, forgetNode, rememberedKeys } from '../../nodes/Wootric/webhook/deliveryMemory';

/** The bound deliveryMemory.ts documents: keys in the process, over every node. */
const MAX_ENTRIES = 100_000;
const MINUTE = 60_000;

/** Whether the key was new to the node, claimed by a delivery whose execution started. */
const noteKey = (node: string, key: string, expires: number, now: number) =>
	claimKeys(node, [key], expires, now, Promise.resolve(true)).fresh.length === 1;

/** What the webhook triggers of a process remember of the keys they emitted, and for how long. */
describe('deliveryMemory', () => {
	let test = 0;
	/** A node of its own for each test: the memory lives in the module. */
	const nodeKey = (name: string) => `test-${++test}:${name}`;
	const now = Date.UTC(2026, 10, 25, 12, 0, 0);

	it('notes a key once: the first is new, a repeat before it expires is not, and other nodes are apart', () => {
		const [node, other] = [nodeKey('node'), nodeKey('other')];

		expect([
			noteKey(node, 'response:1', now + MINUTE, now),
			noteKey(node, 'response:1', now + MINUTE, now + MINUTE - 1),
			noteKey(other, 'response:1', now + MINUTE, now),
			noteKey(node, 'response:2', now + MINUTE, now),
		]).toEqual([true, false, true, true]);
	});

	it('a key is new again once it expired', () => {
		const node = nodeKey('node');
		noteKey(node, 'decline:7', now + MINUTE, now);

		expect(noteKey(node, 'decline:7', now + 2 * MINUTE, now + MINUTE)).toBe(true);
		expect(noteKey(node, 'decline:7', now + 2 * MINUTE, now + MINUTE + 1)).toBe(false);
	});

	it('a key whose execution did not start is taken back out once that is known; forgetNode forgets a node and no other', async () => {
		const [forgotten, kept] = [nodeKey('forgotten'), nodeKey('kept')];
		let answered: (started: boolean) => void = () => undefined;
		const answer = new Promise<boolean>((resolve) => (answered = resolve));
		for (const node of [forgotten, kept]) noteKey(node, 'response:1', now + MINUTE, now);
		noteKey(forgotten, 'response:2', now + MINUTE, now);
		expect(claimKeys(kept, ['response:2'], now + MINUTE, now, answer)).toEqual({
			fresh: ['response:2'],
			twins: [],
		});

		// A copy finds the key in flight, with the answer to wait for; never noted and unanswered.
		const copy = claimKeys(kept, ['response:2'], now + MINUTE, now, Promise.resolve(true));
		expect(copy).toEqual({ fresh: [], twins: [answer] });
		answered(false);
		expect(await Promise.all(copy.twins)).toEqual([false]);
		forgetNode(forgotten);

		expect([
			noteKey(forgotten, 'response:1', now + MINUTE, now),
			noteKey(kept, 'response:1', now + MINUTE, now),
			noteKey(kept, 'response:2', now + MINUTE, now),
		]).toEqual([true, false, true]);
	});

	it('a key whose execution started stays noted, and nothing waits on it any more', async () => {
		const node = nodeKey('node');
		const answer = Promise.resolve(true);
		claimKeys(node, ['response:1'], now + MINUTE, now, answer);
		await answer;

		expect(claimKeys(node, ['response:1'], now + MINUTE, now, Promise.resolve(true))).toEqual({
			fresh: [],
			twins: [],
		});
	});

	it('a delivery sharing a key another delivery is starting waits for its answer, and claims that key itself when its execution did not start (F33: the Response Created lost between a score and its comment)', async () => {
		const node = nodeKey('node');
		const [created, changed] = ['response:1', 'responseUpdated:1:2026-11-25T12:00:55Z'];
		let answerScore: (started: boolean) => void = () => undefined;
		const score = new Promise<boolean>((resolve) => (answerScore = resolve));
		const comment = new Promise<boolean>(() => undefined);
		claimKeys(node, [created], now + MINUTE, now, score);

		// The comment's change stands for the Response Created too, which the score is starting.
		const first = claimKeys(node, [created, changed], now + MINUTE, now, comment);
		expect(first).toEqual({ fresh: [changed], twins: [score] });
		// n8n answers the score 500; claimed again, the comment's own change is neither fresh nor a twin.
		answerScore(false);
		await Promise.all(first.twins);
		expect(claimKeys(node, [created, changed], now + MINUTE, now, comment)).toEqual({
			fresh: [created],
			twins: [],
		});
		// The score's retry finds its key the comment's to start.
		expect(claimKeys(node, [created], now + MINUTE, now, Promise.resolve(true))).toEqual({
			fresh: [],
			twins: [comment],
		});
	});

	it('expired keys go as new ones are noted: the memory holds what the last Max Age brought', () => {
		const node = nodeKey('node');
		for (let id = 0; id < 1_000; id++) noteKey(node, `response:${id}`, now + MINUTE, now);
		const before = rememberedKeys();

		noteKey(node, 'response:late', now + 3 * MINUTE, now + 2 * MINUTE);

		expect(rememberedKeys()).toBeLessThanOrEqual(before - 1_000 + 1);
	});

	it(`holds at most ${MAX_ENTRIES} keys over every node, forgetting the oldest noted`, () => {
		const nodes = [nodeKey('a'), nodeKey('b')];
		const far = now + 7 * 24 * 60 * MINUTE;
		for (let id = 0; id <= MAX_ENTRIES; id++) noteKey(nodes[id % 2], `response:${id}`, far, now);

		expect(rememberedKeys()).toBe(MAX_ENTRIES);
		// The first noted went; the last stays.
		expect(noteKey(nodes[0], 'response:0', far, now)).toBe(true);
		expect(noteKey(nodes[1], `response:${MAX_ENTRIES - 1}`, far, now)).toBe(false);
	});

	/** A moment after every key the tests before noted has expired: they count for nothing. */
	const afterTheOthers = (days: number) => now + days * 24 * 60 * MINUTE;

	const WEEK = 7 * 24 * 60 * MINUTE;
	/**
	 * At `now`, one key of a node with a 7-day Max Age, then the bound's worth of another node's
	 * keys with a one-hour Max Age.
	 */
	function weeklyThenHourly(now: number): { weekly: string; hourly: string } {
		const [weekly, hourly] = [nodeKey('weekly'), nodeKey('hourly')];
		noteKey(weekly, 'response:1', now + WEEK, now);
		for (let id = 0; id < MAX_ENTRIES; id++)
			noteKey(hourly, `response:${id}`, now + 60 * MINUTE, now);
		return { weekly, hourly };
	}

	it('expired keys noted after a longer-lived one go before it, and before any live key', () => {
		const now = afterTheOthers(30);
		const { weekly, hourly } = weeklyThenHourly(now);
		const later = now + 61 * MINUTE;

		for (let id = 0; id < 100; id++)
			noteKey(hourly, `response:late-${id}`, later + 60 * MINUTE, later);

		expect(rememberedKeys()).toBe(1 + 100);
		expect(noteKey(weekly, 'response:1', now + WEEK, later)).toBe(false);
		expect(noteKey(hourly, 'response:late-0', later + 60 * MINUTE, later)).toBe(false);
	});

	it('beyond the bound of live keys, the one closest to its expiry goes first', () => {
		const now = afterTheOthers(60);
		const { weekly, hourly } = weeklyThenHourly(now);

		expect(rememberedKeys()).toBe(MAX_ENTRIES);
		expect(noteKey(weekly, 'response:1', now + WEEK, now)).toBe(false);
		expect(noteKey(hourly, `response:${MAX_ENTRIES - 1}`, now + 60 * MINUTE, now)).toBe(false);
		expect(noteKey(hourly, 'response:0', now + 60 * MINUTE, now)).toBe(true);
	});
});
