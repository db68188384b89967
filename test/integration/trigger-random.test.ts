import { addDecline, addResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import type { Fault } from '../fake';
import { seededRandom, TriggerSession, useFastRetries } from '../support/wootric';

const SCHEDULES = 300;
const CATEGORIES = ['detractor', 'passive', 'promoter'] as const;
const categoryOf = (score: number) => (score <= 6 ? 'detractor' : score <= 8 ? 'passive' : 'promoter');

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
					const fault: Fault = random.pick<Fault>([
						{ kind: 'status', status: 500 },
						{ kind: 'status', status: 503 },
						{ kind: 'dropConnection' },
						{ kind: 'malformedJson' },
						{ kind: 'unauthorized' },
						{ kind: 'hang' },
					]);
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
});
