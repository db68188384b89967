import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	type DeliveryFault,
	type WebhookEvent,
} from '../index';
import type { EndUser } from '../store';
import { errorList, useFakeApi } from './setup';

const { fake, api, restart } = useFakeApi();

/** 2016-08-04 13:57:26 at the fake's default offset, -0800: the docs' example time. */
const ANSWERED_AT = Date.UTC(2016, 7, 4, 21, 57, 26) / 1000;
/** 2024-03-10 12:00:00 -0800. */
const SENT_AT = Date.UTC(2024, 2, 10, 20, 0, 0) / 1000;

interface Received {
	headers: IncomingHttpHeaders;
	/** The raw body, as the signature covers it. */
	body: Buffer;
}

/** A webhook URL: records what arrives, answers `status` after `answerAfterMs`. */
class Receiver {
	readonly received: Received[] = [];
	status = 200;
	answerAfterMs = 0;
	/** The most requests it was answering at one time. */
	mostAtOnce = 0;
	url = '';
	private answering = 0;
	private readonly server: Server = createServer(async (request, reply) => {
		this.mostAtOnce = Math.max(this.mostAtOnce, ++this.answering);
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		this.received.push({ headers: request.headers, body: Buffer.concat(chunks) });
		await new Promise((resolve) => setTimeout(resolve, this.answerAfterMs));
		this.answering--;
		reply.writeHead(this.status).end();
	});

	async start(): Promise<this> {
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/wootric`;
		return this;
	}

	/** Cuts off whatever delivery is still in flight. */
	close(): Promise<void> {
		this.server.closeAllConnections();
		return new Promise((resolve) => this.server.close(() => resolve()));
	}

	texts(): string[] {
		return this.received.map((received) => received.body.toString('utf8'));
	}

	/** The bodies as ordered [key, value] pairs (form encoded). */
	forms(): Array<Array<[string, string]>> {
		return this.texts().map((text) => [...new URLSearchParams(text)]);
	}

	eventsReceived(): string[] {
		return this.forms().map((pairs) => {
			const kind = pairs[0][0].startsWith('response') ? 'response' : 'decline';
			return `${kind}_${Object.fromEntries(pairs).event_name}`;
		});
	}
}

const receivers: Receiver[] = [];
async function startReceiver(): Promise<Receiver> {
	const receiver = await new Receiver().start();
	receivers.push(receiver);
	return receiver;
}
afterEach(() => Promise.all(receivers.splice(0).map((receiver) => receiver.close())));

/** Computed here, apart from the fake's own code: HMAC-SHA1 of the raw body, hex. */
const expectedSignature = (body: Buffer, secret: string) =>
	`sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;

function expectSignedWith(receiver: Receiver, secret: string) {
	for (const { headers, body } of receiver.received)
		expect(headers['x-wootric-signature']).toBe(expectedSignature(body, secret));
}

const invalid = (field: string) =>
	errorList('invalid_parameter', `${field} does not have a valid value`, field);
const NOT_A_JSON_OBJECT = errorList('bad_request', 'The request body is not a JSON object', null);

const webhooks = () => fake().outgoingWebhooks;
const ada = () =>
	createEndUser(fake().account, fake().store, 'ada@example.com', {
		externalId: 'crm-1',
		properties: { plan: 'pro', seats: '12' },
	});
const respond = (user: EndUser, score = 7) =>
	addResponse(fake().account, fake().store, { endUserId: user.id, score });

/** A response, an update of it and a decline, through the seeding helpers. */
function everyKindOfEvent() {
	const user = ada();
	const response = respond(user);
	changeResponse(fake().account, fake().store, response.id, { text: 'Better now' });
	addDecline(fake().account, fake().store, { endUserId: user.id });
}

describe('the documented bodies', () => {
	it('POSTs a created response form-encoded, bracket keys in the documented order, every value a string', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url, events: ['response_created'] });
		const user = ada();
		fake().clock.set(SENT_AT);
		const response = addResponse(fake().account, fake().store, {
			endUserId: user.id,
			score: 7,
			createdAt: ANSWERED_AT,
			updatedAt: ANSWERED_AT,
			endUserProperties: { plan: 'pro', seats: '12' },
		});
		await webhooks().settled();

		expect(receiver.received).toHaveLength(1);
		expect(receiver.received[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(receiver.forms()[0]).toEqual([
			['response[id]', String(response.id)],
			['response[email]', 'ada@example.com'],
			['response[external_id]', 'crm-1'],
			['response[score]', '7'],
			['response[text]', ''],
			['response[ip_address]', '203.0.113.7'],
			['response[origin_url]', 'https://app.example.com/'],
			['response[end_user_id]', String(user.id)],
			['response[end_user_properties][plan]', 'pro'],
			['response[end_user_properties][seats]', '12'],
			['response[survey_id]', String(response.surveyId)],
			['response[created_at]', '2016-08-04 13:57:26 -0800'],
			['response[updated_at]', '2016-08-04 13:57:26 -0800'],
			['response[excluded_from_calculations]', 'false'],
			['event_name', 'created'],
			['timestamp', '2024-03-10 12:00:00 -0800'],
			['account_token', fake().account.token],
			['survey_mode', 'NPS'],
		]);
		// The raw text too: `text=` is there, empty, and brackets are percent-encoded as forms do.
		expect(receiver.texts()[0]).toContain('&response%5Btext%5D=&');
		expectSignedWith(receiver, fake().credentials.webhookSecret);
	});

	it('POSTs a created decline under decline[...], without score, text and excluded_from_calculations', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url, events: ['decline_created'] });
		const user = ada();
		fake().clock.set(SENT_AT);
		const decline = addDecline(fake().account, fake().store, {
			endUserId: user.id,
			ipAddress: '198.51.100.4',
			createdAt: ANSWERED_AT,
			updatedAt: ANSWERED_AT,
		});
		await webhooks().settled();

		expect(receiver.forms()).toEqual([
			[
				['decline[id]', String(decline.id)],
				['decline[email]', 'ada@example.com'],
				['decline[external_id]', 'crm-1'],
				['decline[ip_address]', '198.51.100.4'],
				['decline[origin_url]', ''],
				['decline[end_user_id]', String(user.id)],
				['decline[survey_id]', String(decline.surveyId)],
				['decline[created_at]', '2016-08-04 13:57:26 -0800'],
				['decline[updated_at]', '2016-08-04 13:57:26 -0800'],
				['event_name', 'created'],
				['timestamp', '2024-03-10 12:00:00 -0800'],
				['account_token', fake().account.token],
				['survey_mode', 'NPS'],
			],
		]);
		expectSignedWith(receiver, fake().credentials.webhookSecret);
	});

	it('POSTs an updated response with event_name=updated and its new comment and updated_at', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url, events: ['response_updated'] });
		const response = respond(ada());
		fake().clock.set(SENT_AT);
		changeResponse(fake().account, fake().store, response.id, { score: 9, text: 'Much better' });
		await webhooks().settled();

		const body = Object.fromEntries(receiver.forms()[0]);
		expect(body).toMatchObject({
			'response[id]': String(response.id),
			'response[score]': '9',
			'response[text]': 'Much better',
			'response[updated_at]': '2024-03-10 12:00:00 -0800',
			event_name: 'updated',
			timestamp: '2024-03-10 12:00:00 -0800',
		});
	});

	it('names the survey the account runs (survey_mode), which its responses do not carry', async () => {
		fake().account.surveyMode = 'CES';
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url });
		respond(ada(), 2);
		await webhooks().settled();
		expect(Object.fromEntries(receiver.forms()[0])).toMatchObject({
			'response[score]': '2',
			survey_mode: 'CES',
		});
	});

	it('writes times in the account’s own offset', async () => {
		await restart({ utcOffsetMinutes: 330 });
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url });
		addResponse(fake().account, fake().store, {
			endUserId: ada().id,
			score: 10,
			createdAt: ANSWERED_AT,
		});
		await webhooks().settled();
		expect(Object.fromEntries(receiver.forms()[0])['response[created_at]']).toBe(
			'2016-08-05 03:27:26 +0530',
		);
	});

	it('writes times of an account in Rails’ UTC zone as Rails does: `… UTC`', async () => {
		await restart({ railsUtc: true });
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url });
		fake().clock.set(SENT_AT);
		addResponse(fake().account, fake().store, {
			endUserId: ada().id,
			score: 10,
			createdAt: ANSWERED_AT,
		});
		await webhooks().settled();
		expect(Object.fromEntries(receiver.forms()[0])).toMatchObject({
			'response[created_at]': '2016-08-04 21:57:26 UTC',
			timestamp: '2024-03-10 20:00:00 UTC',
		});
	});

	it('sends the same nesting as JSON when the registration asks for json', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url, format: 'json' });
		const user = ada();
		fake().clock.set(SENT_AT);
		const response = addResponse(fake().account, fake().store, {
			endUserId: user.id,
			score: 3,
			text: 'Slow',
			createdAt: ANSWERED_AT,
			updatedAt: ANSWERED_AT,
			endUserProperties: { plan: 'pro' },
		});
		await webhooks().settled();

		const [received] = receiver.received;
		expect(received.headers['content-type']).toBe('application/json');
		const body = JSON.parse(received.body.toString('utf8'));
		expect(body).toEqual({
			response: {
				id: String(response.id),
				email: 'ada@example.com',
				external_id: 'crm-1',
				score: '3',
				text: 'Slow',
				ip_address: '203.0.113.7',
				origin_url: 'https://app.example.com/',
				end_user_id: String(user.id),
				end_user_properties: { plan: 'pro' },
				survey_id: String(response.surveyId),
				created_at: '2016-08-04 13:57:26 -0800',
				updated_at: '2016-08-04 13:57:26 -0800',
				excluded_from_calculations: 'false',
			},
			event_name: 'created',
			timestamp: '2024-03-10 12:00:00 -0800',
			account_token: fake().account.token,
			survey_mode: 'NPS',
		});
		expect(Object.keys(body.response)[0]).toBe('id');
		expectSignedWith(receiver, fake().credentials.webhookSecret);
	});

	it('keeps the body as it was when the event happened, whatever changes before it is sent', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url, events: ['response_created'] });
		webhooks().faults.inject({ fault: { kind: 'delay', ms: 50 } });
		const response = respond(ada(), 4);
		response.score = 10;
		await webhooks().settled();
		expect(Object.fromEntries(receiver.forms()[0])['response[score]']).toBe('4');
	});
});

describe('the signature', () => {
	it('is the HMAC-SHA1 of the raw body with the account’s webhook secret, or the one registered', async () => {
		const accountSecret = await startReceiver();
		const ownSecret = await startReceiver();
		webhooks().register({ url: accountSecret.url });
		webhooks().register({ url: ownSecret.url, format: 'json', secret: 'test-secret' });
		everyKindOfEvent();
		await webhooks().settled();

		expect(accountSecret.received).toHaveLength(3);
		expect(ownSecret.received).toHaveLength(3);
		expectSignedWith(accountSecret, fake().credentials.webhookSecret);
		expectSignedWith(ownSecret, 'test-secret');
		// The log shows the signatures sent.
		const sent = [...accountSecret.received, ...ownSecret.received].map(
			(received) => received.headers['x-wootric-signature'],
		);
		expect(
			webhooks()
				.deliveries.map((delivery) => delivery.signature)
				.sort(),
		).toEqual(sent.sort());
	});
});

describe('which events go out', () => {
	it.each<WebhookEvent>(['response_created', 'response_updated', 'decline_created'])(
		'sends %s only to a URL registered for it',
		async (event) => {
			const chosen = await startReceiver();
			const everything = await startReceiver();
			webhooks().register({ url: chosen.url, events: [event] });
			webhooks().register({ url: everything.url });
			everyKindOfEvent();
			await webhooks().settled();

			expect(chosen.eventsReceived()).toEqual([event]);
			expect(everything.eventsReceived()).toEqual([
				'response_created',
				'response_updated',
				'decline_created',
			]);
		},
	);

	it('sends nothing before a URL is registered, nor after the registrations are removed', async () => {
		const receiver = await startReceiver();
		everyKindOfEvent();
		webhooks().register({ url: receiver.url });
		webhooks().removeAll();
		everyKindOfEvent();
		await webhooks().settled();
		expect(receiver.received).toEqual([]);
		expect(webhooks().deliveries).toEqual([]);
	});

	it('sends for the API’s creates and response updates, not for a decline’s update', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url });
		const user = ada();
		const created = await api().post(
			`/v1/end_users/${user.id}/responses`,
			'score=2&ip_address=198.51.100.9&origin_url=https%3A%2F%2Fapp.example.com%2Fbilling&text=Too+slow',
		);
		expect(created.status).toBe(201);
		expect((await api().put(`/v1/responses/${created.body.id}`, 'completed=true')).status).toBe(
			204,
		);
		const declined = await api().post(`/v1/end_users/${user.id}/declines`, '');
		expect(declined.status).toBe(201);
		expect((await api().put(`/v1/declines/${declined.body.id}`, '')).status).toBe(204);
		await webhooks().settled();

		expect(receiver.eventsReceived()).toEqual([
			'response_created',
			'response_updated',
			'decline_created',
		]);
		const [createdBody, , declineBody] = receiver.forms().map((pairs) => Object.fromEntries(pairs));
		expect(createdBody).toMatchObject({
			'response[id]': String(created.body.id),
			'response[score]': '2',
			'response[text]': 'Too slow',
			'response[origin_url]': 'https://app.example.com/billing',
		});
		expect(declineBody['decline[id]']).toBe(String(declined.body.id));
		expectSignedWith(receiver, fake().credentials.webhookSecret);
	});

	it('answers the API at once, without waiting for the deliveries', async () => {
		const receiver = await startReceiver();
		receiver.answerAfterMs = 1000;
		webhooks().register({ url: receiver.url });
		const user = ada();
		const reply = await api().post(
			`/v1/end_users/${user.id}/responses`,
			'score=9&ip_address=198.51.100.9&origin_url=https%3A%2F%2Fapp.example.com%2F',
		);
		expect(reply.status).toBe(201);
		expect(webhooks().deliveries).toHaveLength(1);
		expect(webhooks().deliveries[0].answeredAtMs).toBeUndefined();
		await webhooks().settled();
		expect(webhooks().deliveries[0].status).toBe(200);
	});
});

describe('the delivery log and settled()', () => {
	it('logs each delivery: event, record, URL, body, signature, status and times', async () => {
		const receiver = await startReceiver();
		receiver.answerAfterMs = 100;
		receiver.status = 202;
		webhooks().register({ url: receiver.url, events: ['response_created'] });
		const response = respond(ada());
		await webhooks().settled();

		const [delivery] = webhooks().deliveries;
		const [received] = receiver.received;
		expect(delivery).toEqual({
			event: 'response_created',
			recordId: response.id,
			url: receiver.url,
			contentType: 'application/x-www-form-urlencoded',
			body: received.body.toString('utf8'),
			signature: expectedSignature(received.body, fake().credentials.webhookSecret),
			sentAtMs: expect.any(Number),
			answeredAtMs: expect.any(Number),
			status: 202,
		});
		expect(delivery.answeredAtMs! - delivery.sentAtMs).toBeGreaterThanOrEqual(90);
	});

	it('settles only once every delivery started so far has been answered', async () => {
		const receiver = await startReceiver();
		receiver.answerAfterMs = 150;
		webhooks().register({ url: receiver.url });
		everyKindOfEvent();
		expect(webhooks().deliveries.every((delivery) => delivery.status === undefined)).toBe(true);
		await webhooks().settled();
		expect(webhooks().deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
		expect(receiver.received).toHaveLength(3);
	});

	it('records a failure (an error status, or no answer at all) and does not retry', async () => {
		const failing = await startReceiver();
		failing.status = 500;
		const gone = await startReceiver();
		await gone.close();
		receivers.splice(receivers.indexOf(gone), 1);
		webhooks().register({ url: failing.url, events: ['response_created'] });
		webhooks().register({ url: gone.url, events: ['response_created'] });
		respond(ada());
		await webhooks().settled();

		expect(failing.received).toHaveLength(1);
		const [answered, unanswered] = webhooks().deliveries;
		expect(answered).toMatchObject({ status: 500, answeredAtMs: expect.any(Number) });
		expect(answered.error).toBeUndefined();
		expect(unanswered.status).toBeUndefined();
		expect(unanswered.error).toMatch(/ECONNREFUSED/);
		expect(webhooks().deliveries).toHaveLength(2);
	});
});

describe('delivery faults', () => {
	const inject = (fault: DeliveryFault, event?: WebhookEvent, times?: number) =>
		webhooks().faults.inject({ fault, event, times });

	it('duplicate: sends the same delivery twice, the copy after the first is answered by default', async () => {
		const receiver = await startReceiver();
		receiver.answerAfterMs = 50;
		webhooks().register({ url: receiver.url });
		inject({ kind: 'duplicate' });
		respond(ada());
		await webhooks().settled();

		expect(receiver.received).toHaveLength(2);
		expect(receiver.texts()[1]).toBe(receiver.texts()[0]);
		expect(receiver.received[1].headers['x-wootric-signature']).toBe(
			receiver.received[0].headers['x-wootric-signature'],
		);
		expect(receiver.mostAtOnce).toBe(1);
		const [first, copy] = webhooks().deliveries;
		expect(copy.sentAtMs).toBeGreaterThanOrEqual(first.answeredAtMs!);
	});

	it('duplicate at once: both copies are in flight together', async () => {
		const receiver = await startReceiver();
		receiver.answerAfterMs = 300;
		webhooks().register({ url: receiver.url });
		inject({ kind: 'duplicate', copy: 'atOnce' });
		respond(ada());
		await webhooks().settled();

		expect(receiver.texts()).toHaveLength(2);
		expect(receiver.texts()[1]).toBe(receiver.texts()[0]);
		expect(receiver.mostAtOnce).toBe(2);
	});

	it('reorder: holds a delivery back until the next one has been answered', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url });
		inject({ kind: 'reorder' }, 'response_created');
		const response = respond(ada());
		changeResponse(fake().account, fake().store, response.id, { text: 'Later comment' });
		await webhooks().settled();

		expect(receiver.eventsReceived()).toEqual(['response_updated', 'response_created']);
		const [updated, created] = webhooks().deliveries;
		expect([updated.event, created.event]).toEqual(['response_updated', 'response_created']);
		expect(created.sentAtMs).toBeGreaterThanOrEqual(updated.answeredAtMs!);
		expect(created.status).toBe(200);
	});

	it('reorder: a held delivery has not started, so settled() does not wait for it', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url });
		inject({ kind: 'reorder' });
		respond(ada());
		await webhooks().settled();
		expect(receiver.received).toEqual([]);
		addDecline(fake().account, fake().store, { endUserId: ada().id });
		await webhooks().settled();
		expect(receiver.eventsReceived()).toEqual(['decline_created', 'response_created']);
	});

	it('badSignature: signs with a secret other than the account’s', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url });
		inject({ kind: 'badSignature' }, 'response_updated');
		everyKindOfEvent();
		await webhooks().settled();

		const signatures = receiver.received.map((received) => received.headers['x-wootric-signature']);
		const expected = receiver.received.map((received) =>
			expectedSignature(received.body, fake().credentials.webhookSecret),
		);
		expect(signatures[1]).toMatch(/^sha1=[0-9a-f]{40}$/);
		expect(signatures[1]).not.toBe(expected[1]);
		expect([signatures[0], signatures[2]]).toEqual([expected[0], expected[2]]);
	});

	it('unsigned: sends no X-Wootric-Signature', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url });
		inject({ kind: 'unsigned' }, 'decline_created');
		everyKindOfEvent();
		await webhooks().settled();

		expect(receiver.received.map((received) => 'x-wootric-signature' in received.headers)).toEqual([
			true,
			true,
			false,
		]);
		expect(webhooks().deliveries[2].signature).toBeUndefined();
	});

	it('delay: sends that much later, and settled() waits for it', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url });
		inject({ kind: 'delay', ms: 200 });
		const before = fake().clock.nowMs();
		respond(ada());
		expect(webhooks().deliveries).toEqual([]);
		await webhooks().settled();

		expect(receiver.received).toHaveLength(1);
		expect(webhooks().deliveries[0].sentAtMs - before).toBeGreaterThanOrEqual(195);
	});

	it('counts `times`, matches the event given, and is spent afterwards', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url });
		inject({ kind: 'unsigned' }, 'response_created', 2);
		expect(webhooks().faults.pending()).toBe(2);
		const user = ada();
		addDecline(fake().account, fake().store, { endUserId: user.id });
		for (let count = 0; count < 3; count++) respond(user);
		await webhooks().settled();

		expect(webhooks().faults.pending()).toBe(0);
		expect(webhooks().deliveries.map((delivery) => delivery.signature === undefined)).toEqual([
			false,
			true,
			true,
			false,
		]);
	});
});

describe('the fake’s own HTTP calls, under /_fake', () => {
	/** Plain fetch, no API token: these calls are not the API's. */
	async function call(method: string, path: string, body?: unknown) {
		const reply = await fetch(`${fake().baseUrl}${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
		});
		const text = await reply.text();
		return { status: reply.status, body: text ? JSON.parse(text) : undefined };
	}

	it('POST /_fake/outgoing_webhooks registers a URL; GET shows it and the deliveries; DELETE removes all', async () => {
		const receiver = await startReceiver();
		const registered = await call('POST', '/_fake/outgoing_webhooks', {
			url: receiver.url,
			events: ['response_created', 'decline_created'],
			format: 'json',
		});
		expect(registered).toEqual({
			status: 201,
			body: { url: receiver.url, events: ['response_created', 'decline_created'], format: 'json' },
		});
		everyKindOfEvent();
		await webhooks().settled();
		expect(receiver.received.map((received) => received.headers['content-type'])).toEqual([
			'application/json',
			'application/json',
		]);
		expectSignedWith(receiver, fake().credentials.webhookSecret);

		const shown = await call('GET', '/_fake/outgoing_webhooks');
		expect(shown.status).toBe(200);
		expect(shown.body.registrations).toEqual([registered.body]);
		expect(shown.body.deliveries.map((delivery: { event: string }) => delivery.event)).toEqual([
			'response_created',
			'decline_created',
		]);

		expect(await call('DELETE', '/_fake/outgoing_webhooks')).toEqual({
			status: 204,
			body: undefined,
		});
		everyKindOfEvent();
		await webhooks().settled();
		expect(receiver.received).toHaveLength(2);
		expect((await call('GET', '/_fake/outgoing_webhooks')).body.registrations).toEqual([]);
	});

	it('registers every event, form-encoded, by default', async () => {
		const receiver = await startReceiver();
		const registered = await call('POST', '/_fake/outgoing_webhooks', { url: receiver.url });
		expect(registered.body).toEqual({
			url: receiver.url,
			events: ['response_created', 'response_updated', 'decline_created'],
			format: 'form',
		});
	});

	it.each([
		['no url', {}, errorList('missing_parameter', 'url is required', 'url')],
		['a url that is not http(s)', { url: 'ftp://example.com/' }, invalid('url')],
		[
			'an unknown event',
			{ url: 'http://127.0.0.1:9/', events: ['response_deleted'] },
			invalid('events'),
		],
		['no events', { url: 'http://127.0.0.1:9/', events: [] }, invalid('events')],
		['an unknown format', { url: 'http://127.0.0.1:9/', format: 'xml' }, invalid('format')],
		['a body that is not a JSON object', '[1, 2]', NOT_A_JSON_OBJECT],
		['a body that is not JSON', 'url=http://127.0.0.1:9/', NOT_A_JSON_OBJECT],
	])('refuses a registration with %s (400)', async (_, body, expected) => {
		expect(await call('POST', '/_fake/outgoing_webhooks', body)).toEqual({
			status: 400,
			body: expected,
		});
		expect(webhooks().registrations).toEqual([]);
	});

	it('POST /_fake/responses/:id/answer: the end user answers, and response_updated goes out', async () => {
		const receiver = await startReceiver();
		webhooks().register({ url: receiver.url });
		const response = respond(ada(), 8);
		await webhooks().settled();
		fake().clock.set(SENT_AT);

		const answered = await call('POST', `/_fake/responses/${response.id}/answer`, {
			score: 3,
			text: 'Exports keep timing out.',
		});
		expect(answered.status).toBe(200);
		expect(answered.body).toMatchObject({
			id: response.id,
			score: 3,
			text: 'Exports keep timing out.',
			updated_at: '2024-03-10 12:00:00 -0800',
		});
		await webhooks().settled();
		expect(receiver.eventsReceived()).toEqual(['response_created', 'response_updated']);
		expect(Object.fromEntries(receiver.forms()[1])).toMatchObject({
			'response[score]': '3',
			'response[text]': 'Exports keep timing out.',
			'response[updated_at]': '2024-03-10 12:00:00 -0800',
		});
	});

	it('answer: changes only what is given', async () => {
		const response = addResponse(fake().account, fake().store, {
			endUserId: ada().id,
			score: 6,
			text: 'Meh',
		});
		const answered = await call('POST', `/_fake/responses/${response.id}/answer`, { score: 9 });
		expect(answered.body).toMatchObject({ score: 9, text: 'Meh' });
		expect(fake().account.responses.get(response.id)).toMatchObject({ score: 9, text: 'Meh' });
	});

	it.each([
		['a score above 10', { score: 11 }, invalid('score')],
		['a score that is not an integer', { score: '7' }, invalid('score')],
		['a comment that is not text', { text: 5 }, invalid('text')],
		[
			'neither score nor text',
			{},
			errorList('missing_parameter', 'score or text is required', null),
		],
	])('refuses an answer with %s (400)', async (_, body, expected) => {
		const response = respond(ada(), 8);
		expect(await call('POST', `/_fake/responses/${response.id}/answer`, body)).toEqual({
			status: 400,
			body: expected,
		});
		expect(fake().account.responses.get(response.id)!.score).toBe(8);
	});

	it('answer: 404 for a response the account does not have', async () => {
		expect(await call('POST', '/_fake/responses/999999/answer', { score: 3 })).toEqual({
			status: 404,
			body: errorList('record_not_found', 'The record could not be found', null),
		});
	});

	it('answers 404 for any other /_fake path', async () => {
		expect((await call('GET', '/_fake/responses')).status).toBe(404);
		expect((await call('PUT', '/_fake/outgoing_webhooks', {})).status).toBe(404);
	});

	it('stays apart from the API: no token needed, no request log, no API faults', async () => {
		fake().faults.inject({ fault: { kind: 'status', status: 500 } });
		const registered = await call('POST', '/_fake/outgoing_webhooks', {
			url: 'http://127.0.0.1:9/',
		});
		expect(registered.status).toBe(201);
		expect(fake().requests).toEqual([]);
		expect(fake().faults.pending()).toBe(1);
	});
});
