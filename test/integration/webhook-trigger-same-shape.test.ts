import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import type { EndUser } from '../fake/store';
import { declinePayload, responsePayload, type WebhookPayload } from '../fake/webhook-body';
import { closeWebhookSessions, WebhookSession } from '../support/webhooks';
import { TriggerSession } from '../support/wootric';

type Event = 'response' | 'responseUpdated' | 'decline';

/**
 * A workflow can move from the polling Wootric Trigger to the Wootric Webhook Trigger unchanged:
 * for one record, the webhook's item is the polling trigger's (Include End User on) minus what the
 * webhook body does not carry. So in version 1 with Simplify on; in 1.1 with Simplify on or off.
 */
describe('Wootric Webhook Trigger: items of the polling trigger’s shape', () => {
	let fake: FakeWootric;
	let user: EndUser;

	beforeEach(async () => {
		fake = await startFakeWootric();
		// The user's properties changed since the survey: the record keeps those at the survey.
		user = createEndUser(fake.account, fake.store, 'ada@example.com', {
			externalId: 'crm-1',
			properties: { plan: 'enterprise' },
		});
	});
	afterEach(async () => {
		await closeWebhookSessions();
		await fake.close();
	});

	const surveyedAt = () => fake.clock.now() - 100;
	const response = (text: string | null) =>
		addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 9,
			text,
			endUserProperties: { plan: 'pro' },
			createdAt: surveyedAt(),
		});
	const records: Array<[string, Event, () => WebhookPayload]> = [
		[
			'a response with a comment',
			'response',
			() => responsePayload(fake.account, response('Great'), 'created', fake.clock.now()),
		],
		[
			'a response without one (text= in the body)',
			'response',
			() => responsePayload(fake.account, response(null), 'created', fake.clock.now()),
		],
		[
			'a response given a comment later',
			'responseUpdated',
			() => {
				const { id } = response(null);
				const changed = changeResponse(fake.account, fake.store, id, { text: 'Later' });
				return responsePayload(fake.account, changed, 'updated', fake.clock.now());
			},
		],
		[
			'a decline',
			'decline',
			() =>
				declinePayload(
					fake.account,
					addDecline(fake.account, fake.store, {
						endUserId: user.id,
						endUserProperties: { plan: 'pro' },
						createdAt: surveyedAt(),
					}),
					fake.clock.now(),
				),
		],
	];

	/**
	 * The webhook trigger's item with what only the API's record holds: completed, tags and notes of
	 * a response (`mainFields`: those Simplify of 1.1 keeps, completed and tags), and the end user's
	 * id and current properties (from GET /v1/end_users/<id>).
	 */
	const asPolled = (received: IDataObject, event: Event, mainFields = false) => ({
		...received,
		...(event === 'decline'
			? {}
			: { completed: true, tags: [], ...(mainFields ? {} : { notes: [] }) }),
		end_user: {
			...(received.end_user as IDataObject),
			id: user.id,
			current_properties: { plan: 'enterprise' },
		},
	});
	const withoutTimes = ({ created_at: _created, updated_at: _updated, ...rest }: IDataObject) =>
		rest;

	/** The items of both triggers, of `typeVersion` with `options`, for the record `payload` makes. */
	async function itemsOf(
		event: Event,
		payload: () => WebhookPayload,
		typeVersion: number,
		options: INodeParameters = {},
	) {
		const delivery = payload();
		const polling = new TriggerSession(
			fake,
			{ events: [event], options: { ...options, includeEndUser: true } },
			{},
			undefined,
			typeVersion,
		);
		const webhook = await WebhookSession.start(fake, { events: [event], options }, typeVersion);

		const [polled] = (await polling.poll('manual')).items;
		await webhook.deliver(delivery);
		const [received] = webhook.emitted;
		expect(received.event).toBe(event);
		expect(Object.keys(received.end_user as IDataObject).sort()).toEqual([
			'email',
			'external_id',
			'properties',
		]);
		return { polled, received };
	}

	describe('version 1', () => {
		it.each(records)('with Simplify: %s (%s)', async (_, event, payload) => {
			const { polled, received } = await itemsOf(event, payload, 1, { simplify: true });

			expect(polled).toEqual(asPolled(received, event));
		});

		it('without Simplify, the times differ too: the polling trigger keeps the service’s text, the webhook trigger gives ISO 8601 UTC', async () => {
			const record = response('Great');
			const { polled, received } = await itemsOf(
				'response',
				() => responsePayload(fake.account, record, 'created', fake.clock.now()),
				1,
			);

			expect(withoutTimes(polled)).toEqual(withoutTimes(asPolled(received, 'response')));
			expect(polled).not.toHaveProperty('nps_category');
			expect([polled.created_at, received.created_at]).toEqual([
				expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d -0800$/),
				new Date(record.createdAt * 1000).toISOString(),
			]);
		});
	});

	describe('version 1.1', () => {
		it.each(records)('without Simplify: %s (%s)', async (_, event, payload) => {
			const { polled, received } = await itemsOf(event, payload, 1.1);

			expect(polled).toEqual(asPolled(received, event));
			expect(received.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
			if (event !== 'decline') expect(received.nps_category).toBe('promoter');
		});

		it.each(records)('with Simplify: %s (%s)', async (_, event, payload) => {
			const { polled, received } = await itemsOf(event, payload, 1.1, { simplify: true });

			expect(polled).toEqual(asPolled(received, event, true));
		});
	});
});
