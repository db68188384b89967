import { createHmac } from 'node:crypto';

import { addResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import { responsePayload, signWebhook } from '../fake/webhook-body';
import { MAX_BODY_BYTES } from '../../nodes/Wootric/webhook/delivery';
import {
	closeWebhookSessions,
	post,
	signedDelivery,
	WebhookSession,
	type Delivery,
} from '../support/webhooks';

/**
 * X-Wootric-Signature over real sockets: a webhook the service did not sign with the account's
 * secret is answered 401 before its body is read, and starts nothing.
 */
describe('Wootric Webhook Trigger: signature', () => {
	let fake: FakeWootric;
	let session: WebhookSession;
	/** A response's Response Created webhook, signed as the service signs it. */
	let delivery: ReturnType<typeof signedDelivery>;

	beforeEach(async () => {
		fake = await startFakeWootric();
		const user = createEndUser(fake.account, fake.store, 'ada@example.com', {
			externalId: 'crm-1',
		});
		const response = addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 9,
			text: 'Great support',
		});
		delivery = signedDelivery(
			fake,
			responsePayload(fake.account, response, 'created', fake.clock.now()),
		);
		session = await WebhookSession.start(fake, { events: ['response'] });
	});
	afterEach(async () => {
		await closeWebhookSessions();
		await fake.close();
	});

	const hex = () => delivery.signature.slice('sha1='.length);
	/** The body with one byte changed: score=9 becomes score=8. */
	const alteredBody = () => delivery.body.replace('%5Bscore%5D=9', '%5Bscore%5D=8');

	const refusals: Array<[string, () => Delivery, string]> = [
		['no signature', () => ({ ...delivery, signature: undefined }), 'missing'],
		['an empty signature', () => ({ ...delivery, signature: '' }), 'missing'],
		[
			'sha256= (HMAC-SHA256 of the body)',
			() => ({
				...delivery,
				signature: `sha256=${createHmac('sha256', fake.credentials.webhookSecret).update(delivery.body).digest('hex')}`,
			}),
			'unsupported algorithm',
		],
		['the hex without sha1=', () => ({ ...delivery, signature: hex() }), 'unsupported algorithm'],
		[
			'a signature that is not hex',
			() => ({ ...delivery, signature: `sha1=${'z'.repeat(40)}` }),
			'unsupported algorithm',
		],
		[
			'the signature of another secret',
			() => ({ ...delivery, signature: signWebhook(delivery.body, 'not-the-secret') }),
			'mismatch',
		],
		['the body altered by one byte', () => ({ ...delivery, body: alteredBody() }), 'mismatch'],
		[
			'an odd-length hex (one digit dropped)',
			() => ({ ...delivery, signature: delivery.signature.slice(0, -1) }),
			'mismatch',
		],
		[
			'half of the signature',
			() => ({ ...delivery, signature: `sha1=${hex().slice(0, 20)}` }),
			'mismatch',
		],
	];

	it.each(refusals)(
		'%s: answered 401, nothing emitted, nothing of the body repeated',
		async (_, request, check) => {
			const answer = await post(session.trigger.productionUrl, request());

			expect(answer).toEqual({
				status: 401,
				contentType: 'application/json; charset=utf-8',
				// The whole answer: it names the check, and nothing the body or the secret holds.
				text: JSON.stringify({
					message: `X-Wootric-Signature: ${check}; the webhook was ignored`,
				}),
			});
			expect(session.trigger.executions).toEqual([]);
		},
	);

	it('checks the signature before reading the body: an unreadable body unsigned is a 401, not a 400', async () => {
		const unreadable: Delivery[] = [
			{ body: 'response[id=1', contentType: 'application/x-www-form-urlencoded' },
			{ body: '[]', contentType: 'application/json' },
			{
				body: `${delivery.body}&pad=${'x'.repeat(MAX_BODY_BYTES)}`,
				contentType: delivery.contentType,
			},
		];
		for (const request of unreadable) {
			const answer = await post(session.trigger.productionUrl, {
				...request,
				signature: signWebhook(request.body, 'not-the-secret'),
			});
			expect(answer.status).toBe(401);
		}
		expect(session.trigger.executions).toEqual([]);
	});

	it.each([
		['lowercase hex', () => delivery.signature],
		['uppercase hex', () => `sha1=${hex().toUpperCase()}`],
		['SHA1= in capitals', () => `SHA1=${hex()}`],
	])('accepts %s', async (_, signature) => {
		const answer = await post(session.trigger.productionUrl, {
			...delivery,
			signature: signature(),
		});

		expect(answer.status).toBe(200);
		expect(session.emitted).toEqual([expect.objectContaining({ event: 'response', score: 9 })]);
	});
});
