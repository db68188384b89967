import type { INodeParameters } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import { declinePayload, responsePayload } from '../fake/webhook-body';
import type { EndUser, SurveyResponse } from '../fake/store';
import { startWebhookTrigger, type WebhookTrigger } from '../harness';
import {
	NOTHING_TO_START,
	post,
	signedDelivery,
	webhookCredentialsFor,
	type Answer,
} from '../support/webhooks';
import { credentialsFor } from '../support/wootric';

const SECRET_HELP =
	'Copy the secret token from Wootric (Settings → Outgoing Webhooks) into the Webhook Secret Token field of this node\'s "Wootric API" credential';

/**
 * Publishing, unpublishing and "Listen for test event", as n8n runs the node's webhook methods
 * around its two URLs; and what each of the two remembers of deliveries.
 */
describe('Wootric Webhook Trigger: activation and its two webhooks', () => {
	let fake: FakeWootric;
	let user: EndUser;
	let response: SurveyResponse;
	const triggers: WebhookTrigger[] = [];

	beforeEach(async () => {
		fake = await startFakeWootric();
		user = createEndUser(fake.account, fake.store, 'ada@example.com');
		response = addResponse(fake.account, fake.store, { endUserId: user.id, score: 3 });
	});
	afterEach(async () => {
		await Promise.all(triggers.splice(0).map(async (trigger) => await trigger.close()));
		await fake.close();
	});

	async function trigger(
		parameters: INodeParameters = { events: ['response'] },
		credentials = webhookCredentialsFor(fake),
	): Promise<WebhookTrigger> {
		const started = await startWebhookTrigger({
			nodeType: 'wootricWebhookTrigger',
			parameters,
			credentials,
		});
		triggers.push(started);
		return started;
	}

	const created = () =>
		signedDelivery(fake, responsePayload(fake.account, response, 'created', fake.clock.now()));
	const emittedIds = (of: WebhookTrigger) =>
		of.executions.flatMap(({ mode, items }) => items.map(({ json }) => `${mode}:${json.id}`));
	const json = (answer: Answer) => JSON.parse(answer.text) as unknown;

	describe('a credential without the webhook secret', () => {
		it.each([
			['publishing', (of: WebhookTrigger) => of.activate()],
			['listening for a test event', (of: WebhookTrigger) => of.listen()],
		])('%s is refused, saying where the secret is found; the URL stays closed', async (_, open) => {
			const withoutSecret = await trigger(undefined, credentialsFor(fake));

			await expect(open(withoutSecret)).rejects.toMatchObject({
				message: 'No webhook secret token to check webhooks with',
				description: `${SECRET_HELP}. Without it every webhook would be refused.`,
			});
			for (const url of [withoutSecret.productionUrl, withoutSecret.testUrl])
				expect((await post(url, created())).status).toBe(404);
		});

		it('a webhook arriving after the secret was removed from the credential is answered 401 and starts nothing', async () => {
			const published = await trigger();
			await published.activate();
			await published.credentialsHelper.updateCredentials(
				{ id: published.credentialId as string, name: 'Wootric API' },
				'wootricApi',
				{ ...webhookCredentialsFor(fake), webhookSecret: '' },
			);

			const answer = await post(published.productionUrl, created());

			expect(answer.status).toBe(401);
			expect(json(answer)).toEqual({ message: `Webhooks cannot be checked: ${SECRET_HELP}` });
			expect(published.executions).toEqual([]);
		});
	});

	it.each<[string, INodeParameters, string]>([
		['no event chosen', { events: [] }, 'Events needs at least one event (got [])'],
		[
			'a Minimum Score above the Maximum',
			{ events: ['response'], filters: { minScore: 8, maxScore: 3 } },
			'Minimum Score must not be above the Maximum Score (3) (got 8)',
		],
	])('publishing with %s is refused', async (_, parameters, message) => {
		const published = await trigger(parameters);

		await expect(published.activate()).rejects.toThrow(message);
		expect((await post(published.productionUrl, created())).status).toBe(404);
	});

	it('the production URL answers while the workflow is published: 404 before, 200 during, 404 after', async () => {
		const published = await trigger();
		const closed = {
			status: 404,
			message: expect.stringContaining('is not registered') as unknown,
		};
		const statusAndMessage = async () => {
			const answer = await post(published.productionUrl, created());
			return { status: answer.status, message: (json(answer) as { message: string }).message };
		};

		expect(await statusAndMessage()).toEqual(closed);
		await published.activate();
		const during = await post(published.productionUrl, created());
		await published.deactivate();

		expect(during.status).toBe(200);
		expect(await statusAndMessage()).toEqual(closed);
		expect(emittedIds(published)).toEqual([`webhook:${response.id}`]);
	});

	it('the test URL takes webhooks until one starts an execution, then closes', async () => {
		const listening = await trigger();
		expect((await post(listening.testUrl, created())).status).toBe(404);
		await listening.listen();
		// A decline, which this node does not watch, starts nothing: the listen goes on.
		const decline = addDecline(fake.account, fake.store, { endUserId: user.id });
		const ignored = await post(
			listening.testUrl,
			signedDelivery(fake, declinePayload(fake.account, decline, fake.clock.now())),
		);

		const started = await post(listening.testUrl, created());
		const afterwards = await post(listening.testUrl, created());

		expect({ status: ignored.status, body: json(ignored) }).toEqual({
			status: 200,
			body: NOTHING_TO_START,
		});
		expect(started.status).toBe(200);
		expect(afterwards.status).toBe(404);
		expect(emittedIds(listening)).toEqual([`manual:${response.id}`]);
	});

	describe('what each webhook remembers', () => {
		it('a test event does not make production forget, nor production the test listen', async () => {
			const both = await trigger();
			await both.activate();
			await post(both.productionUrl, created());
			await both.listen();

			// Production has seen it; the test listen has not.
			await post(both.testUrl, created());
			// The listen ended (n8n ran the node's delete): production still has seen it.
			await post(both.productionUrl, created());

			expect(emittedIds(both)).toEqual([`webhook:${response.id}`, `manual:${response.id}`]);
		});

		it('each test listen starts afresh: the same test event twice, in two listens, is emitted twice', async () => {
			const listening = await trigger();

			for (let listen = 0; listen < 2; listen++) {
				await listening.listen();
				await post(listening.testUrl, created());
			}

			expect(emittedIds(listening)).toEqual([`manual:${response.id}`, `manual:${response.id}`]);
		});

		it('production remembers across a publish again: a repeat before and after it is not emitted', async () => {
			const published = await trigger();
			await published.activate();
			await post(published.productionUrl, created());
			await post(published.productionUrl, created());
			await published.deactivate();
			await published.activate();

			await post(published.productionUrl, created());

			expect(emittedIds(published)).toEqual([`webhook:${response.id}`]);
		});
	});
});
