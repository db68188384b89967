import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Fields = Record<string, unknown>;

export interface TicketUpdate {
	receivedAt: string;
	/** The JSON body of the PATCH. */
	fields: Fields;
	idempotencyKey?: string;
}

export interface Ticket {
	id: number;
	openedAt: string;
	/** The JSON body the ticket was opened with, each update merged in. */
	fields: Fields;
	/** The Idempotency-Key header it was opened with. */
	idempotencyKey?: string;
	/** Each PATCH that changed it, in order. */
	updates: TicketUpdate[];
}

/** One request as the stand-in answered it, folded repeats included. */
export interface TicketRequest {
	method: string;
	path: string;
	idempotencyKey?: string;
	status: number;
	/** The ticket it opened, changed, or was folded into. */
	ticketId?: number;
	receivedAt: string;
}

/** What `npm run dev` prints as it happens. */
export type TicketChange =
	| { kind: 'opened'; ticket: Ticket }
	| { kind: 'updated'; ticket: Ticket; update: TicketUpdate }
	/** A request whose Idempotency-Key was used already: nothing opened or changed. */
	| { kind: 'repeat'; ticket: Ticket; request: TicketRequest };

const UPDATE_PATH = /^\/tickets\/by-response\/([^/]+)$/;

/**
 * Where the stand-in takes reports, beside `/tickets`: scripts/e2e/workflow-files.ts points the
 * examples' report URLs here.
 */
export const REPORTS_PATH = '/reports';
const REPORT_PATH = new RegExp(`^${REPORTS_PATH}/[^/]+$`);

/** A report an example posted, as received. */
export interface Report {
	/** Its path, `/reports/<name>`. */
	path: string;
	/** The JSON body. */
	body: Fields;
	receivedAt: string;
}

/**
 * A tiny stand-in for a ticket system, on 127.0.0.1, as the example workflows use one:
 * - `POST /tickets` (JSON) opens a ticket: 201 with it.
 * - `PATCH /tickets/by-response/<Wootric response id>` (JSON) merges the fields into the ticket
 *   opened for that response (its `wootric_response_id`) and keeps the update: 200 with the ticket;
 *   404 when none is open for it (yet).
 * - A request whose `Idempotency-Key` header was used already on the same method and path changes
 *   nothing and answers 200 with the ticket it went to, as ticket systems fold a request sent again.
 * - `GET /tickets` lists them.
 * - `POST /reports/<name>` (JSON) keeps the body as a report: 201 with it. Examples that send a
 *   report (rather than open a ticket) post it here.
 */
export class TicketServer {
	readonly tickets: Ticket[] = [];
	readonly requests: TicketRequest[] = [];
	readonly reports: Report[] = [];
	url = '';
	/** How long each write takes to answer, as a real ticket system's would. */
	delayMs = 0;
	/** By method, path and Idempotency-Key: the ticket each keyed request went to. */
	private readonly byIdempotencyKey = new Map<string, Ticket>();
	private readonly server: Server;

	constructor(private readonly onChange: (change: TicketChange) => void = () => {}) {
		this.server = createServer((request, response) => void this.handle(request, response));
	}

	async listen(port = 0): Promise<this> {
		this.server.listen(port, '127.0.0.1');
		await once(this.server, 'listening');
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/tickets`;
		return this;
	}

	/** The tickets opened for a Wootric response. */
	forResponse(responseId: number | string): Ticket[] {
		return this.tickets.filter(
			(ticket) => String(ticket.fields.wootric_response_id) === String(responseId),
		);
	}

	/**
	 * The requests that opened, changed or were folded into a ticket of a Wootric response, and the
	 * updates of it that found no ticket, in the order received.
	 */
	requestsFor(responseId: number): TicketRequest[] {
		const ticketIds = new Set(this.forResponse(responseId).map((ticket) => ticket.id));
		const updatePath = `/tickets/by-response/${responseId}`;
		return this.requests.filter(
			(request) =>
				(request.ticketId !== undefined && ticketIds.has(request.ticketId)) ||
				request.path === updatePath,
		);
	}

	clear(): void {
		this.tickets.length = 0;
		this.requests.length = 0;
		this.reports.length = 0;
		this.byIdempotencyKey.clear();
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		this.server.close();
		await once(this.server, 'close');
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const method = request.method ?? 'GET';
		const path = new URL(request.url ?? '/', 'http://tickets').pathname;
		const header = request.headers['idempotency-key'];
		// n8n sends an expression that came out empty as an empty header.
		const idempotencyKey = typeof header === 'string' && header !== '' ? header : undefined;
		const reply = (status: number, body: unknown, ticket?: Ticket) => {
			const logged: TicketRequest = {
				method,
				path,
				...(idempotencyKey === undefined ? {} : { idempotencyKey }),
				status,
				...(ticket ? { ticketId: ticket.id } : {}),
				receivedAt: new Date().toISOString(),
			};
			this.requests.push(logged);
			response.writeHead(status, { 'content-type': 'application/json' });
			response.end(JSON.stringify(body));
			return logged;
		};

		const updateOf = UPDATE_PATH.exec(path)?.[1];
		const reports = method === 'POST' && REPORT_PATH.test(path);
		const writes =
			reports || (method === 'POST' ? path === '/tickets' : method === 'PATCH' && !!updateOf);
		if (method === 'GET' && path === '/tickets') return void reply(200, this.tickets);
		if (!writes) return void reply(404, { error: `no ${method} ${path}` });
		let fields: Fields;
		try {
			fields = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Fields;
		} catch {
			return void reply(400, { error: 'the body must be JSON' });
		}
		if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
		if (reports) {
			const report: Report = { path, body: fields, receivedAt: new Date().toISOString() };
			this.reports.push(report);
			return void reply(201, report);
		}

		const keyed = idempotencyKey === undefined ? undefined : `${method} ${path} ${idempotencyKey}`;
		const folded = keyed === undefined ? undefined : this.byIdempotencyKey.get(keyed);
		if (folded) {
			const logged = reply(200, folded, folded);
			return this.onChange({ kind: 'repeat', ticket: folded, request: logged });
		}
		if (updateOf === undefined) {
			const ticket: Ticket = {
				id: this.tickets.length + 1,
				openedAt: new Date().toISOString(),
				fields,
				...(idempotencyKey === undefined ? {} : { idempotencyKey }),
				updates: [],
			};
			this.tickets.push(ticket);
			this.remember(keyed, ticket);
			reply(201, ticket, ticket);
			return this.onChange({ kind: 'opened', ticket });
		}
		const [ticket] = this.forResponse(decodeURIComponent(updateOf));
		if (!ticket) return void reply(404, { error: `no ticket for Wootric response ${updateOf}` });
		const update: TicketUpdate = {
			receivedAt: new Date().toISOString(),
			fields,
			...(idempotencyKey === undefined ? {} : { idempotencyKey }),
		};
		ticket.updates.push(update);
		Object.assign(ticket.fields, fields);
		this.remember(keyed, ticket);
		reply(200, ticket, ticket);
		this.onChange({ kind: 'updated', ticket, update });
	}

	private remember(keyed: string | undefined, ticket: Ticket): void {
		if (keyed !== undefined) this.byIdempotencyKey.set(keyed, ticket);
	}
}
