import type { INodeParameters } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import type { EndUser } from '../fake/store';
import type { WebhookFormat } from '../fake/webhook-body';
import { closeWebhookSessions, WebhookSession } from '../support/webhooks';

/**
 * The fake service's own outgoing webhooks (registered on its Outgoing Webhooks page, sent as it
 * sends them, with its delivery faults) into the trigger as n8n runs it: what reaches the workflow
 * is each event once, whatever the delivery did.
 */
describe('Wootric Webhook Trigger: the service sends, the workflow gets each event once', () => {
	let fake: FakeWootric;
	let user: EndUser;

	beforeEach(async () => {
		fake = await startFakeWootric();
		user = createEndUser(fake.account, fake.store, 'grace@example.com');
	});
	afterEach(async () => {
		await closeWebhookSessions();
		await fake.close();
	});

	async function publish(parameters: INodeParameters, format: WebhookFormat = 'form') {
		const session = await WebhookSession.start(fake, parameters);
		fake.outgoingWebhooks.register({ url: session.trigger.productionUrl, format });
		return session;
	}
	const respond = (score: number, text: string | null = null) =>
		addResponse(fake.account, fake.store, { endUserId: user.id, score, text });
	/** A detractor's score, sent; then its comment 'Too slow' five seconds later, sent. */
	async function respondThenComment() {
		const response = respond(3);
		await fake.outgoingWebhooks.settled();
		changeResponse(
			fake.account,
			fake.store,
			response.id,
			{ text: 'Too slow' },
			response.createdAt + 5,
		);
		await fake.outgoingWebhooks.settled();
		return response;
	}
	const emitted = (session: WebhookSession) =>
		session.emitted.map((item) => `${String(item.event)}:${String(item.id)}`);
	const statuses = () => fake.outgoingWebhooks.deliveries.map((delivery) => delivery.status);

	it.each<WebhookFormat>(['form', 'json'])(
		'every event, %s body: a response, its change, a decline, in the order sent',
		async (format) => {
			const session = await publish({ events: ['response', 'responseUpdated', 'decline'] }, format);
			const response = await respondThenComment();
			const declined = addDecline(fake.account, fake.store, { endUserId: user.id });
			await fake.outgoingWebhooks.settled();

			expect(emitted(session)).toEqual([
				`response:${response.id}`,
				`responseUpdated:${response.id}`,
				`decline:${declined.id}`,
			]);
			expect(session.emitted[1]).toMatchObject({
				score: 3,
				text: 'Too slow',
				end_user: { email: 'grace@example.com' },
			});
			expect(statuses()).toEqual([200, 200, 200]);
		},
	);

	it('an account in Rails’ UTC zone (times `… UTC`): its response and the change reach the workflow, keyed by their seconds', async () => {
		await fake.close();
		fake = await startFakeWootric({ railsUtc: true });
		user = createEndUser(fake.account, fake.store, 'grace@example.com');
		const session = await publish({ events: ['response', 'responseUpdated'] });
		const response = await respondThenComment();

		const changedAt = new Date((response.createdAt + 5) * 1000).toISOString().replace('.000Z', 'Z');
		expect(fake.outgoingWebhooks.deliveries[0].body).toContain('+UTC');
		expect(session.emitted.map((item) => item.idempotency_key)).toEqual([
			`response:${response.id}`,
			`responseUpdated:${response.id}:${changedAt}`,
		]);
		expect(statuses()).toEqual([200, 200]);
	});

	it.each(['atOnce', 'afterAnswer'] as const)(
		'a delivery duplicated (%s) starts the workflow once',
		async (copy) => {
			const session = await publish({ events: ['response'] });
			fake.outgoingWebhooks.faults.inject({ fault: { kind: 'duplicate', copy }, times: 3 });
			const responses = [respond(1), respond(2), respond(3)];
			await fake.outgoingWebhooks.settled();

			expect(fake.outgoingWebhooks.deliveries).toHaveLength(6);
			expect(emitted(session)).toEqual(responses.map(({ id }) => `response:${id}`));
		},
	);

	it('an update delivered before its creation, a second after it: the creation and the change reach the workflow, each once', async () => {
		const session = await publish({ events: ['response', 'responseUpdated'] });
		fake.outgoingWebhooks.faults.inject({
			fault: { kind: 'reorder' },
			event: 'response_created',
		});
		const response = respond(6);
		changeResponse(fake.account, fake.store, response.id, { score: 4 }, response.createdAt + 1);
		await fake.outgoingWebhooks.settled();
		await fake.outgoingWebhooks.settled();

		expect(fake.outgoingWebhooks.deliveries.map((delivery) => delivery.event)).toEqual([
			'response_updated',
			'response_created',
		]);
		expect(emitted(session)).toEqual([`response:${response.id}`, `responseUpdated:${response.id}`]);
	});

	it.each(['badSignature', 'unsigned'] as const)(
		'a delivery %s is refused (401) and starts nothing; the next one is taken',
		async (kind) => {
			const session = await publish({ events: ['response'] });
			fake.outgoingWebhooks.faults.inject({ fault: { kind } });
			respond(2);
			const taken = respond(5);
			await fake.outgoingWebhooks.settled();

			expect(statuses()).toEqual([401, 200]);
			expect(emitted(session)).toEqual([`response:${taken.id}`]);
		},
	);

	it('Only With a Comment: a detractor scored, then commenting later, reaches the workflow at the comment, as its Response Created and the change, each once', async () => {
		const session = await publish({
			events: ['response', 'responseUpdated'],
			filters: { categories: ['detractor'], onlyWithComment: true },
		});
		fake.outgoingWebhooks.faults.inject({ fault: { kind: 'duplicate' }, times: 2 });
		const response = respond(2);
		await fake.outgoingWebhooks.settled();
		expect(emitted(session)).toEqual([]);

		changeResponse(
			fake.account,
			fake.store,
			response.id,
			{ text: 'Broken' },
			response.createdAt + 30,
		);
		await fake.outgoingWebhooks.settled();

		expect(fake.outgoingWebhooks.deliveries).toHaveLength(4);
		expect(emitted(session)).toEqual([`response:${response.id}`, `responseUpdated:${response.id}`]);
		for (const item of session.emitted) expect(item).toMatchObject({ score: 2, text: 'Broken' });
	});

	it('a delivery delayed past the next one: both reach the workflow, each once', async () => {
		const session = await publish({ events: ['response'] });
		fake.outgoingWebhooks.faults.inject({ fault: { kind: 'delay', ms: 200 } });
		const late = respond(1);
		const early = respond(2);
		await fake.outgoingWebhooks.settled();

		expect(emitted(session)).toEqual([`response:${early.id}`, `response:${late.id}`]);
	});
});
