import { basicCredentials, FakeToolServer, record } from './fake-server';
import type { ToolAnswer, ToolCall } from './fake-server';

export interface ZendeskUser {
	id: number;
	name: string;
	email: string;
	role: 'admin' | 'end-user';
}

export interface ZendeskComment {
	id: number;
	author_id: number;
	/** Plain text (from html_body when that was sent). */
	body: string;
	html_body: string;
	public: boolean;
	created_at: string;
}

export interface ZendeskTicket {
	id: number;
	external_id: string | null;
	subject: string | null;
	/** The first comment's text. */
	description: string;
	status: string;
	priority: string | null;
	type: string | null;
	tags: string[];
	requester_id: number;
	submitter_id: number;
	created_at: string;
	updated_at: string;
	comments: ZendeskComment[];
	/** The `ticket` of the create request, as received. */
	createdWith: Record<string, unknown>;
}

export interface FakeZendeskOptions {
	subdomain?: string;
	email?: string;
	apiToken?: string;
}

const STATUSES = ['new', 'open', 'pending', 'hold', 'solved', 'closed'];
const NOT_FOUND: ToolAnswer = {
	status: 404,
	body: { error: 'RecordNotFound', description: 'Not found' },
};

/**
 * A model of Zendesk Support's ticket API, as n8n's Zendesk node (v1, credential zendeskApi) and the
 * HTTP Request node with that credential call it. It answers on `https://<subdomain>.zendesk.com`
 * through the TLS proxy (tls-proxy.ts; n8n's Zendesk URLs are always https on that host).
 * - Basic auth `<email>/token:<apiToken>`, else 401 `{error:"Couldn't authenticate you"}`.
 * - `GET /api/v2/ticket_fields.json` (the credential test).
 * - `POST /api/v2/tickets.json` `{ticket:{comment:{body|html_body}, subject, external_id, tags,
 *   requester:{name,email}, ...}}` → 201 `{ticket}`; 422 without a comment, and 422 to a requester
 *   email Zendesk does not take (`isEmailZendeskTakes`). A requester by email becomes an end user,
 *   the same one for the same email.
 * - `GET /api/v2/tickets.json[?external_id=]` (consistent, unlike search, which is not modelled),
 *   `GET /api/v2/tickets/{id}.json`, `GET /api/v2/tickets/{id}/comments.json`.
 * - `PUT /api/v2/tickets/{id}.json` `{ticket:{comment, additional_tags, remove_tags, tags, status,
 *   subject, external_id, ...}}` → `{ticket, audit}`; 422 on a closed ticket ("closed prevents
 *   ticket update": a closed ticket takes no change, a follow-up is opened instead with
 *   `via_followup_source_id`, kept as sent).
 * Tags are stored as Zendesk does: lower-cased, split at spaces, without repeats.
 */
export class FakeZendesk extends FakeToolServer {
	readonly tickets: ZendeskTicket[] = [];
	readonly users: ZendeskUser[] = [];
	readonly subdomain: string;
	readonly email: string;
	readonly apiToken: string;
	/** Every PUT that changed a ticket, in order. */
	readonly updates: Array<{ ticketId: number; ticket: Record<string, unknown> }> = [];
	private nextCommentId = 1000;

	constructor(options: FakeZendeskOptions = {}) {
		super();
		this.subdomain = options.subdomain ?? 'acme';
		this.email = options.email ?? 'agent@example.com';
		this.apiToken = options.apiToken ?? 'zendesk-api-token';
		// The credential's user: the author of what the API writes.
		this.users.push({ id: 1, name: 'n8n Agent', email: this.email, role: 'admin' });
	}

	get host(): string {
		return `${this.subdomain}.zendesk.com`;
	}

	/** The credential n8n's zendeskApi needs. */
	get credential(): { subdomain: string; email: string; apiToken: string } {
		return { subdomain: this.subdomain, email: this.email, apiToken: this.apiToken };
	}

	get counts(): { tickets: number; updates: number; comments: number } {
		return {
			tickets: this.tickets.length,
			updates: this.updates.length,
			comments: this.tickets.reduce((sum, ticket) => sum + ticket.comments.length, 0),
		};
	}

	withExternalId(externalId: string): ZendeskTicket[] {
		return this.tickets.filter((ticket) => ticket.external_id === externalId);
	}

	protected answer(call: ToolCall): ToolAnswer {
		const credentials = basicCredentials(call.authorization);
		if (credentials?.user !== `${this.email}/token` || credentials.password !== this.apiToken) {
			return { status: 401, body: { error: "Couldn't authenticate you" } };
		}
		if (call.bodyError !== undefined) {
			return { status: 400, body: { error: 'Unprocessable Entity', description: call.bodyError } };
		}
		const { method, path, query } = call;
		const sent = record(record(call.body)?.ticket);
		if (method === 'GET' && path === '/api/v2/ticket_fields.json') {
			return { status: 200, body: page('ticket_fields', TICKET_FIELDS) };
		}
		if (path === '/api/v2/tickets.json') {
			if (method === 'POST') return this.create(sent);
			if (method === 'GET') {
				const listed = this.tickets.filter(
					(ticket) => query.external_id === undefined || ticket.external_id === query.external_id,
				);
				return {
					status: 200,
					body: page(
						'tickets',
						listed.map((ticket) => this.json(ticket)),
					),
				};
			}
		}
		const one = /^\/api\/v2\/tickets\/(\d+)(\/comments)?\.json$/.exec(path);
		const ticket = one ? this.tickets.find((known) => known.id === Number(one[1])) : undefined;
		if (one && !ticket) return NOT_FOUND;
		if (ticket && one?.[2] && method === 'GET') {
			return { status: 200, body: page('comments', ticket.comments) };
		}
		if (ticket && !one?.[2] && method === 'GET') {
			return { status: 200, body: { ticket: this.json(ticket) } };
		}
		if (ticket && !one?.[2] && method === 'PUT') return this.update(ticket, sent);
		return { status: 404, body: { error: 'InvalidEndpoint', description: 'Not found' } };
	}

	private create(sent: Record<string, unknown> | undefined): ToolAnswer {
		const comment = sent && this.comment(sent.comment);
		if (!sent || !comment) {
			return invalid('description', 'Description: cannot be blank', 'BlankValue');
		}
		const problem = this.checkStatus(sent.status);
		if (problem) return problem;
		const requester = record(sent.requester);
		if (typeof requester?.email === 'string' && !isEmailZendeskTakes(requester.email)) {
			return invalid(
				'requester',
				`Requester: Email: ${requester.email} is not properly formatted`,
				'InvalidFormat',
			);
		}
		const requesterId =
			typeof requester?.email === 'string'
				? this.userFor(requester.email, String(requester.name ?? requester.email)).id
				: typeof sent.requester_id === 'number'
					? sent.requester_id
					: 1;
		const now = zendeskTime(new Date());
		const ticket: ZendeskTicket = {
			id: this.tickets.length + 1,
			external_id: sent.external_id === undefined ? null : String(sent.external_id),
			subject: typeof sent.subject === 'string' ? sent.subject : null,
			description: comment.body,
			status: typeof sent.status === 'string' ? sent.status : 'new',
			priority: typeof sent.priority === 'string' ? sent.priority : null,
			type: typeof sent.type === 'string' ? sent.type : null,
			tags: normaliseTags(sent.tags),
			requester_id: requesterId,
			submitter_id: 1,
			created_at: now,
			updated_at: now,
			comments: [comment],
			createdWith: sent,
		};
		this.tickets.push(ticket);
		return { status: 201, body: { ticket: this.json(ticket) } };
	}

	private update(ticket: ZendeskTicket, sent: Record<string, unknown> | undefined): ToolAnswer {
		if (!sent) return invalid('base', 'Ticket: cannot be blank', 'BlankValue');
		if (ticket.status === 'closed') {
			return invalid('status', 'Status: closed prevents ticket update', 'ClosedPreventsUpdate');
		}
		const comment = sent.comment === undefined ? undefined : this.comment(sent.comment);
		if (sent.comment !== undefined && !comment) {
			return invalid('base', 'Comment: cannot be blank', 'BlankValue');
		}
		const problem = this.checkStatus(sent.status);
		if (problem) return problem;
		const events: Array<Record<string, unknown>> = [];
		const previousTags = ticket.tags;
		// `tags` replaces the list; additional_tags and remove_tags change it.
		if (sent.tags !== undefined) ticket.tags = normaliseTags(sent.tags);
		const added = normaliseTags(sent.additional_tags);
		const removed = new Set(normaliseTags(sent.remove_tags));
		ticket.tags = normaliseTags([...ticket.tags, ...added]).filter((tag) => !removed.has(tag));
		if (ticket.tags.join(' ') !== previousTags.join(' ')) {
			events.push(change('tags', ticket.tags, previousTags));
		}
		for (const field of ['status', 'subject', 'external_id', 'priority', 'type'] as const) {
			if (sent[field] === undefined || sent[field] === ticket[field]) continue;
			events.push(change(field, sent[field], ticket[field]));
			(ticket as unknown as Record<string, unknown>)[field] = sent[field];
		}
		if (comment) {
			ticket.comments.push(comment);
			events.unshift({ type: 'Comment', ...comment });
		}
		ticket.updated_at = zendeskTime(new Date());
		this.updates.push({ ticketId: ticket.id, ticket: sent });
		const audit = {
			id: this.nextCommentId++,
			ticket_id: ticket.id,
			created_at: ticket.updated_at,
			author_id: 1,
			events,
		};
		return { status: 200, body: { ticket: this.json(ticket), audit } };
	}

	/** A comment from a `comment` object, or undefined when it has no text. */
	private comment(sent: unknown): ZendeskComment | undefined {
		const comment = record(sent);
		const html = typeof comment?.html_body === 'string' ? comment.html_body : undefined;
		const body = typeof comment?.body === 'string' ? comment.body : htmlToText(html ?? '');
		if (body.trim() === '') return undefined;
		return {
			id: this.nextCommentId++,
			author_id: 1,
			body,
			html_body: html ?? `<div class="zd-comment" dir="auto"><p>${escapeHtml(body)}</p></div>`,
			public: comment?.public !== false,
			created_at: zendeskTime(new Date()),
		};
	}

	private checkStatus(status: unknown): ToolAnswer | undefined {
		if (status === undefined || STATUSES.includes(String(status))) return undefined;
		return invalid('status', `Status: ${String(status)} is not valid`, 'InvalidValue');
	}

	private userFor(email: string, name: string): ZendeskUser {
		const known = this.users.find((user) => user.email.toLowerCase() === email.toLowerCase());
		if (known) return known;
		const user: ZendeskUser = { id: this.users.length + 1, name, email, role: 'end-user' };
		this.users.push(user);
		return user;
	}

	/** A ticket as the API shows it (its comments are a separate resource). */
	private json(ticket: ZendeskTicket) {
		const { comments, createdWith, ...shown } = ticket;
		return {
			url: `https://${this.host}/api/v2/tickets/${ticket.id}.json`,
			...shown,
			raw_subject: ticket.subject,
			assignee_id: null,
			group_id: null,
			custom_fields: [],
		};
	}
}

const TICKET_FIELDS = [
	{ id: 1, type: 'subject', title: 'Subject', active: true, required: true },
	{ id: 2, type: 'description', title: 'Description', active: true, required: true },
	{ id: 3, type: 'status', title: 'Status', active: true, required: false },
];

/** A list in Zendesk's offset-paginated shape; the test keeps lists short, so one page. */
function page(name: string, items: unknown[]) {
	return { [name]: items, next_page: null, previous_page: null, count: items.length };
}

function invalid(field: string, description: string, error: string): ToolAnswer {
	return {
		status: 422,
		body: {
			error: 'RecordInvalid',
			description: 'Record validation errors',
			details: { [field]: [{ description, error }] },
		},
	};
}

function change(field: string, value: unknown, previous: unknown) {
	return { type: 'Change', field_name: field, value, previous_value: previous };
}

/** Zendesk's tags: lower case, no spaces (a space splits a tag), no repeats. */
function normaliseTags(tags: unknown): string[] {
	const list = Array.isArray(tags) ? tags : typeof tags === 'string' ? [tags] : [];
	const words = list.flatMap((tag) => String(tag).toLowerCase().split(/\s+/));
	return [...new Set(words.filter((word) => word !== ''))];
}

/**
 * Whether this fake takes an email as a requester's. Zendesk refuses some emails (422, "is not
 * properly formatted") by a rule it does not publish; this stand-in refuses what RFC 5321 does not
 * take although Wootric's shape does (two dots in a row, a dot at either end of the local part), and
 * a domain without a dot or any space.
 */
export function isEmailZendeskTakes(email: string): boolean {
	const [local = '', domain = ''] = email.split('@');
	return (
		/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) &&
		!local.includes('..') &&
		!local.startsWith('.') &&
		!local.endsWith('.') &&
		!domain.includes('..')
	);
}

/** Zendesk's timestamps: `2024-03-01T12:34:56Z`. */
function zendeskTime(date: Date): string {
	return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function htmlToText(html: string): string {
	return html
		.replace(/<br\s*\/?>|<\/p>/gi, '\n')
		.replace(/<[^>]*>/g, '')
		.trim();
}

function escapeHtml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
