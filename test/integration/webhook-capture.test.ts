import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { analyseDeliveries } from '../../scripts/live/webhook-analysis';
import { readCaptured, startWebhookCapture } from '../../scripts/live/webhook-capture';
import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
	type WebhookFormat,
} from '../fake';

/**
 * The webhook capture and its analysis (scripts/live/): the fake's Outgoing Webhooks stored raw and
 * held against what the Webhook Trigger assumes show no difference; a variant sending JSON, and a
 * new timestamp on each attempt, shows exactly those.
 */
describe('the webhook capture and its analysis', () => {
	let fake: FakeWootric;
	let folder: string;
	let close: () => Promise<void>;
	let captureUrl: string;

	beforeEach(async () => {
		fake = await startFakeWootric();
		folder = mkdtempSync(join(tmpdir(), 'webhook-capture-'));
		const capture = await startWebhookCapture({ folder, secret: fake.credentials.webhookSecret });
		({ close } = capture);
		captureUrl = `${capture.url}/wootric`;
	});
	afterEach(async () => {
		await close();
		await fake.close();
		rmSync(folder, { recursive: true, force: true });
	});

	/**
	 * Every event the service sends: responses created and changed, a decline; the first sent twice
	 * (the variant's: the update).
	 * The variant's service writes each attempt anew and sends a response's created after its updated.
	 */
	const sendEvents = async (format: WebhookFormat, variant = false) => {
		fake.outgoingWebhooks.register({ url: captureUrl, format });
		if (variant)
			fake.outgoingWebhooks.faults.inject({
				event: 'response_created',
				fault: { kind: 'reorder' },
			});
		fake.outgoingWebhooks.faults.inject({
			fault: { kind: 'duplicate', copy: 'afterAnswer', freshTimestamp: variant },
		});
		const user = createEndUser(fake.account, fake.store, 'captured@example.com', {
			properties: { plan: 'pro' },
		});
		const response = addResponse(fake.account, fake.store, { endUserId: user.id, score: 3 });
		changeResponse(fake.account, fake.store, response.id, { text: 'Slow' }, fake.clock.now() + 5);
		addDecline(fake.account, fake.store, { endUserId: user.id });
		await fake.outgoingWebhooks.settled();
	};
	it('stores each delivery raw, signature checked, and finds no difference in what the fake sends', async () => {
		await sendEvents('form');

		const captured = readCaptured(folder);
		expect(readdirSync(folder)).toHaveLength(4);
		expect(captured.map(({ signature }) => signature)).toEqual(Array(4).fill('valid'));
		expect(JSON.parse(readFileSync(join(folder, readdirSync(folder)[0]), 'utf8')).body).toBe(
			fake.outgoingWebhooks.deliveries[0].body,
		);
		const lines = analyseDeliveries(captured);
		expect(lines.filter(({ verdict }) => verdict === 'differs')).toEqual([]);
		expect(lines.filter(({ verdict }) => verdict === 'confirmed').length).toBeGreaterThan(6);
	});

	it('reports a JSON webhook, a timestamp that changes per attempt and an updated before its created, and nothing else', async () => {
		await sendEvents('json', true);

		const lines = analyseDeliveries(readCaptured(folder));
		expect(
			lines.filter(({ verdict }) => verdict === 'differs').map(({ subject }) => subject),
		).toEqual([
			'the body is form-encoded with bracket keys',
			'a repeated delivery carries its first timestamp',
			'a response’s created arrives before its updated',
		]);
	});
});
