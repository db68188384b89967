// The floor of the bench (test/bench/webhooks.ts), never shipped: what any signed community webhook
// trigger must do, and nothing more. It reads its credential's secret in the webhook, checks the
// HMAC-SHA1 of the raw body against X-Wootric-Signature, and emits one item with the fields the
// ticket's HTTP Request node reads. Declared at version 1.1, as new nodes of ours are: n8n evaluates
// one more expression for a webhook to a node of version 1.
//
// Keep Secret (seconds), for the bench's question of keeping the secret between deliveries: above 0,
// the secret read is kept in this process for that long per credential; a signature that fails
// against a kept secret reads the credential again before refusing.
const { createHmac, timingSafeEqual } = require('node:crypto');

/** Credential id → { secret, readAt }: at most one entry per credential, for keepSeconds. */
const keptSecrets = new Map();

async function secretOf(context, keepSeconds, fresh) {
	const { id } = context.getNode().credentials.benchFloorSecret;
	const kept = keptSecrets.get(id);
	if (!fresh && kept && Date.now() - kept.readAt < keepSeconds * 1000) return kept.secret;
	const { secret } = await context.getCredentials('benchFloorSecret');
	if (keepSeconds > 0) keptSecrets.set(id, { secret, readAt: Date.now() });
	return secret;
}

function signs(secret, body, signature) {
	const expected = Buffer.from(`sha1=${createHmac('sha1', secret).update(body).digest('hex')}`);
	const given = Buffer.from(String(signature ?? ''));
	return given.length === expected.length && timingSafeEqual(given, expected);
}

class SignedFloor {
	constructor() {
		this.description = {
			displayName: 'Bench Signed Floor',
			name: 'signedFloor',
			group: ['trigger'],
			version: 1.1,
			description: 'For the bench only',
			defaults: { name: 'Signed Floor' },
			inputs: [],
			outputs: ['main'],
			credentials: [{ name: 'benchFloorSecret', required: true }],
			webhooks: [
				{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
			],
			properties: [
				{ displayName: 'Keep Secret (Seconds)', name: 'keepSeconds', type: 'number', default: 0 },
			],
		};
	}

	async webhook() {
		const request = this.getRequestObject();
		const body = request.rawBody ?? Buffer.alloc(0);
		const signature = this.getHeaderData()['x-wootric-signature'];
		const keepSeconds = this.getNodeParameter('keepSeconds', 0);
		let secret = await secretOf(this, keepSeconds, false);
		if (!signs(secret, body, signature) && keepSeconds > 0) {
			secret = await secretOf(this, keepSeconds, true);
		}
		if (!signs(secret, body, signature)) {
			this.getResponseObject().status(401).send('Bad signature');
			return { noWebhookResponse: true };
		}
		const fields = this.getBodyData();
		const id = Number(fields['response[id]']);
		return {
			workflowData: [
				[
					{
						json: {
							event: fields.event_name,
							id,
							score: Number(fields['response[score]']),
							idempotency_key: `response:${id}`,
						},
					},
				],
			],
		};
	}
}

module.exports = { SignedFloor };
