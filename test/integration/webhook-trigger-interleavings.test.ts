import { addResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import { responsePayload } from '../fake/webhook-body';
import { replayCommand, schedulesOf } from '../support/test-size';
import {
	everySchedule,
	runInterleaving,
	type Fate,
	type InterleavingRun,
} from '../support/webhook-interleavings';
import { closeWebhookSessions, signedDelivery, WebhookSession } from '../support/webhooks';
import { seededRandom } from '../support/wootric';

/**
 * Copies of one delivery through the Wootric Webhook Trigger's webhook(), interleaved at every await
 * of the node and every point the service or n8n acts (test/support/webhook-interleavings.ts says
 * which, and the promise they are judged by): every schedule of two copies, for each pair of
 * fates of their executions (stored, or n8n answers 500); random schedules of three copies beyond.
 * A schedule that breaks the promise prints its steps.
 */
const THREE_COPY_SCHEDULES = schedulesOf('WEBHOOK_INTERLEAVING_SCHEDULES', 3000);
const FIRST_SEED = Number(process.env.WEBHOOK_INTERLEAVING_FIRST_SEED ?? 1);
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

describe('Wootric Webhook Trigger: copies of one delivery interleaved at every await', () => {
	let fake: FakeWootric;
	let session: WebhookSession;

	beforeAll(async () => {
		fake = await startFakeWootric();
		session = await WebhookSession.start(fake, { events: ['response'] });
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'], now: NOW });
	});
	afterAll(async () => {
		jest.useRealTimers();
		await closeWebhookSessions();
		await fake.close();
	});

	/** A new response's delivery, sent now: a key the trigger has not seen. */
	const newDelivery = () => {
		const user = createEndUser(fake.account, fake.store, `u${fake.account.endUsers.size}@x.test`);
		const now = Math.floor(Date.now() / 1000);
		const response = addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 3,
			createdAt: now,
			updatedAt: now,
		});
		return signedDelivery(fake, responsePayload(fake.account, response, 'created', now));
	};

	const failures: Array<{ fates: Fate[]; trace: string; violations: string[] }> = [];
	const note = (fates: Fate[]) => (result: InterleavingRun) => {
		if (result.violations.length > 0)
			failures.push({ fates, trace: result.trace.join(', '), violations: result.violations });
	};

	it('keeps the promise in every schedule of two copies, whatever n8n does with each', async () => {
		failures.length = 0;
		const FATES: Fate[] = ['stored', 'fails'];
		let schedules = 0;
		for (const first of FATES)
			for (const second of FATES) {
				const fates = [first, second];
				schedules += await everySchedule(
					async (choose) => await runInterleaving(session.trigger, newDelivery(), fates, choose),
					note(fates),
				);
			}
		process.stdout.write(
			`[webhook interleavings] ${schedules} schedules of two copies; ${failures.length} broke the promise\n`,
		);
		expect({ failed: failures.length, first: failures.slice(0, 3) }).toEqual({
			failed: 0,
			first: [],
		});
	}, 600_000);

	it(`keeps the promise in ${THREE_COPY_SCHEDULES} random schedules of three copies`, async () => {
		failures.length = 0;
		for (let seed = FIRST_SEED; seed < FIRST_SEED + THREE_COPY_SCHEDULES; seed++) {
			const random = seededRandom(seed);
			const fates = [0, 1, 2].map(() => random.pick<Fate>(['stored', 'fails']));
			const result = await runInterleaving(session.trigger, newDelivery(), fates, (enabled) =>
				random.pick(enabled),
			);
			if (result.violations.length > 0)
				failures.push({
					fates,
					trace: `${replayCommand('test/integration/webhook-trigger-interleavings.test.ts', 'WEBHOOK_INTERLEAVING_FIRST_SEED', 'WEBHOOK_INTERLEAVING_SCHEDULES', seed)}: ${result.trace.join(', ')}`,
					violations: result.violations,
				});
		}
		process.stdout.write(
			`[webhook interleavings] ${THREE_COPY_SCHEDULES} random schedules of three copies; ${failures.length} broke the promise\n`,
		);
		expect({ failed: failures.length, first: failures.slice(0, 3) }).toEqual({
			failed: 0,
			first: [],
		});
	}, 600_000);
});
