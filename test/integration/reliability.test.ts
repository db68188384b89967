import { createEndUser, startFakeWootric, type Fault, type FakeWootric } from '../fake';
import { runNode } from '../harness';
import { schedulesOf } from '../support/test-size';
import {
	credentialsFor,
	seededRandom,
	seedResponses,
	useFastRetries,
	VERSION_BEFORE_LOCATORS,
} from '../support/wootric';

/** 250 at full size (test/support/test-size.ts); the creates' schedules are half as many. */
const RETURN_ALL_SCHEDULES = schedulesOf('RELIABILITY_SCHEDULES', 250);
const POST_SCHEDULES = Math.ceil(RETURN_ALL_SCHEDULES / 2);

const FAULTS: Fault[] = [
	{ kind: 'status', status: 500, message: 'database timeout' },
	{ kind: 'status', status: 503, message: 'maintenance' },
	{ kind: 'rateLimited', resetInSeconds: -1 },
	{ kind: 'hang' },
	{ kind: 'dropConnection' },
	{ kind: 'malformedJson' },
	{ kind: 'unauthorized' },
];

/**
 * A failure a user can act on: an HTTP status with Wootric's own message, or what went wrong on the
 * wire.
 */
function expectActionableError(error: {
	message: string;
	description?: string | null;
	httpCode?: string | null;
}) {
	if (error.httpCode) {
		expect(error.message).toContain(error.httpCode);
		if (['500', '503', '429'].includes(error.httpCode))
			expect(error.description).toMatch(
				/Wootric says: (database timeout|maintenance|Rate limit exceeded)/,
			);
	} else {
		expect(error.message).toMatch(
			/^(Could not reach Wootric for .*: (it timed out|the connection dropped|a network error)|Wootric answered .* with malformed JSON)/,
		);
	}
}

/**
 * Seeded fault schedules: 500s, 429s, hung requests, dropped connections, malformed JSON and 401s
 * (and tokens that expire mid-run) over Return All and over creates. Whatever happens, no record is
 * lost or duplicated, every failure is an actionable error, and no POST the service may have acted
 * on is repeated.
 */
describe('reliability under faults', () => {
	useFastRetries(2, 150);
	let fake: FakeWootric;

	beforeAll(async () => (fake = await startFakeWootric()));
	afterAll(async () => await fake.close());
	beforeEach(() => {
		fake.faults.clear();
		fake.arrivalHooks.length = 0;
		fake.requests.length = 0;
	});

	it(`Return All reads every record exactly once, or fails with an actionable error, over ${RETURN_ALL_SCHEDULES} schedules`, async () => {
		const { responses } = seedResponses(fake, 130, { cluster: [40, 100] });
		const expected = responses.map((response) => response.id);
		let failures = 0;
		for (let seed = 1; seed <= RETURN_ALL_SCHEDULES; seed++) {
			const random = seededRandom(seed);
			fake.faults.clear();
			fake.arrivalHooks.length = 0;
			for (let rule = random.int(0, 3); rule > 0; rule--) {
				const page = String(random.int(1, 3));
				fake.faults.inject({
					path: '/v1/responses',
					when: (request) => request.query.page === page,
					times: random.int(1, 5),
					fault: random.pick(FAULTS),
				});
			}
			if (random.chance(0.15)) {
				let requestsLeft = random.int(0, 2);
				fake.arrivalHooks.push(() => {
					if (requestsLeft-- === 0) fake.store.expireAccessTokens();
				});
			}

			const run = await runNode({
				nodeType: 'wootric',
				nodeTypeVersion: VERSION_BEFORE_LOCATORS,
				parameters: {
					resource: 'response',
					operation: 'getAll',
					scope: 'all',
					returnAll: true,
					options: { order: 'asc' },
				},
				credentials: credentialsFor(fake),
			});

			if (run.error) {
				failures++;
				expect(run.items).toEqual([]);
				expectActionableError(run.error as never);
			} else {
				expect({ seed, ids: run.items.map((item) => item.json.id) }).toEqual({
					seed,
					ids: expected,
				});
			}
		}
		// The schedules must exercise both outcomes, or they prove little.
		expect(failures).toBeGreaterThan(RETURN_ALL_SCHEDULES / 25);
		expect(failures).toBeLessThan(RETURN_ALL_SCHEDULES * 0.8);
	}, 120_000);

	it(`never repeats a create the service may have acted on, over ${POST_SCHEDULES} schedules`, async () => {
		const user = createEndUser(fake.account, fake.store, 'reliable@example.com');
		const path = `/v1/end_users/${user.id}/responses`;
		let created = 0;
		for (let seed = 1; seed <= POST_SCHEDULES; seed++) {
			const random = seededRandom(10_000 + seed);
			fake.faults.clear();
			fake.requests.length = 0;
			if (random.chance(0.8))
				fake.faults.inject({
					method: 'POST',
					path,
					times: random.int(1, 3),
					fault: random.pick(FAULTS),
				});
			const before = fake.account.responses.size;

			const run = await runNode({
				nodeType: 'wootric',
				nodeTypeVersion: VERSION_BEFORE_LOCATORS,
				parameters: {
					resource: 'response',
					operation: 'create',
					endUserId: user.id,
					score: random.int(0, 10),
					ipAddress: '203.0.113.9',
					originUrl: `https://app.example.com/${seed}`,
				},
				credentials: credentialsFor(fake),
			});

			// A 401 or 429 means the service refused the request unread; anything else may have been
			// acted on.
			const mayHaveActed = fake
				.requestsTo(path, 'POST')
				.filter((request) => request.status !== 401 && request.status !== 429);
			expect({ seed, sentAtMostOnce: mayHaveActed.length <= 1 }).toEqual({
				seed,
				sentAtMostOnce: true,
			});
			const stored = fake.account.responses.size - before;
			expect(stored).toBeLessThanOrEqual(mayHaveActed.length);
			if (run.error) expectActionableError(run.error as never);
			else expect({ seed, stored }).toEqual({ seed, stored: 1 });
			created += stored;
		}
		expect(created).toBeGreaterThan(POST_SCHEDULES / 6);
	}, 120_000);
});
