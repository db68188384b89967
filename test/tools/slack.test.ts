import { FakeSlack, type SlackMessage } from '../../scripts/e2e/tools/slack';
import { eachTest, send, type Answer } from './send';

interface Listed {
	ok: boolean;
	messages: SlackMessage[];
	has_more: boolean;
	response_metadata?: { next_cursor: string };
}

/**
 * The fake Slack Web API, over real HTTP (the proxy's part is tls-proxy.test.ts), sent what n8n's
 * Slack node V2 (Slack/V2/GenericFunctions.js slackApiRequest, SlackV2.node.js) sends at
 * typeVersion 2.4: JSON bodies with a charset, reads as GET with the arguments in the query.
 */
describe('FakeSlack', () => {
	let slack: FakeSlack;

	// The rate limits have their own test; the others post and read faster than they allow.
	eachTest(() => (slack = new FakeSlack({ rateLimits: false })));

	function headers(token = slack.token): Record<string, string> {
		return { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${token}` };
	}

	/** A write as the node sends it: POST, JSON body. */
	async function post<Body = Record<string, unknown>>(
		method: string,
		body: unknown,
		token?: string,
	) {
		return await send<Body>(`${slack.url}/api/${method}`, {
			method: 'POST',
			headers: headers(token),
			body,
		});
	}

	/** A read as the node sends it: GET, the arguments in the query (undefined ones left out). */
	async function get<Body = Record<string, unknown>>(
		method: string,
		query: Record<string, unknown>,
		token?: string,
	): Promise<Answer<Body>> {
		const search = new URLSearchParams();
		for (const [name, value] of Object.entries(query))
			if (value !== undefined) search.set(name, String(value));
		return await send<Body>(`${slack.url}/api/${method}?${search}`, { headers: headers(token) });
	}

	/** A read of the channel (conversations.history or .replies) as the node sends it. */
	async function read(method: string, query: Record<string, unknown>) {
		return await get<Listed>(`conversations.${method}`, { channel: slack.channel.id, ...query });
	}

	/** The node's message post to the channel, without the workflow link (includeLinkToWorkflow false). */
	async function postMessage(text: string, otherOptions: Record<string, unknown> = {}) {
		const { thread_ts: thread, ...rest } = otherOptions as {
			thread_ts?: { replyValues: Record<string, unknown> };
		};
		return await post<{
			ok: boolean;
			ts: string;
			channel: string;
			message: SlackMessage;
			error?: string;
		}>('chat.postMessage', {
			channel: slack.channel.id,
			text,
			...thread?.replyValues,
			includeLinkToWorkflow: false,
			...rest,
		});
	}

	it('answers the credential test and auth.test; a bad or missing token is HTTP 200 ok:false', async () => {
		const profile = await get('users.profile.get', {});
		const auth = await post('auth.test', {});
		const bad = await get('users.profile.get', {}, 'xoxb-wrong');
		const none = await send(`${slack.url}/api/users.profile.get`);

		expect(profile).toMatchObject({ status: 200, body: { ok: true, profile: {} } });
		expect(auth).toMatchObject({ status: 200, body: { ok: true, bot_id: expect.any(String) } });
		expect(bad).toEqual({ status: 200, body: { ok: false, error: 'invalid_auth' } });
		expect(none).toEqual({ status: 200, body: { ok: false, error: 'not_authed' } });
	});

	it('limits as Slack does: 429, Retry-After and ratelimited on a post to the channel within a second and the 51st Tier 3 call in a minute', async () => {
		slack = new FakeSlack();
		await slack.listen();
		/** The call as the node makes it, read raw for its Retry-After. */
		const raw = async (method: string, init: RequestInit) => {
			const answer = await fetch(`${slack.url}/api/${method}`, init);
			return {
				status: answer.status,
				retryAfter: answer.headers.get('retry-after'),
				body: (await answer.json()) as unknown,
			};
		};
		try {
			const first = await postMessage('first');
			const second = await raw('chat.postMessage', {
				method: 'POST',
				headers: headers(),
				body: JSON.stringify({ channel: slack.channel.id, text: 'second' }),
			});
			for (let call = 0; call < 50; call++) expect((await read('history', {})).body.ok).toBe(true);
			const over = await raw(`conversations.history?channel=${slack.channel.id}`, {
				headers: headers(),
			});
			const replies = await read('replies', { ts: first.body.ts });

			expect(first.body.ok).toBe(true);
			const limited = { status: 429, body: { ok: false, error: 'ratelimited' } };
			expect(second).toEqual({ ...limited, retryAfter: '1' });
			expect(over).toEqual({ ...limited, retryAfter: expect.stringMatching(/^(59|60)$/) });
			// Each method is limited on its own.
			expect(replies.body.ok).toBe(true);
			expect(slack.limited).toEqual({ 'chat.postMessage': 1, 'conversations.history': 1 });
			expect(slack.counts).toEqual({ messages: 1, replies: 0 });
		} finally {
			await slack.close();
		}
	});

	it('refuses a text over 40,000 characters (msg_too_long) and posts nothing', async () => {
		const fits = await postMessage('x'.repeat(40_000));
		const over = await postMessage('x'.repeat(40_001));

		expect(fits.body.ok).toBe(true);
		expect(over.body).toEqual({ ok: false, error: 'msg_too_long' });
		expect(slack.counts).toEqual({ messages: 1, replies: 0 });
	});

	it('posts as the node does: ok, the channel id, a ts strictly later each time, the message', async () => {
		const posted = await Promise.all(
			['a', 'b', 'c', 'd'].map(async (text) => await postMessage(text)),
		);
		const byName = await postMessage('by name', { channel: '#detractors' });

		expect(posted[0].body).toEqual({
			ok: true,
			channel: 'C0DETRACT',
			ts: expect.stringMatching(/^\d{10}\.\d{6}$/),
			message: expect.objectContaining({
				type: 'message',
				text: 'a',
				user: expect.any(String),
				bot_id: expect.any(String),
			}),
		});
		// In the order they arrived (the four at once may arrive in any order), each ts is later.
		const stamps = slack.messages.map((message) => message.ts);
		expect(stamps.every((ts, index) => index === 0 || Number(ts) > Number(stamps[index - 1]))).toBe(
			true,
		);
		expect(new Set([...posted, byName].map((answer) => answer.body.ts))).toEqual(new Set(stamps));
		expect(stamps).toHaveLength(5);
		expect(byName.body.channel).toBe('C0DETRACT');
		expect(slack.requests[0]).toMatchObject({
			method: 'POST',
			path: '/api/chat.postMessage',
			contentType: 'application/json; charset=utf-8',
			body: { channel: 'C0DETRACT', text: 'a', includeLinkToWorkflow: false },
		});
		expect(slack.counts).toEqual({ messages: 5, replies: 0 });
	});

	it('replies in a thread (otherOptions.thread_ts) in JSON or form; a ts of no message is thread_not_found', async () => {
		const parent = await postMessage('parent');
		const reply = await postMessage('reply', {
			thread_ts: { replyValues: { thread_ts: parent.body.ts, reply_broadcast: false } },
		});
		const form = await send<{ ok: boolean; message: SlackMessage }>(
			`${slack.url}/api/chat.postMessage`,
			{
				method: 'POST',
				headers: {
					authorization: `Bearer ${slack.token}`,
					'content-type': 'application/x-www-form-urlencoded',
				},
				body: new URLSearchParams({
					channel: 'C0DETRACT',
					text: 'form reply',
					thread_ts: parent.body.ts,
				}).toString(),
			},
		);
		const lost = await postMessage('lost', {
			thread_ts: { replyValues: { thread_ts: '1.000001' } },
		});
		const elsewhere = await postMessage('x', { channel: 'C0OTHER' });
		const empty = await postMessage('');

		expect(reply.body.message).toMatchObject({ text: 'reply', thread_ts: parent.body.ts });
		expect(form.body).toMatchObject({
			ok: true,
			message: { text: 'form reply', thread_ts: parent.body.ts },
		});
		expect(lost.body).toEqual({ ok: false, error: 'thread_not_found' });
		expect(elsewhere.body).toEqual({ ok: false, error: 'channel_not_found' });
		expect(empty.body).toEqual({ ok: false, error: 'no_text' });
		expect(slack.counts).toEqual({ messages: 3, replies: 2 });
		expect(slack.repliesTo(parent.body.ts).map((message) => message.text)).toEqual([
			'reply',
			'form reply',
		]);
	});

	it('reads the history as the node does (oldest as ms/1000): top-level only, newest first, parents with thread info', async () => {
		const before = (Date.now() - 1000) / 1000;
		const first = await postMessage('first');
		await postMessage('reply', { thread_ts: { replyValues: { thread_ts: first.body.ts } } });
		await postMessage('broadcast', {
			thread_ts: { replyValues: { thread_ts: first.body.ts, reply_broadcast: true } },
		});
		await postMessage('second');

		const history = await read('history', { oldest: before, limit: 50 });
		const later = await read('history', { oldest: first.body.ts, limit: 50 });
		const inclusive = await read('history', { oldest: first.body.ts, inclusive: true, limit: 50 });

		expect(history.body.ok).toBe(true);
		expect(history.body.messages.map((message) => message.text)).toEqual([
			'second',
			'broadcast',
			'first',
		]);
		expect(history.body.messages[2]).toMatchObject({
			thread_ts: first.body.ts,
			reply_count: 2,
			latest_reply: expect.any(String),
		});
		expect(history.body.has_more).toBe(false);
		expect(history.body.response_metadata).toBeUndefined();
		expect(later.body.messages.map((message) => message.text)).toEqual(['second', 'broadcast']);
		expect(inclusive.body.messages.map((message) => message.text)).toEqual([
			'second',
			'broadcast',
			'first',
		]);
		expect(slack.requests.at(-3)).toMatchObject({
			method: 'GET',
			query: { channel: 'C0DETRACT', limit: '50' },
			body: undefined,
		});
	});

	it('pages the history as returnAll does (page, limit, cursor); with oldest alone, from oldest forward', async () => {
		for (const text of ['m1', 'm2', 'm3', 'm4', 'm5']) await postMessage(text);

		async function all(query: Record<string, unknown>): Promise<string[][]> {
			const pages: string[][] = [];
			const qs: Record<string, unknown> = { ...query, page: 1, limit: 2 };
			let body: Listed;
			do {
				body = (await get<Listed>('conversations.history', qs)).body;
				pages.push(body.messages.map((message) => message.text));
				qs.cursor = body.response_metadata?.next_cursor;
				(qs.page as number)++;
			} while (body.response_metadata?.next_cursor);
			return pages;
		}

		expect(await all({ channel: 'C0DETRACT' })).toEqual([['m5', 'm4'], ['m3', 'm2'], ['m1']]);
		// Slack's quirk n8n 2.4 sorts away: with only oldest, each page is the next messages after it.
		expect(await all({ channel: 'C0DETRACT', oldest: 0.5 })).toEqual([
			['m2', 'm1'],
			['m4', 'm3'],
			['m5'],
		]);
		const bogus = await get('conversations.history', { channel: 'C0DETRACT', cursor: 'bm9wZQ==' });
		expect(bogus.body).toEqual({ ok: false, error: 'invalid_cursor' });
	});

	it('reads replies as the node does: the parent, then its replies oldest first; a ts of no message is thread_not_found', async () => {
		const parent = await postMessage('parent');
		const alone = await postMessage('alone');
		for (const text of ['r1', 'r2', 'r3']) {
			await postMessage(text, { thread_ts: { replyValues: { thread_ts: parent.body.ts } } });
		}

		const thread = await read('replies', { ts: parent.body.ts, limit: 10 });
		const paged = await read('replies', { ts: parent.body.ts, limit: 2 });
		const rest = await read('replies', {
			ts: parent.body.ts,
			limit: 2,
			cursor: paged.body.response_metadata?.next_cursor,
		});
		const single = await read('replies', { ts: alone.body.ts, limit: 10 });
		const missing = await get('conversations.replies', {
			channel: 'C0DETRACT',
			ts: '1.000001',
			limit: 10,
		});

		expect(thread.body.messages.map((message) => message.text)).toEqual([
			'parent',
			'r1',
			'r2',
			'r3',
		]);
		expect(paged.body).toMatchObject({ has_more: true });
		expect([...paged.body.messages, ...rest.body.messages].map((message) => message.text)).toEqual([
			'parent',
			'r1',
			'r2',
			'r3',
		]);
		expect(rest.body.has_more).toBe(false);
		expect(single.body.messages.map((message) => message.text)).toEqual(['alone']);
		expect(missing.body).toEqual({ ok: false, error: 'thread_not_found' });
	});
});
