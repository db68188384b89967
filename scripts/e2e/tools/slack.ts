import { bearerToken, FakeToolServer, record, type ToolAnswer, type ToolCall } from './fake-server';

export interface SlackMessage {
	type: 'message';
	/** `thread_broadcast` for a reply also sent to the channel. */
	subtype?: 'thread_broadcast';
	text: string;
	user: string;
	bot_id: string;
	ts: string;
	/** On a reply: its parent's ts. On a parent once replied to: its own ts. */
	thread_ts?: string;
	reply_count?: number;
	reply_users_count?: number;
	latest_reply?: string;
	reply_users?: string[];
	blocks?: unknown;
	attachments?: unknown;
}

export interface FakeSlackOptions {
	token?: string;
	channel?: { id: string; name: string };
	/** Slack's rate limits (RATE_LIMITS); on unless false. */
	rateLimits?: boolean;
}

/**
 * Slack's rate limits where the examples meet them, each answered as Slack does: HTTP 429,
 * `Retry-After` (seconds), `{ok:false, error:"ratelimited"}`. Tier 3 methods take 50 calls a
 * minute (a workspace's app, each method on its own: "50+"); chat.postMessage one message a second
 * to a channel ("short bursts" allowed beyond it are not modelled: this is the stricter side).
 */
export const RATE_LIMITS = {
	tier3PerMinute: 50,
	tier3Methods: ['conversations.history', 'conversations.replies'],
	postMessageIntervalMs: 1_000,
};

/** chat.postMessage's limit on `text`, in characters. */
export const SLACK_TEXT_LIMIT = 40_000;

const BOT = { user: 'U0N8NBOT', botId: 'B0N8NBOT', team: 'T0WOOTRIC' };

/**
 * A model of Slack's Web API, as n8n's Slack node (V2, typeVersion 2.4, credential slackApi with a
 * bot token) calls it. It answers on `https://slack.com` through the TLS proxy (tls-proxy.ts; the
 * node's URLs are fixed). One channel.
 * - Bearer token (or a `token` argument); a bad one is HTTP 200 `{ok:false,error:"invalid_auth"}`,
 *   as every Slack error is a 200 with `ok:false`.
 * - Arguments come from the query and the body, JSON or form, as Slack reads them.
 * - `chat.postMessage` (channel, text, thread_ts, reply_broadcast; blocks/attachments kept);
 *   `msg_too_long` for a text over 40,000 characters (Slack's documented limit).
 * - `conversations.history` (channel, limit, cursor, oldest, latest, inclusive): the channel's
 *   top-level messages, newest first; replies are not in it unless broadcast.
 * - `conversations.replies` (channel, ts, limit, cursor, oldest, latest, inclusive): the parent,
 *   then its replies oldest first.
 * - `users.profile.get` (the credential test), `auth.test`.
 */
export class FakeSlack extends FakeToolServer {
	/** Every message, replies included, in the order posted. */
	readonly messages: SlackMessage[] = [];
	readonly token: string;
	readonly channel: { id: string; name: string };
	/** The last ts handed out, in microseconds: each new one is later. */
	private lastTs = 0;
	private readonly rateLimited: boolean;
	/** When each Tier 3 method was called in the last minute, and the channel last posted to. */
	private readonly calls = new Map<string, number[]>();
	private lastPostAt = -Infinity;
	/** The calls answered 429, by method. */
	readonly limited: Record<string, number> = {};

	constructor(options: FakeSlackOptions = {}) {
		super();
		this.token = options.token ?? 'xoxb-fake-bot-token';
		this.channel = options.channel ?? { id: 'C0DETRACT', name: 'detractors' };
		this.rateLimited = options.rateLimits !== false;
	}

	/** The credential n8n's slackApi needs. */
	get credential(): { accessToken: string } {
		return { accessToken: this.token };
	}

	get counts(): { messages: number; replies: number } {
		const replies = this.messages.filter((message) => isReply(message)).length;
		return { messages: this.messages.length, replies };
	}

	/** The channel's top-level messages, oldest first. */
	get parents(): SlackMessage[] {
		return this.messages.filter((message) => !isReply(message));
	}

	/** A thread's replies, oldest first. */
	repliesTo(ts: string): SlackMessage[] {
		return this.messages.filter((message) => isReply(message) && message.thread_ts === ts);
	}

	protected answer(call: ToolCall): ToolAnswer {
		const method = /^\/api\/([\w.]+)$/.exec(call.path)?.[1];
		if (call.bodyError !== undefined) return slackError('invalid_json');
		const args: Record<string, unknown> = { ...call.query, ...record(call.body) };
		const token = bearerToken(call.authorization) ?? args.token;
		if (token === undefined || token === '') return slackError('not_authed');
		if (token !== this.token) return slackError('invalid_auth');
		const limited = method === undefined ? undefined : this.rateLimit(method);
		if (limited) return limited;
		switch (method) {
			case 'auth.test':
				return ok({
					url: 'https://wootric-fake.slack.com/',
					team: 'Wootric Fake',
					user: 'n8n',
					team_id: BOT.team,
					user_id: BOT.user,
					bot_id: BOT.botId,
					is_enterprise_install: false,
				});
			case 'users.profile.get':
				return ok({ profile: { real_name: 'n8n', display_name: 'n8n', bot_id: BOT.botId } });
			case 'chat.postMessage':
				return this.post(args);
			case 'conversations.history':
				return this.history(args);
			case 'conversations.replies':
				return this.replies(args);
			default:
				return { status: 404, body: { ok: false, error: 'unknown_method' } };
		}
	}

	/** 429 with Retry-After when this call goes over RATE_LIMITS; else it counts. */
	private rateLimit(method: string): ToolAnswer | undefined {
		if (!this.rateLimited) return undefined;
		const now = Date.now();
		let waitMs = 0;
		if (RATE_LIMITS.tier3Methods.includes(method)) {
			const recent = (this.calls.get(method) ?? []).filter((at) => at > now - 60_000);
			this.calls.set(method, recent);
			if (recent.length >= RATE_LIMITS.tier3PerMinute) waitMs = recent[0] + 60_000 - now;
			else recent.push(now);
		} else if (method === 'chat.postMessage') {
			const next = this.lastPostAt + RATE_LIMITS.postMessageIntervalMs;
			if (now < next) waitMs = next - now;
			else this.lastPostAt = now;
		}
		if (waitMs <= 0) return undefined;
		this.limited[method] = (this.limited[method] ?? 0) + 1;
		return {
			status: 429,
			headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) },
			body: { ok: false, error: 'ratelimited' },
		};
	}

	private post(args: Record<string, unknown>): ToolAnswer {
		if (!this.isChannel(args.channel)) return slackError('channel_not_found');
		const text = typeof args.text === 'string' ? args.text : '';
		if (text === '' && args.blocks === undefined && args.attachments === undefined) {
			return slackError('no_text');
		}
		if (text.length > SLACK_TEXT_LIMIT) return slackError('msg_too_long');
		let threadTs: string | undefined;
		if (args.thread_ts !== undefined && args.thread_ts !== '') {
			const parent = this.messages.find((message) => message.ts === String(args.thread_ts));
			if (!parent) return slackError('thread_not_found');
			// A reply to a reply goes to the same thread.
			threadTs = parent.thread_ts ?? parent.ts;
		}
		const message: SlackMessage = {
			type: 'message',
			...(threadTs !== undefined && isTrue(args.reply_broadcast)
				? { subtype: 'thread_broadcast' as const }
				: {}),
			text,
			user: BOT.user,
			bot_id: BOT.botId,
			ts: this.nextTs(),
			...(threadTs === undefined ? {} : { thread_ts: threadTs }),
			...(args.blocks === undefined ? {} : { blocks: args.blocks }),
			...(args.attachments === undefined ? {} : { attachments: args.attachments }),
		};
		this.messages.push(message);
		if (threadTs !== undefined) this.noteReply(threadTs, message);
		return ok({ channel: this.channel.id, ts: message.ts, message });
	}

	/**
	 * Newest first. With `oldest` and no `latest`, Slack pages from `oldest` forward: a page is the
	 * `limit` messages just after `oldest` (still newest first within it), the next page the ones
	 * after those. n8n's node (2.4+) sorts the messages it gathered for that reason.
	 */
	private history(args: Record<string, unknown>): ToolAnswer {
		if (!this.isChannel(args.channel)) return slackError('channel_not_found');
		const limit = clampLimit(args.limit, 100, 999);
		const inWindow = this.messages.filter(
			(message) =>
				(!isReply(message) || message.subtype === 'thread_broadcast') &&
				withinWindow(message.ts, args),
		);
		const cursor = readCursor(args.cursor);
		if (cursor === null) return slackError('invalid_cursor');
		const forward = args.oldest !== undefined && args.latest === undefined;
		let page: SlackMessage[];
		let rest: SlackMessage[];
		if (forward) {
			const after = inWindow.filter(
				(message) => cursor === undefined || microseconds(message.ts) > cursor,
			);
			page = after.slice(0, limit);
			rest = after.slice(limit);
		} else {
			const before = inWindow
				.filter((message) => cursor === undefined || microseconds(message.ts) < cursor)
				.reverse();
			page = before.slice(0, limit);
			rest = before.slice(limit);
		}
		const last = page[page.length - 1];
		return ok({
			messages: (forward ? [...page].reverse() : page).map((message) => ({ ...message })),
			has_more: rest.length > 0,
			pin_count: 0,
			...(rest.length > 0 ? { response_metadata: { next_cursor: cursorAfter(last.ts) } } : {}),
		});
	}

	private replies(args: Record<string, unknown>): ToolAnswer {
		if (!this.isChannel(args.channel)) return slackError('channel_not_found');
		const asked = this.messages.find((message) => message.ts === String(args.ts ?? ''));
		if (!asked) return slackError('thread_not_found');
		const parent =
			asked.thread_ts === undefined ? asked : this.messages.find((m) => m.ts === asked.thread_ts)!;
		const limit = clampLimit(args.limit, 1000, 1000);
		const cursor = readCursor(args.cursor);
		if (cursor === null) return slackError('invalid_cursor');
		const thread = [
			parent,
			...this.repliesTo(parent.ts).filter((reply) => withinWindow(reply.ts, args)),
		];
		const remaining = thread.filter(
			(message) => cursor === undefined || microseconds(message.ts) > cursor,
		);
		const page = remaining.slice(0, limit);
		const more = remaining.length > page.length;
		return ok({
			messages: page.map((message) => ({ ...message })),
			has_more: more,
			...(more
				? { response_metadata: { next_cursor: cursorAfter(page[page.length - 1].ts) } }
				: {}),
		});
	}

	/** The channel by id, name or #name, as Slack takes it. */
	private isChannel(channel: unknown): boolean {
		const wanted = String(channel ?? '').replace(/^#/, '');
		return wanted === this.channel.id || wanted === this.channel.name;
	}

	private noteReply(threadTs: string, reply: SlackMessage): void {
		const parent = this.messages.find((message) => message.ts === threadTs)!;
		parent.thread_ts = parent.ts;
		parent.reply_count = this.repliesTo(threadTs).length;
		parent.reply_users = [...new Set([...(parent.reply_users ?? []), reply.user])];
		parent.reply_users_count = parent.reply_users.length;
		parent.latest_reply = reply.ts;
	}

	/** Now, or a microsecond after the last ts when two messages come in one microsecond. */
	private nextTs(): string {
		this.lastTs = Math.max(Date.now() * 1000, this.lastTs + 1);
		return slackTs(this.lastTs);
	}
}

function isReply(message: SlackMessage): boolean {
	return message.thread_ts !== undefined && message.thread_ts !== message.ts;
}

function ok(body: Record<string, unknown>): ToolAnswer {
	return { status: 200, body: { ok: true, ...body } };
}

function slackError(error: string): ToolAnswer {
	return { status: 200, body: { ok: false, error } };
}

function isTrue(value: unknown): boolean {
	return value === true || value === 'true' || value === '1' || value === 1;
}

function clampLimit(value: unknown, fallback: number, max: number): number {
	const limit = Number(value ?? fallback);
	return Number.isFinite(limit) && limit > 0 ? Math.min(Math.floor(limit), max) : fallback;
}

/** `<unix seconds>.<6 digits>` from microseconds. */
function slackTs(micros: number): string {
	return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
}

/** A ts or a timestamp argument (seconds, maybe fractional: n8n sends `ms / 1000`) in microseconds. */
function microseconds(ts: unknown): number {
	const [seconds, fraction = ''] = String(ts).split('.');
	return Number(seconds) * 1e6 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

/** oldest < ts < latest; `inclusive` takes the bounds in. */
function withinWindow(ts: string, args: Record<string, unknown>): boolean {
	const at = microseconds(ts);
	const inclusive = isTrue(args.inclusive);
	const oldest = args.oldest === undefined ? undefined : microseconds(args.oldest);
	const latest = args.latest === undefined ? undefined : microseconds(args.latest);
	if (oldest !== undefined && (inclusive ? at < oldest : at <= oldest)) return false;
	if (latest !== undefined && (inclusive ? at > latest : at >= latest)) return false;
	return true;
}

/** Opaque to clients, as Slack's: the ts of the page's last message. */
function cursorAfter(ts: string): string {
	return Buffer.from(`ts:${ts}`).toString('base64');
}

/** The ts a cursor continues from; undefined for none, null for a cursor this fake did not make. */
function readCursor(cursor: unknown): number | undefined | null {
	if (cursor === undefined || cursor === '') return undefined;
	const decoded = /^ts:(\d+\.\d{6})$/.exec(Buffer.from(String(cursor), 'base64').toString('utf8'));
	return decoded ? microseconds(decoded[1]) : null;
}
