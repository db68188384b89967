import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Ticket {
	id: number;
	receivedAt: string;
	/** The JSON body the workflow posted. */
	fields: Record<string, unknown>;
	/**
	 * The request's Idempotency-Key header: a ticket system opens one ticket per key, however often
	 * it is sent.
	 */
	idempotencyKey?: string;
}

/**
 * A tiny stand-in for a ticket system, on 127.0.0.1: `POST /tickets` with a JSON body opens a
 * ticket (201 with its id), `GET /tickets` lists them. The "New detractor → ticket" example posts
 * here.
 */
export class TicketServer {
	readonly tickets: Ticket[] = [];
	url = '';
	/** How long each answer takes, as a real ticket system's would. */
	delayMs = 0;
	private readonly server: Server;

	constructor(private readonly onTicket: (ticket: Ticket) => void = () => {}) {
		this.server = createServer((request, response) => void this.handle(request, response));
	}

	async listen(port = 0): Promise<this> {
		this.server.listen(port, '127.0.0.1');
		await once(this.server, 'listening');
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/tickets`;
		return this;
	}

	clear(): void {
		this.tickets.length = 0;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		this.server.close();
		await once(this.server, 'close');
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const reply = (status: number, body: unknown) => {
			response.writeHead(status, { 'content-type': 'application/json' });
			response.end(JSON.stringify(body));
		};
		if (new URL(request.url ?? '/', 'http://tickets').pathname !== '/tickets')
			return reply(404, { error: 'not found' });
		if (request.method === 'GET') return reply(200, this.tickets);
		if (request.method !== 'POST') return reply(405, { error: 'method not allowed' });
		let fields: Record<string, unknown>;
		try {
			fields = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
		} catch {
			return reply(400, { error: 'the body must be JSON' });
		}
		if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
		const key = request.headers['idempotency-key'];
		const ticket: Ticket = {
			id: this.tickets.length + 1,
			receivedAt: new Date().toISOString(),
			fields,
			...(typeof key === 'string' ? { idempotencyKey: key } : {}),
		};
		this.tickets.push(ticket);
		this.onTicket(ticket);
		reply(201, ticket);
	}
}
