/**
 * `npm run capture:webhooks` (docs/maintainers/live-check.md): listens on a port for Wootric's
 * Outgoing Webhooks, checks each delivery's signature with the secret given (WOOTRIC_WEBHOOK_SECRET),
 * and stores it raw, headers and body, one JSON file a delivery, in a folder; answers 200. Point the
 * account's Outgoing Webhooks at it for an hour, then analyse the folder (webhook-analysis.ts). It
 * keeps no secret: the signature header is an HMAC of the body, not the secret.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { checkSignature } from '../../nodes/Wootric/webhook/signature';
import { optionOf } from './report';

/** One delivery as stored. */
export interface CapturedDelivery {
	/** When it arrived, ms since the epoch (this machine's clock). */
	receivedAt: number;
	method: string;
	path: string;
	/** Its headers, lower-cased, cookies and authorization left out. */
	headers: Record<string, string>;
	/** The body as sent, UTF-8. */
	body: string;
	/** X-Wootric-Signature checked with the secret: valid, missing, mismatch or unsupported algorithm. */
	signature: string;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/** Starts the capture; resolves once it listens, with its URL. */
export async function startWebhookCapture({
	port = 0,
	folder,
	secret,
}: {
	port?: number;
	folder: string;
	secret: string;
}): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
	mkdirSync(folder, { recursive: true });
	let stored = readdirSync(folder).filter((file) => file.endsWith('.json')).length;
	const server = createServer((request, response) => {
		void bodyOf(request).then((body) => {
			const delivery: CapturedDelivery = {
				receivedAt: Date.now(),
				method: request.method ?? '',
				path: request.url ?? '',
				headers: Object.fromEntries(
					Object.entries(request.headers)
						.filter(([name]) => name !== 'cookie' && name !== 'authorization')
						.map(([name, value]) => [name, String(value)]),
				),
				body: body.toString('utf8'),
				signature: checkSignature(body, request.headers['x-wootric-signature'], secret),
			};
			stored++;
			writeFileSync(
				join(folder, `${String(stored).padStart(5, '0')}.json`),
				`${JSON.stringify(delivery, null, 2)}\n`,
			);
			response.writeHead(200, { 'content-type': 'application/json' }).end('{"captured":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(port, resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		server,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** The deliveries stored in `folder`, in the order they arrived. */
export function readCaptured(folder: string): CapturedDelivery[] {
	return readdirSync(folder)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(readFileSync(join(folder, file), 'utf8')) as CapturedDelivery);
}

async function main(argv: string[]): Promise<void> {
	const secret = process.env.WOOTRIC_WEBHOOK_SECRET;
	if (!secret)
		throw new Error('Set WOOTRIC_WEBHOOK_SECRET to the secret token of Outgoing Webhooks');
	const folder = optionOf(argv, '--out') ?? 'webhook-capture';
	const capture = await startWebhookCapture({
		port: Number(optionOf(argv, '--port') ?? 8123),
		folder,
		secret,
	});
	console.log(
		`Capturing Wootric's webhooks on ${capture.url} (any path) into ${folder}/; Ctrl+C to stop, then: npm run analyze:webhooks -- --in ${folder}`,
	);
	process.on('SIGINT', () => void capture.close().then(() => process.exit(0)));
}

if (require.main === module)
	main(process.argv.slice(2)).catch((error: unknown) => {
		console.error(`webhook capture: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(2);
	});
