/**
 * `npm run capture:webhooks` (docs/maintainers/live-check.md): listens on a port for Wootric's
 * Outgoing Webhooks, checks each delivery's signature with the secret given (WOOTRIC_WEBHOOK_SECRET),
 * and stores it raw, headers and body, one JSON file a delivery, in a folder; answers 200. Point the
 * account's Outgoing Webhooks at it for an hour, then analyse the folder (webhook-analysis.ts). It
 * keeps no secret: the signature header is an HMAC of the body, not the secret.
 *
 * It stays up whatever a sender does, and never overwrites a stored delivery. State: the number of
 * the last file stored (00001.json on), which starts after the highest in the folder; a file is
 * written only under a name no file has yet. A body is held in memory up to MAX_BODY_BYTES, the
 * Webhook Trigger's own limit: a larger one is refused 413 and not stored, an upload cut off is
 * dropped.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { MAX_BODY_BYTES } from '../../nodes/Wootric/webhook/delivery';
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

/**
 * The body, or undefined when it is over `limit` bytes (the rest is left unread); rejects when the
 * upload is cut off.
 */
function bodyOf(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
	return new Promise((resolve, reject) => {
		if (Number(request.headers['content-length']) > limit) return resolve(undefined);
		const chunks: Buffer[] = [];
		let size = 0;
		const read = (chunk: Buffer) => {
			size += chunk.length;
			if (size <= limit) chunks.push(chunk);
			else {
				request.off('data', read).pause();
				resolve(undefined);
			}
		};
		request.on('data', read);
		request.on('end', () => resolve(Buffer.concat(chunks)));
		request.on('error', reject);
		// After 'end' or a refusal this settles nothing: a promise settles once.
		request.on('close', () => reject(new Error('The upload was cut off')));
	});
}

const FILE_NAME = /^(\d+)\.json$/;

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
	let lastStored = readdirSync(folder).reduce(
		(highest, file) => Math.max(highest, Number(FILE_NAME.exec(file)?.[1] ?? 0)),
		0,
	);
	/** Writes `delivery` under the next number no file has. */
	const store = (delivery: CapturedDelivery) => {
		for (;;) {
			lastStored++;
			try {
				writeFileSync(
					join(folder, `${String(lastStored).padStart(5, '0')}.json`),
					`${JSON.stringify(delivery, null, 2)}\n`,
					{ flag: 'wx' },
				);
				return;
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			}
		}
	};
	const answer = (request: IncomingMessage, response: ServerResponse, body?: Buffer) => {
		if (body === undefined) {
			// Closing stops the rest of the upload.
			response
				.writeHead(413, { 'content-type': 'application/json', connection: 'close' })
				.end(`{"error":"The body is over ${MAX_BODY_BYTES / 1024} KB: not a delivery"}`);
			return;
		}
		store({
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
		});
		response.writeHead(200, { 'content-type': 'application/json' }).end('{"captured":true}');
	};
	const server = createServer((request, response) => {
		bodyOf(request, MAX_BODY_BYTES).then(
			(body) => answer(request, response, body),
			// Cut off: no one to answer, nothing to store.
			() => request.destroy(),
		);
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
