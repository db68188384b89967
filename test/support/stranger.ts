import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a StrangerServer received: the request as it came, body included. */
export interface StrangerRequest {
	method?: string;
	url?: string;
	headers: IncomingHttpHeaders;
	body: string;
}

/**
 * A host that is not Wootric's: it records every request it gets, body included, and answers 200
 * `{}`. Reached as http://127.0.0.1:<port>, or, `spelled: 'localhost'`, as http://localhost:<port>:
 * another host name for n8n's `allowedDomains`, which compares names, not addresses.
 */
export class StrangerServer {
	readonly requests: StrangerRequest[] = [];
	private readonly server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const { method, url, headers } = request;
			this.requests.push({ method, url, headers, body: Buffer.concat(chunks).toString() });
			response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});
	url = '';

	async listen({
		spelled = '127.0.0.1',
	}: { spelled?: '127.0.0.1' | 'localhost' } = {}): Promise<this> {
		// localhost may resolve to ::1 or to 127.0.0.1: both are listened on then.
		const address = spelled === 'localhost' ? '::' : '127.0.0.1';
		await new Promise<void>((resolve) => this.server.listen(0, address, resolve));
		this.url = `http://${spelled}:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	async close(): Promise<void> {
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}
