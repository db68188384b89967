import { addResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import { responsePayload } from '../fake/webhook-body';
import { replayCommand, schedulesOf } from '../support/test-size';
import {
	everySchedule,
	runInterleaving,
	type Fate,
	type InterleavingRun,
	type Retries,
	type Sending,
} from '../support/webhook-interleavings';
import { closeWebhookSessions, signedDelivery, WebhookSession } from '../support/webhooks';
import { seededRandom } from '../support/wootric';

/**
 * Deliveries that share keys through the Wootric Webhook Trigger's webhook(), interleaved at every
 * await of the node and every point the service or n8n acts (test/support/webhook-interleavings.ts
 * says which, and the promise they are judged by): copies of one delivery, a score's Response
 * Created and its comment's change (which stands for the Response Created too), two changes in one
 * second. Every schedule of two copies, and of a score and its comment, for each pair of fates of
 * their executions (stored, or n8n answers 500); random schedules of three of any kind beyond, the
 * service's retries coming in time or too late. (Two changes in one second share all their keys, as
 * copies do: the random schedules hold them.) A schedule that breaks the promise prints its steps.
 */
const THREE_COPY_SCHEDULES = schedulesOf('WEBHOOK_INTERLEAVING_SCHEDULES', 2000);
const FIRST_SEED = Number(process.env.WEBHOOK_INTERLEAVING_FIRST_SEED ?? 1);
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

/** The deliveries of one new response a schedule draws from, each with the events it carries. */
type Family = 'copies of one' | 'score and comment' | 'two changes in one second';
const FAMILIES: Family[] = ['copies of one', 'score and comment', 'two changes in one second'];

describe('Wootric Webhook Trigger: deliveries that share keys interleaved at every await', () => {
	let fake: FakeWootric;
	let session: WebhookSession;

	beforeAll(async () => {
		fake = await startFakeWootric();
		session = await WebhookSession.start(fake, { events: ['response', 'responseUpdated'] });
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'], now: NOW });
	});
	afterAll(async () => {
		jest.useRealTimers();
		await closeWebhookSessions();
		await fake.close();
	});

	/**
	 * A new response scored now (a key the trigger has not seen) and deliveries of it: its Response
	 * Created, or changes a second later, within Treat as Complete After, each a Response Updated and
	 * the Response Created.
	 */
	const deliveriesOf = (family: Family): Array<Omit<Sending, 'fate'>> => {
		const user = createEndUser(fake.account, fake.store, `u${fake.account.endUsers.size}@x.test`);
		const now = Math.floor(Date.now() / 1000);
		const response = addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 3,
			createdAt: now,
			updatedAt: now,
		});
		const created = `response:${response.id}`;
		const changed = `responseUpdated:${response.id}:${new Date((now + 1) * 1000).toISOString().replace('.000Z', 'Z')}`;
		const change = (text: string, score: number) => ({
			delivery: signedDelivery(
				fake,
				responsePayload(
					fake.account,
					{ ...response, text, score, updatedAt: now + 1 },
					'updated',
					now + 1,
				),
			),
			keys: [created, changed],
		});
		const creation = {
			delivery: signedDelivery(fake, responsePayload(fake.account, response, 'created', now)),
			keys: [created],
		};
		if (family === 'copies of one') return [creation];
		if (family === 'score and comment') return [creation, change('Too slow', 3)];
		return [change('Too slow', 3), change('Too slow', 6)];
	};

	const failures: Array<{ run: string; trace: string; violations: string[] }> = [];
	const note = (run: string, result: InterleavingRun) => {
		if (result.violations.length > 0)
			failures.push({ run, trace: result.trace.join(', '), violations: result.violations });
	};
	const describeSendings = (sendings: Sending[]) =>
		sendings
			.map(
				({ keys, fate }, index) =>
					`${String.fromCharCode(65 + index)} ${fate} (${keys.join(', ')})`,
			)
			.join('; ');

	it.each<Family>(['copies of one', 'score and comment'])(
		'keeps the promise in every schedule of two deliveries, %s, whatever n8n does with each',
		async (family) => {
			failures.length = 0;
			const FATES: Fate[] = ['stored', 'fails'];
			let schedules = 0;
			for (const first of FATES)
				for (const second of FATES)
					schedules += await everySchedule(async (choose) => {
						const [a, b = a] = deliveriesOf(family);
						const sendings = [
							{ ...a, fate: first },
							{ ...b, fate: second },
						];
						const result = await runInterleaving(session.trigger, sendings, 'inTime', choose);
						note(describeSendings(sendings), result);
					});
			process.stdout.write(
				`[webhook interleavings] ${schedules} schedules of two deliveries, ${family}; ${failures.length} broke the promise\n`,
			);
			expect({ failed: failures.length, first: failures.slice(0, 3) }).toEqual({
				failed: 0,
				first: [],
			});
		},
		600_000,
	);

	it(`keeps the promise in ${THREE_COPY_SCHEDULES} random schedules of three deliveries, the retries in time or too late`, async () => {
		failures.length = 0;
		for (let seed = FIRST_SEED; seed < FIRST_SEED + THREE_COPY_SCHEDULES; seed++) {
			const random = seededRandom(seed);
			const drawn = deliveriesOf(random.pick(FAMILIES));
			const sendings = [0, 1, 2].map(() => ({
				...random.pick(drawn),
				fate: random.pick<Fate>(['stored', 'fails']),
			}));
			const retries = random.pick<Retries>(['inTime', 'tooLate']);
			const result = await runInterleaving(session.trigger, sendings, retries, (enabled) =>
				random.pick(enabled),
			);
			note(
				`${replayCommand('test/integration/webhook-trigger-interleavings.test.ts', 'WEBHOOK_INTERLEAVING_FIRST_SEED', 'WEBHOOK_INTERLEAVING_SCHEDULES', seed)}: ${describeSendings(sendings)}, retries ${retries}`,
				result,
			);
		}
		process.stdout.write(
			`[webhook interleavings] ${THREE_COPY_SCHEDULES} random schedules of three deliveries; ${failures.length} broke the promise\n`,
		);
		expect({ failed: failures.length, first: failures.slice(0, 3) }).toEqual({
			failed: 0,
			first: [],
		});
	}, 600_000);
});
