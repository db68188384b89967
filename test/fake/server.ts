import {
	createServer,
	type IncomingMessage,
	type RequestListener,
	type Server,
	type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

import { authenticate, issueToken } from './auth';
import { parseBracketParams, type ParamObject } from './brackets';
import { FakeClock } from './clock';
import { ApiError, notFound } from './errors';
import { FAKE_ADMIN_PREFIX, fakeAdminRoutes } from './fake-admin';
import { FaultInjector, type Fault } from './faults';
import type { FakeRequest, Reply, UploadedFile } from './http';
import type { TieOrder } from './listing';
import { OutgoingWebhooks } from './outgoing-webhooks';
import { RateLimiter } from './rate-limits';
import { allRoutes } from './resources';
import { runDeletions } from './resources/end-users';
import { Router, routeKey } from './router';
import { FakeStore, type Account, type Region } from './store';

export interface FakeWootricOptions {
	region?: Region;
	/** Default 7200 s, as the service. */
	tokenLifetimeSeconds?: number;
	/** The default account's UTC offset in minutes (default -480, like the service's examples). */
	utcOffsetMinutes?: number;
	/** The default account in Rails' UTC zone: datetimes print `… UTC`. */
	railsUtc?: boolean;
	/** Serve HTTPS with this key and certificate (PEM), as the service does; plain HTTP without. */
	tls?: { key: string; cert: string };
}

/** Credentials that work against a fresh instance. */
export interface FakeCredentials {
	email: string;
	password: string;
	accountToken: string;
	clientId: string;
	clientSecret: string;
	/** The secret token the account's outgoing webhooks are signed with. */
	webhookSecret: string;
}

const ACCOUNT_TOKEN_PREFIX: Record<Region, string> = { us: 'NPS-', eu: 'NPS-EU-', au: 'NPS-AU-' };

/**
 * A fake of the Wootric API on 127.0.0.1 (an ephemeral port): in memory, with a request log,
 * fault injection and rate limits for tests, and the account's outgoing webhooks. Its own calls
 * (fake-admin.ts, under /_fake/) register webhook URLs and answer surveys from another process.
 * Start several for several regions.
 */
export class FakeWootric {
	/** Every instance started in this test file, for the secret guard. */
	static readonly started: FakeWootric[] = [];

	readonly clock = new FakeClock();
	readonly store: FakeStore;
	readonly faults = new FaultInjector();
	readonly rateLimits = new RateLimiter(this.clock);
	/** Every request received, in order, with the status it got. */
	readonly requests: FakeRequest[] = [];
	/**
	 * Called as each request arrives, before it is handled: lets a test change the world mid-run. With
	 * the port the request came from, which tells it from another one alike (test/support/sent-at.ts).
	 */
	readonly arrivalHooks: Array<(request: FakeRequest, clientPort?: number) => void> = [];
	/**
	 * Called with each successful answer's body before it is sent: lets a test show a record the way
	 * a broken service would.
	 */
	readonly replyHooks: Array<(request: FakeRequest, body: unknown) => void> = [];
	/** Called once each request is answered, its status set: lets a watcher see what a client got. */
	readonly answeredHooks: Array<(request: FakeRequest) => void> = [];
	/** How long each answer takes, as over a real network (0: at once). */
	latencyMs = 0;
	/** The most requests this fake was handling at one time. */
	mostAtOnce = 0;
	/** How lists order records that share their sort value (see TieOrder). */
	tieOrder: TieOrder = 'reversed';
	/**
	 * Whether response and decline lists take the `updated` filter and sort_key, as the spec's newer
	 * variant of the API does. false: an older variant without that index, which accepts both and
	 * ignores them (API-FACTS), listing by created_at.
	 */
	updatedIndex = true;
	private handling = 0;
	readonly account: Account;
	readonly credentials: FakeCredentials;
	/** The default account's outgoing webhooks, signed with `credentials.webhookSecret`. */
	readonly outgoingWebhooks: OutgoingWebhooks;
	private readonly router = new Router(allRoutes);
	private readonly fakeAdminRouter = new Router(fakeAdminRoutes);
	private readonly server: Server;
	private readonly sockets = new Set<Socket>();
	private readonly scheme: 'http' | 'https';
	baseUrl = '';

	constructor(options: FakeWootricOptions = {}) {
		const region = options.region ?? 'us';
		this.store = new FakeStore(region, this.clock, options.tokenLifetimeSeconds);
		this.account = this.store.addAccount({
			token: `${ACCOUNT_TOKEN_PREFIX[region]}0a1b2c3d`,
			utcOffsetMinutes: options.utcOffsetMinutes ?? -480,
			railsUtc: options.railsUtc,
		});
		this.credentials = {
			email: `owner@${region}.example.com`,
			password: 'correct horse battery staple',
			accountToken: this.account.token,
			clientId: `client-${region}`,
			clientSecret: 'client-secret-value',
			webhookSecret: `whsec-${region}-5f0c2a9e`,
		};
		this.outgoingWebhooks = new OutgoingWebhooks(
			this.account,
			this.clock,
			this.credentials.webhookSecret,
		);
		this.store.logins.push({
			email: this.credentials.email,
			password: this.credentials.password,
			accountTokens: [this.account.token],
		});
		this.store.clients.push({
			clientId: this.credentials.clientId,
			clientSecret: this.credentials.clientSecret,
			accountToken: this.account.token,
		});
		// Whatever goes wrong outside the answer itself (e.g. the client aborts mid-body) closes that
		// connection only.
		const listener: RequestListener = (incoming, outgoing) =>
			void this.handle(incoming, outgoing).catch(() => outgoing.destroy());
		this.server = options.tls ? createTlsServer(options.tls, listener) : createServer(listener);
		this.scheme = options.tls ? 'https' : 'http';
		// A TLS server's connection event is the TCP socket, as a plain one's.
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
	}

	async listen(port = 0): Promise<this> {
		FakeWootric.started.push(this);
		await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
		this.baseUrl = `${this.scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	async close(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	/** The logged requests to one path (exact), optionally of one method. */
	requestsTo(path: string, method?: string): FakeRequest[] {
		return this.requests.filter(
			(request) => request.path === path && (!method || request.method === method),
		);
	}

	/** Data requests only (not the token endpoint). */
	apiRequests(): FakeRequest[] {
		return this.requests.filter((request) => request.path !== '/oauth/token');
	}

	private async handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
		const { request, bodyError } = await readRequest(incoming);
		// The fake's own calls are not the API's: no log, hooks, latency, faults, auth or rate limits.
		if (request.path.startsWith(FAKE_ADMIN_PREFIX)) return this.answerFakeAdmin(request, outgoing);
		this.requests.push(request);
		this.mostAtOnce = Math.max(this.mostAtOnce, ++this.handling);
		try {
			for (const hook of this.arrivalHooks) hook(request, incoming.socket.remotePort);
			if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
			await this.answer(request, bodyError, outgoing);
		} finally {
			this.handling--;
		}
		for (const hook of this.answeredHooks) hook(request);
	}

	private async answer(
		request: FakeRequest,
		bodyError: ApiError | undefined,
		outgoing: ServerResponse,
	): Promise<void> {
		let fault = this.faults.take(request);
		if (fault?.kind === 'held') {
			await fault.released;
			fault = undefined;
		}
		let mangle: ((body: unknown) => unknown) | undefined;
		if (fault?.kind === 'mangle') {
			mangle = fault.mangle;
			fault = undefined;
		}
		// Every answer is dated by the service's own clock, as HTTP servers do: clients read the time
		// from it.
		outgoing.setHeader('Date', new Date(this.clock.nowMs()).toUTCString());
		if (fault) return sendFault(fault, request, outgoing, this.clock);
		let headers: Record<string, string> = {};
		try {
			const reply = await this.dispatch(
				request,
				bodyError,
				(limitHeaders) => (headers = limitHeaders),
			);
			for (const hook of this.replyHooks) hook(request, reply.body);
			send(outgoing, request, mangle ? { ...reply, body: mangle(reply.body) } : reply, headers);
		} catch (error) {
			sendError(outgoing, request, error, headers);
		}
	}

	private async answerFakeAdmin(request: FakeRequest, outgoing: ServerResponse): Promise<void> {
		try {
			const found = this.fakeAdminRouter.match(request.method, request.path);
			if (!found) throw notFound();
			request.route = routeKey(found.route);
			const reply = await found.route.handler({
				request,
				pathParams: found.pathParams,
				account: this.account,
				store: this.store,
				outgoingWebhooks: this.outgoingWebhooks,
			});
			send(outgoing, request, reply, {});
		} catch (error) {
			sendError(outgoing, request, error, {});
		}
	}

	private async dispatch(
		request: FakeRequest,
		bodyError: ApiError | undefined,
		setHeaders: (headers: Record<string, string>) => void,
	): Promise<Reply> {
		if (request.path === '/oauth/token') {
			if (request.method !== 'POST') throw notFound();
			request.route = 'POST /oauth/token';
			if (bodyError) throw bodyError;
			return issueToken(this.store, request);
		}
		const found = this.router.match(request.method, request.path);
		if (!found) throw notFound();
		request.route = routeKey(found.route);
		const account = authenticate(this.store, request);
		setHeaders(this.rateLimits.consume(request.route, account.token));
		if (bodyError) throw bodyError;
		runDeletions(account, this.clock.now());
		return found.route.handler({
			request,
			pathParams: found.pathParams,
			account,
			store: this.store,
			tieOrder: this.tieOrder,
			updatedIndex: this.updatedIndex,
		});
	}
}

export async function startFakeWootric(options: FakeWootricOptions = {}): Promise<FakeWootric> {
	return new FakeWootric(options).listen();
}

/**
 * The request for the log; a body that does not parse as its Content-Type says comes back as the
 * 400 to answer.
 */
async function readRequest(
	incoming: IncomingMessage,
): Promise<{ request: FakeRequest; bodyError?: ApiError }> {
	const chunks: Buffer[] = [];
	for await (const chunk of incoming) chunks.push(chunk as Buffer);
	const raw = Buffer.concat(chunks);
	const url = new URL(incoming.url ?? '/', 'http://fake');
	const contentType = incoming.headers['content-type'] ?? '';
	const query = parseBracketParams(url.searchParams);
	let parsed: { body: ParamObject; files: UploadedFile[] } = { body: {}, files: [] };
	let bodyError: ApiError | undefined;
	try {
		parsed = await parseBody(raw, contentType);
	} catch {
		bodyError = new ApiError(
			400,
			'bad_request',
			`The request body is not valid ${contentType.split(';')[0]}`,
		);
	}
	const request: FakeRequest = {
		method: incoming.method ?? 'GET',
		path: url.pathname,
		rawQuery: url.search.slice(1),
		rawBody: raw.toString('utf8'),
		headers: incoming.headers,
		query,
		body: parsed.body,
		params: { ...query, ...parsed.body },
		files: parsed.files,
	};
	return { request, bodyError };
}

/**
 * Form bodies only, url-encoded or multipart, as the service takes them; other bodies carry no
 * parameters.
 */
async function parseBody(
	raw: Buffer,
	contentType: string,
): Promise<{ body: ParamObject; files: UploadedFile[] }> {
	if (contentType.startsWith('application/x-www-form-urlencoded')) {
		return { body: parseBracketParams(new URLSearchParams(raw.toString('utf8'))), files: [] };
	}
	if (contentType.startsWith('multipart/form-data')) {
		const form = await new Response(new Uint8Array(raw), {
			headers: { 'content-type': contentType },
		}).formData();
		const fields: Array<[string, string]> = [];
		const files: UploadedFile[] = [];
		for (const [field, value] of form.entries()) {
			if (typeof value === 'string') fields.push([field, value]);
			else
				files.push({
					field,
					filename: value.name,
					contentType: value.type,
					content: await value.text(),
				});
		}
		return { body: parseBracketParams(fields), files };
	}
	return { body: {}, files: [] };
}

function send(
	outgoing: ServerResponse,
	request: FakeRequest,
	reply: Reply,
	headers: Record<string, string>,
): void {
	request.status = reply.status;
	const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
	outgoing.writeHead(reply.status, {
		...headers,
		...(text ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
	});
	outgoing.end(text);
}

/** An ApiError as the service shows it; anything else is a 500. */
function sendError(
	outgoing: ServerResponse,
	request: FakeRequest,
	error: unknown,
	headers: Record<string, string>,
): void {
	const shown =
		error instanceof ApiError ? error : new ApiError(500, 'internal_error', String(error));
	send(
		outgoing,
		request,
		{ status: shown.status, body: shown.body },
		{ ...headers, ...shown.headers },
	);
}

function sendFault(
	fault: Exclude<Fault, { kind: 'held' | 'mangle' }>,
	request: FakeRequest,
	outgoing: ServerResponse,
	clock: FakeClock,
): void {
	switch (fault.kind) {
		case 'status':
			return send(
				outgoing,
				request,
				{
					status: fault.status,
					body: new ApiError(fault.status, 'server_error', fault.message ?? 'Something went wrong')
						.body,
				},
				{},
			);
		case 'rateLimited': {
			const reset = String(Math.ceil(clock.nowMs() / 1000 + fault.resetInSeconds));
			const limitHeaders = {
				'X-Rate-Limit-Limit': '100',
				'X-Rate-Limit-Remaining': '0',
				'X-Rate-Limit-Reset': reset,
			};
			return send(
				outgoing,
				request,
				{ status: 429, body: new ApiError(429, 'rate_limit_exceeded', 'Rate limit exceeded').body },
				limitHeaders,
			);
		}
		case 'unauthorized':
			return send(
				outgoing,
				request,
				{
					status: 401,
					body: new ApiError(401, 'unauthorized', 'The access token is invalid').body,
				},
				{},
			);
		case 'malformedJson':
		case 'answer':
			request.status = 200;
			outgoing.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
			outgoing.end(fault.kind === 'answer' ? fault.body : '{"id": 1, "score": ');
			return;
		case 'hang':
			request.status = 0;
			return;
		case 'dropConnection':
			request.status = 0;
			outgoing.socket?.destroy();
			return;
		case 'redirect':
			request.status = fault.status;
			outgoing.writeHead(fault.status, { Location: fault.location });
			outgoing.end();
			return;
	}
}
