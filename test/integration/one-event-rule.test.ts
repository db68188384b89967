import type { INodeParameters } from 'n8n-workflow';

import {
	addResponse,
	changeResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import type { EndUser, SurveyResponse } from '../fake/store';
import { responsePayload, type WebhookPayload } from '../fake/webhook-body';
import { closeWebhookSessions, WebhookSession } from '../support/webhooks';
import { TriggerSession } from '../support/wootric';

type Change = Parameters<typeof changeResponse>[3];

/**
 * One rule for both triggers (events/index.ts, responseEvents): with the same Events and Filters,
 * the polling trigger reading a response before and after a change, and the webhook trigger
 * receiving both of Wootric's webhooks, emit the same events under the same keys, so a workflow
 * moves from one to the other unchanged and the two side by side fold into one.
 */
describe('Wootric Trigger and Wootric Webhook Trigger: the same events, by one rule', () => {
	let fake: FakeWootric;
	let user: EndUser;

	beforeEach(async () => {
		fake = await startFakeWootric();
		user = createEndUser(fake.account, fake.store, 'ada@example.com');
	});
	afterEach(async () => {
		await closeWebhookSessions();
		await fake.close();
	});

	const both = ['response', 'responseUpdated'];

	it.each<
		[string, INodeParameters, { score: number; text: string | null }, number, Change, string[]]
	>([
		[
			'Detractor, Only With a Comment: a comment two minutes after the score',
			{ categories: ['detractor'], onlyWithComment: true },
			{ score: 3, text: null },
			120,
			{ text: 'Nobody answers' },
			['response', 'responseUpdated'],
		],
		[
			'Only With a Comment: a comment ten minutes after the score, past Treat as Complete After',
			{ onlyWithComment: true },
			{ score: 3, text: null },
			600,
			{ text: 'Nobody answers' },
			['responseUpdated'],
		],
		[
			'Detractor: a passive re-scored a detractor a minute later',
			{ categories: ['detractor'] },
			{ score: 8, text: null },
			60,
			{ score: 5 },
			['response', 'responseUpdated'],
		],
		[
			'no filter: a comment a minute after the score',
			{},
			{ score: 9, text: null },
			60,
			{ text: 'Great' },
			['response', 'responseUpdated'],
		],
		[
			'Detractor: a detractor re-scored a promoter a minute later',
			{ categories: ['detractor'] },
			{ score: 2, text: null },
			60,
			{ score: 10 },
			['response'],
		],
	])('%s: both emit %j, with the same keys', async (_, filters, scored, after, change, events) => {
		const parameters = { events: both, filters };
		const polling = new TriggerSession(fake, {
			...parameters,
			options: { startFrom: new Date((fake.clock.now() - 60) * 1000).toISOString() },
		});
		const webhook = await WebhookSession.start(fake, parameters);
		const sent: WebhookPayload[] = [];
		const response: SurveyResponse = addResponse(fake.account, fake.store, {
			endUserId: user.id,
			...scored,
		});
		sent.push(responsePayload(fake.account, response, 'created', fake.clock.now()));

		await polling.poll();
		fake.clock.advance(after);
		const changed = changeResponse(fake.account, fake.store, response.id, change);
		sent.push(responsePayload(fake.account, changed, 'updated', fake.clock.now()));
		await polling.poll();
		fake.clock.advance(30);
		await polling.poll();
		for (const payload of sent) await webhook.deliver(payload);

		const keys = (session: { emitted: Array<{ idempotency_key?: unknown }> }) =>
			session.emitted.map((item) => item.idempotency_key);
		expect(polling.emitted.map((item) => item.event)).toEqual(events);
		expect(webhook.emitted.map((item) => item.event)).toEqual(events);
		expect(keys(polling)).toEqual(keys(webhook));
	});

	it('a response the polling trigger reads first after its comment, past Treat as Complete After, is new to it as it is then: its Response Created and the change', async () => {
		const polling = new TriggerSession(fake, {
			events: both,
			filters: { onlyWithComment: true },
			options: { startFrom: new Date((fake.clock.now() - 60) * 1000).toISOString() },
		});
		const response = addResponse(fake.account, fake.store, { endUserId: user.id, score: 4 });
		fake.clock.advance(600);
		changeResponse(fake.account, fake.store, response.id, { text: 'Late words' });

		await polling.poll();

		expect(polling.emitted.map(({ event, text }) => [event, text])).toEqual([
			['response', 'Late words'],
			['responseUpdated', 'Late words'],
		]);
	});
});
