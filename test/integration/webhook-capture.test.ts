import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MAX_BODY_BYTES } from '../../nodes/Wootric/webhook/delivery';

import { analyseDeliveries } from '../../scripts/live/webhook-analysis';
import {
	readCaptured,
	startWebhookCapture,
	type CapturedDelivery,
} from '../../scripts/live/webhook-capture';
import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	FakeWootric,
	startFakeWootric,
	type WebhookFormat,
} from '../fake';
import { encodeWebhook, responsePayload } from '../fake/webhook-body';

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

/**
 * The capture against a sender that is not the service: an upload cut off, a body over the
 * trigger's own limit, and a folder from an earlier capture with a gap in its numbering.
 */
describe('the webhook capture, against what is not a delivery', () => {
	let folder: string;
	let capture: Awaited<ReturnType<typeof startWebhookCapture>>;

	beforeEach(() => {
		folder = mkdtempSync(join(tmpdir(), 'webhook-capture-'));
	});
	afterEach(async () => {
		await capture?.close();
		rmSync(folder, { recursive: true, force: true });
	});
	const start = async () => {
		capture = await startWebhookCapture({ folder, secret: 'the-secret' });
	};
	const deliver = async (body: RequestInit['body']) =>
		(
			await fetch(`${capture.url}/wootric`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body,
				duplex: 'half',
			} as RequestInit)
		).status;

	it('an upload cut off is not stored, and the capture goes on', async () => {
		await start();
		const rejections: unknown[] = [];
		const record = (reason: unknown) => rejections.push(reason);
		process.on('unhandledRejection', record);
		try {
			await new Promise<void>((resolve) => {
				const upload = request(`${capture.url}/wootric`, {
					method: 'POST',
					headers: { 'content-length': '1000' },
				});
				upload.on('error', () => resolve());
				upload.write('response[id]=', () => setTimeout(() => upload.destroy(), 50));
			});
			await new Promise((resolve) => setTimeout(resolve, 100));

			expect(await deliver('response[id]=7')).toBe(200);
			expect(rejections).toEqual([]);
			expect(readCaptured(folder).map(({ body }) => body)).toEqual(['response[id]=7']);
		} finally {
			process.off('unhandledRejection', record);
		}
	});

	it(`a body over the Webhook Trigger's limit (${MAX_BODY_BYTES / 1024} KB) is refused 413 and not stored, said in advance or not`, async () => {
		await start();
		const over = 'x'.repeat(MAX_BODY_BYTES + 1);

		expect(await deliver(over)).toBe(413);
		// Chunked: no Content-Length to refuse it by before reading.
		expect(await deliver(new Blob([over]).stream())).toBe(413);
		expect(await deliver('x'.repeat(MAX_BODY_BYTES))).toBe(200);
		expect(readCaptured(folder).map(({ body }) => body.length)).toEqual([MAX_BODY_BYTES]);
	});

	it('restarted on a folder with a gap in its numbering, stores after the last and overwrites none', async () => {
		const earlier = (body: string) => `${JSON.stringify({ body })}\n`;
		writeFileSync(join(folder, '00001.json'), earlier('first'));
		writeFileSync(join(folder, '00003.json'), earlier('third'));
		await start();

		expect(await deliver('response[id]=7')).toBe(200);

		expect(readdirSync(folder)).toEqual(['00001.json', '00003.json', '00004.json']);
		expect(readCaptured(folder).map(({ body }) => body)).toEqual([
			'first',
			'third',
			'response[id]=7',
		]);
	});
});

/**
 * The analysis of a long capture: 200,000 deliveries of one event (a sender's retries, or copies)
 * read in seconds, every line written.
 */
it('the webhook analysis of 200,000 deliveries of one event: every line, in seconds', () => {
	const fake = new FakeWootric();
	const user = createEndUser(fake.account, fake.store, 'many@example.com');
	const response = addResponse(fake.account, fake.store, { endUserId: user.id, score: 3 });
	const sentAt = fake.clock.now();
	const { body, contentType } = encodeWebhook(
		responsePayload(fake.account, response, 'created', sentAt),
		'form',
	);
	const delivery: CapturedDelivery = {
		receivedAt: sentAt * 1000 + 1_000,
		method: 'POST',
		path: '/wootric',
		headers: { 'content-type': contentType },
		body,
		signature: 'valid',
	};
	const started = Date.now();

	const lines = analyseDeliveries(Array<CapturedDelivery>(200_000).fill(delivery));

	expect(Date.now() - started).toBeLessThan(10_000);
	expect(lines.find(({ subject }) => subject === 'timestamp is the time of sending')).toEqual({
		subject: 'timestamp is the time of sending',
		verdict: 'confirmed',
		details: ['arrived 1 to 1 s after it'],
	});
	expect(
		lines.find(({ subject }) => subject === 'a repeated delivery carries its first timestamp'),
	).toEqual(expect.objectContaining({ verdict: 'confirmed', details: ['1 repeated events'] }));
});
