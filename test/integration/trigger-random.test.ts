import { addDecline, addResponse, changeResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import type { Fault } from '../fake';
import { seededRandom, TriggerSession, useFastRetries } from '../support/wootric';

const SCHEDULES = 300;
const UPDATE_SCHEDULES = 150;
const CATEGORIES = ['detractor', 'passive', 'promoter'] as const;
const categoryOf = (score: number) => (score <= 6 ? 'detractor' : score <= 8 ? 'passive' : 'promoter');
const FAULTS: Fault[] = [
	{ kind: 'status', status: 500 },
	{ kind: 'status', status: 503 },
	{ kind: 'dropConnection' },
	{ kind: 'malformedJson' },
	{ kind: 'unauthorized' },
	{ kind: 'hang' },
];

/**
 * Randomized schedules of inserts (with same-second clusters larger than a page), faults and polls: whatever
 * happens, the trigger emits every inserted record that matches its filters exactly once.
 */
describe('Wootric Trigger: randomized schedules', () => {
	useFastRetries(2, 150);
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	it(`emits exactly the matching inserted records over ${SCHEDULES} seeded schedules`, async () => {
		for (let seed = 1; seed <= SCHEDULES; seed++) {
			const random = seededRandom(seed);
			fake.account.responses.clear();
			fake.account.declines.clear();
			fake.faults.clear();
			const user = createEndUser(fake.account, fake.store, `person${seed}@example.com`);
			const events = random.pick([['response'], ['decline'], ['response', 'decline']] as const);
			const categories = CATEGORIES.filter(() => random.chance(0.5));
			const includeExcluded = random.chance(0.3);
			const session = new TriggerSession(fake, { events: [...events], filters: { categories, includeExcluded } });
			await session.poll();

			const expected: string[] = [];
			// Records get creation times that move forward like real time (the fake's own clock is left alone,
			// so the rate limits it announces stay in step with the client's).
			let second = fake.clock.now();
			const steps = random.int(2, 5);
			for (let step = 0; step < steps; step++) {
				const clusters = random.int(0, 3);
				for (let cluster = 0; cluster < clusters; cluster++) {
					// Real time moves forward; a cluster shares one second, sometimes more than a page.
					if (random.chance(0.7)) second += random.int(1, 3);
					const size = random.chance(0.15) ? random.int(51, 130) : random.int(1, 8);
					for (let index = 0; index < size; index++) {
						const createdAt = second;
						if (random.chance(0.25)) {
							const decline = addDecline(fake.account, fake.store, { endUserId: user.id, createdAt });
							if (events.includes('decline' as never)) expected.push(`decline:${decline.id}`);
						} else {
							const score = random.int(0, 10);
							const excluded = random.chance(0.1);
							const response = addResponse(fake.account, fake.store, { endUserId: user.id, score, createdAt, excludedFromCalculations: excluded });
							const matches = (categories.length === 0 || categories.includes(categoryOf(score))) && (!excluded || includeExcluded);
							if (events.includes('response' as never) && matches) expected.push(`response:${response.id}`);
						}
					}
				}
				if (random.chance(0.35)) {
					const fault = random.pick(FAULTS);
					fake.faults.inject({ method: 'GET', path: /^\/v1\/(responses|declines)$/, when: (request) => request.query.page === String(random.int(1, 3)), times: random.int(1, 5), fault });
				}
				if (random.chance(0.05)) {
					// A limit whose reset is just past: the wait stays short (errors-and-limits waits for a real one).
					fake.faults.inject({ method: 'GET', path: /^\/v1\/(responses|declines)$/, times: random.int(1, 2), fault: { kind: 'rateLimited', resetInSeconds: -1 } });
				}
				if (random.chance(0.1)) {
					// The access token expires in the middle of the next poll.
					let requestsLeft = random.int(0, 3);
					fake.arrivalHooks.splice(0, fake.arrivalHooks.length, () => {
						if (requestsLeft-- === 0) fake.store.expireAccessTokens();
					});
				}
				await session.poll();
			}
			fake.faults.clear();
			fake.arrivalHooks.length = 0;
			await session.poll();
			await session.poll();

			const emitted = session.emitted.map((item) => `${item.event}:${item.id}`);
			expect({ seed, emitted: [...emitted].sort() }).toEqual({ seed, emitted: [...expected].sort() });
			expect(new Set(emitted).size).toBe(emitted.length);
		}
	}, 240_000);

	it(`emits New Response (Wait Until Complete) and Updated Response exactly once over ${UPDATE_SCHEDULES} seeded schedules of completions and changes`, async () => {
		for (let seed = 1; seed <= UPDATE_SCHEDULES; seed++) {
			const random = seededRandom(seed * 7919);
			fake.account.responses.clear();
			fake.faults.clear();
			const user = createEndUser(fake.account, fake.store, `changer${seed}@example.com`);
			const events = random.pick([['response'], ['responseUpdated'], ['response', 'responseUpdated']] as const);
			const onlyWithComment = random.chance(0.3);
			const session = new TriggerSession(fake, { events: [...events], filters: { onlyWithComment }, options: { waitUntilComplete: true } });
			await session.poll();

			// Times move forward like real time; a change is stamped with the time it happens, often a second
			// that a poll has read already.
			let second = fake.clock.now();
			const incomplete = new Set<number>();
			const complete: number[] = [];
			const steps = random.int(3, 6);
			for (let step = 0; step < steps; step++) {
				if (random.chance(0.7)) second += random.int(1, 2);
				const created = random.chance(0.15) ? random.int(51, 110) : random.int(0, 6);
				for (let index = 0; index < created; index++) {
					const done = random.chance(0.3);
					const text = done && random.chance(0.7) ? `said at once ${index}` : null;
					const response = addResponse(fake.account, fake.store, { endUserId: user.id, score: random.int(0, 10), text, completed: done, createdAt: second, updatedAt: second });
					if (done) complete.push(response.id);
					else incomplete.add(response.id);
				}
				for (const id of [...incomplete]) {
					if (!random.chance(0.4)) continue;
					changeResponse(fake.account, fake.store, id, { completed: true, text: random.chance(0.6) ? `said later ${id}` : null }, second);
					incomplete.delete(id);
					complete.push(id);
				}
				for (const id of complete) if (random.chance(0.05)) changeResponse(fake.account, fake.store, id, { tags: [`tag${step}`] }, second);
				if (random.chance(0.35)) {
					fake.faults.inject({ method: 'GET', path: '/v1/responses', when: (request) => request.query.page === String(random.int(1, 3)), times: random.int(1, 4), fault: random.pick(FAULTS) });
				}
				await session.poll();
			}
			fake.faults.clear();
			second += 1;
			for (const id of incomplete) changeResponse(fake.account, fake.store, id, { completed: true }, second);
			await session.poll();
			await session.poll();

			const stored = [...fake.account.responses.values()];
			const emittedAs = (event: string) => session.emitted.filter((item) => item.event === event);
			if (events.includes('response' as never)) {
				const news = emittedAs('response');
				const expected = stored.filter((response) => !onlyWithComment || response.text);
				expect({ seed, ids: news.map((item) => item.id).sort() }).toEqual({ seed, ids: expected.map((response) => response.id).sort() });
				// Emitted complete: with the comment it was given, whenever that came.
				for (const item of news) expect({ seed, id: item.id, text: item.text }).toEqual({ seed, id: item.id, text: fake.account.responses.get(Number(item.id))!.text });
			}
			if (events.includes('responseUpdated' as never)) {
				const updates = emittedAs('responseUpdated');
				const versions = updates.map((item) => JSON.stringify([item.id, item.updated_at, item.text, item.tags, item.completed]));
				expect({ seed, duplicates: versions.length - new Set(versions).size }).toEqual({ seed, duplicates: 0 });
				const changed = stored.filter((response) => response.updatedAt !== response.createdAt && (!onlyWithComment || response.text));
				const lastEmitted = new Map(updates.map((item) => [item.id, item]));
				for (const response of changed) {
					expect({ seed, id: response.id, last: lastEmitted.get(response.id) && [lastEmitted.get(response.id)!.text, lastEmitted.get(response.id)!.tags] }).toEqual({ seed, id: response.id, last: [response.text, response.tags] });
				}
				expect({ seed, unchanged: updates.filter((item) => item.created_at === item.updated_at).length }).toEqual({ seed, unchanged: 0 });
			}
		}
	}, 240_000);
});
