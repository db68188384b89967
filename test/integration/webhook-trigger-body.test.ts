import type { IDataObject } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import {
	declinePayload,
	encodeWebhook,
	responsePayload,
	type WebhookPayload,
} from '../fake/webhook-body';
import type { Decline, EndUser, SurveyResponse } from '../fake/store';
import { MAX_BODY_BYTES, MAX_NESTING } from '../../nodes/Wootric/webhook/delivery';
import {
	closeWebhookSessions,
	post,
	signed,
	WebhookSession,
	type Delivery,
} from '../support/webhooks';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * The webhook body read back into the record the API's lists return: form-encoded bracket keys
 * (every value a string, times local with an offset) and JSON of the same nesting give one item;
 * a body that cannot be read is answered 400 naming the field, and starts nothing. On node version
 * 1, whose items are the record as read (version 1.1 adds nps_category: trigger-versions.test.ts).
 */
describe('Wootric Webhook Trigger: body', () => {
	let fake: FakeWootric;
	let user: EndUser;
	let response: SurveyResponse;
	let decline: Decline;

	beforeEach(async () => {
		// The account's times are local to UTC-8: the body's `... -0800` must come back as UTC.
		fake = await startFakeWootric({ utcOffsetMinutes: -480 });
		user = createEndUser(fake.account, fake.store, 'ada@example.com', { externalId: 'crm-1' });
		const createdAt = fake.clock.now() - 100;
		response = addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 6,
			text: 'Too slow',
			endUserProperties: { plan: 'pro', seats: '12' },
			createdAt,
			updatedAt: createdAt + 30,
		});
		decline = addDecline(fake.account, fake.store, {
			endUserId: user.id,
			endUserProperties: { plan: 'pro' },
		});
	});
	afterEach(async () => {
		await closeWebhookSessions();
		await fake.close();
	});

	const start = async (parameters: IDataObject = {}) =>
		await WebhookSession.start(fake, { events: ['response', 'decline'], ...parameters }, 1);
	const created = (record = response) =>
		responsePayload(fake.account, record, 'created', fake.clock.now());
	const declined = () => declinePayload(fake.account, decline, fake.clock.now());

	/** The payload as a form, each of `changes` set, or left out when undefined. */
	function formWith(
		payload: WebhookPayload,
		changes: Record<string, string | undefined> = {},
	): string {
		const form = new URLSearchParams(encodeWebhook(payload, 'form').body);
		for (const [key, value] of Object.entries(changes))
			if (value === undefined) form.delete(key);
			else form.set(key, value);
		return form.toString();
	}
	/** The payload as JSON, the record's fields changed by `changes`. */
	function jsonWith(payload: WebhookPayload, changes: IDataObject = {}, top: IDataObject = {}) {
		const body = JSON.parse(encodeWebhook(payload, 'json').body) as IDataObject;
		return JSON.stringify({
			...body,
			[payload.kind]: { ...(body[payload.kind] as IDataObject), ...changes },
			...top,
		});
	}

	const responseItem = () => ({
		event: 'response',
		idempotency_key: `response:${response.id}`,
		id: response.id,
		end_user_id: user.id,
		survey_id: response.surveyId,
		score: 6,
		text: 'Too slow',
		excluded_from_calculations: false,
		ip_address: '203.0.113.7',
		origin_url: 'https://app.example.com/',
		created_at: iso(response.createdAt),
		updated_at: iso(response.updatedAt),
		end_user: {
			email: 'ada@example.com',
			external_id: 'crm-1',
			properties: { plan: 'pro', seats: '12' },
		},
	});

	describe('typed back into the API’s record', () => {
		it.each(['form', 'json'] as const)(
			'a response (%s): numbers, booleans, ISO 8601 UTC times, the end user with its properties',
			async (format) => {
				const session = await start();

				const answer = await session.deliver(created(), format);

				expect(answer.status).toBe(200);
				expect(session.emitted).toEqual([responseItem()]);
			},
		);

		it.each(['form', 'json'] as const)(
			'a decline (%s): no score, text or exclusion; an address the service has none of is null',
			async (format) => {
				const session = await start();

				await session.deliver(declined(), format);

				expect(session.emitted).toEqual([
					{
						event: 'decline',
						idempotency_key: `decline:${decline.id}`,
						id: decline.id,
						end_user_id: user.id,
						survey_id: decline.surveyId,
						ip_address: null,
						origin_url: null,
						created_at: iso(decline.createdAt),
						updated_at: iso(decline.updatedAt),
						end_user: {
							email: 'ada@example.com',
							external_id: 'crm-1',
							properties: { plan: 'pro' },
						},
					},
				]);
			},
		);

		it('Simplify (version 1) adds the NPS category', async () => {
			const session = await start({ options: { simplify: true } });

			await session.deliver(created());

			expect(session.emitted).toEqual([{ ...responseItem(), nps_category: 'detractor' }]);
		});

		it.each([
			['form, text=', () => formWith(created(), { 'response[text]': '' }), FORM],
			['form, no text field', () => formWith(created(), { 'response[text]': undefined }), FORM],
			['JSON, "text": ""', () => jsonWith(created(), { text: '' }), JSON_TYPE],
			['JSON, "text": null', () => jsonWith(created(), { text: null }), JSON_TYPE],
		])(
			'a response without a comment (%s) has text null, as the API gives it',
			async (_, body, type) => {
				const session = await start();

				await post(session.trigger.productionUrl, signed(fake, body(), type));

				expect(session.emitted).toEqual([{ ...responseItem(), text: null }]);
			},
		);

		it('JSON may carry values already typed', async () => {
			const session = await start({ filters: { includeExcluded: true } });
			const body = jsonWith(created(), {
				id: response.id,
				score: 10,
				end_user_id: user.id,
				excluded_from_calculations: true,
			});

			await post(session.trigger.productionUrl, signed(fake, body, JSON_TYPE));

			expect(session.emitted).toEqual([
				{ ...responseItem(), score: 10, excluded_from_calculations: true },
			]);
		});

		it.each([
			['true', true],
			['1', true],
			['false', false],
			['0', false],
		])('excluded_from_calculations=%s reads as %s', async (text, value) => {
			const session = await start({ filters: { includeExcluded: true } });
			const body = formWith(created(), { 'response[excluded_from_calculations]': text });

			await post(session.trigger.productionUrl, signed(fake, body, FORM));

			expect(session.emitted).toEqual([{ ...responseItem(), excluded_from_calculations: value }]);
		});

		it.each([
			['local time with an offset', '2016-08-04 13:57:26 -0700', '2016-08-04T20:57:26.000Z'],
			['an offset east of UTC', '2016-08-04 13:57:26 +0530', '2016-08-04T08:27:26.000Z'],
			['ISO 8601 with an offset', '2016-08-04T13:57:26.000-07:00', '2016-08-04T20:57:26.000Z'],
			['no offset, read as UTC', '2016-08-04 13:57:26', '2016-08-04T13:57:26.000Z'],
		])('created_at in %s becomes ISO 8601 UTC', async (_, text, utc) => {
			const session = await start();
			const body = formWith(created(), {
				'response[created_at]': text,
				'response[updated_at]': undefined,
			});

			await post(session.trigger.productionUrl, signed(fake, body, FORM));

			const { updated_at: _updated, ...withoutUpdatedAt } = responseItem();
			expect(session.emitted).toEqual([{ ...withoutUpdatedAt, created_at: utc }]);
		});
	});

	describe('answered 400 with a message naming the field, nothing emitted', () => {
		const unreadable: Array<[string, () => Delivery, string]> = [
			[
				'a text/plain body',
				() => ({ body: formWith(created()), contentType: 'text/plain' }),
				'The body must be application/x-www-form-urlencoded or application/json, not "text/plain"',
			],
			[
				'no content type',
				() => ({ body: formWith(created()) }),
				'The body must be application/x-www-form-urlencoded or application/json, not "none"',
			],
			[
				// n8n parses a JSON body before the node runs, except an empty one.
				'an empty JSON body',
				() => ({ body: '', contentType: JSON_TYPE }),
				'The body is not valid JSON',
			],
			[
				'a JSON array',
				() => ({ body: '[1]', contentType: JSON_TYPE }),
				'The JSON body must be an object',
			],
			[
				'JSON null',
				() => ({ body: 'null', contentType: JSON_TYPE }),
				'The JSON body must be an object',
			],
			[
				'a bracket left open',
				() => ({ body: `${formWith(created())}&response%5Bid=1`, contentType: FORM }),
				'The field name "response[id" is not a bracket key',
			],
			[
				'empty brackets',
				() => ({ body: `${formWith(created())}&response%5B%5D=1`, contentType: FORM }),
				'The field name "response[]" is not a bracket key',
			],
			[
				'a field nested under one with a value',
				() => ({ body: `${formWith(created())}&response%5Bscore%5D%5Bx%5D=1`, contentType: FORM }),
				'The field response[score][x] nests under a field that has a value',
			],
			[
				'a value for a field that has nested fields',
				() => ({
					body: `${formWith(created())}&response%5Bend_user_properties%5D=x`,
					contentType: FORM,
				}),
				'The field response[end_user_properties] has a value and nested fields',
			],
			[
				'both response and decline fields',
				() => ({ body: `${formWith(created())}&decline%5Bid%5D=1`, contentType: FORM }),
				'The body must hold either response[…] or decline[…] fields',
			],
			[
				'neither response nor decline fields',
				() => ({
					body: 'event_name=created&timestamp=2016-08-04+13%3A57%3A26+-0700',
					contentType: FORM,
				}),
				'The body must hold either response[…] or decline[…] fields',
			],
			[
				'response holding a value, not fields',
				() => ({
					body: JSON.stringify({ response: 5, event_name: 'created' }),
					contentType: JSON_TYPE,
				}),
				'response must hold fields, as response[id]',
			],
			...(
				[
					['no event_name', undefined],
					['event_name=deleted', 'deleted'],
					['event_name=Created', 'Created'],
					['event_name=constructor', 'constructor'],
					['event_name=__proto__', '__proto__'],
				] as const
			).map(([name, value]): [string, () => Delivery, string] => [
				`a response with ${name}`,
				() => ({ body: formWith(created(), { event_name: value }), contentType: FORM }),
				'event_name must be created or updated for a response',
			]),
			[
				'a JSON event_name that cannot become text',
				() => ({
					body: jsonWith(created(), {}, { event_name: { toString: 1, valueOf: 1 } }),
					contentType: JSON_TYPE,
				}),
				'event_name must be created or updated for a response',
			],
			...(['updated', 'constructor'] as const).map((value): [string, () => Delivery, string] => [
				`a decline with event_name=${value}`,
				() => ({ body: formWith(declined(), { event_name: value }), contentType: FORM }),
				'event_name must be created for a decline',
			]),
			...(
				[
					['response[id]', undefined, 'response[id] is missing'],
					['response[id]', 'abc', 'response[id] must be a whole number from 1'],
					['response[id]', '0', 'response[id] must be a whole number from 1'],
					['response[id]', '1.5', 'response[id] must be a whole number from 1'],
					['response[end_user_id]', 'x', 'response[end_user_id] must be a whole number from 1'],
					['response[survey_id]', '-2', 'response[survey_id] must be a whole number from 1'],
					['response[score]', undefined, 'response[score] is missing'],
					['response[score]', '11', 'response[score] must be a whole number from 0 to 10'],
					['response[score]', '-1', 'response[score] must be a whole number from 0 to 10'],
					['response[score]', '7.0', 'response[score] must be a whole number from 0 to 10'],
					[
						'response[excluded_from_calculations]',
						'yes',
						'response[excluded_from_calculations] must be true or false',
					],
					['response[created_at]', undefined, 'response[created_at] is missing'],
					['response[created_at]', 'yesterday', 'response[created_at] is not a datetime'],
					['response[updated_at]', '2016-13-45 99:00:00', 'response[updated_at] is not a datetime'],
				] as const
			).map(([field, value, message]): [string, () => Delivery, string] => [
				value === undefined ? `${field} left out` : `${field}=${value}`,
				() => ({ body: formWith(created(), { [field]: value }), contentType: FORM }),
				message,
			]),
			[
				'decline[id] left out',
				() => ({ body: formWith(declined(), { 'decline[id]': undefined }), contentType: FORM }),
				'decline[id] is missing',
			],
			[
				'JSON text that is not text',
				() => ({ body: jsonWith(created(), { text: 5 }), contentType: JSON_TYPE }),
				'response[text] must be text',
			],
			[
				'JSON end-user properties that are not fields',
				() => ({
					body: jsonWith(created(), { end_user_properties: 'pro' }),
					contentType: JSON_TYPE,
				}),
				'response[end_user_properties] must hold fields',
			],
			[
				'a field nested 5,000 brackets deep (15 KB)',
				() => ({
					body: `${formWith(created())}&response[end_user_properties]${'[a]'.repeat(5_000)}=x`,
					contentType: FORM,
				}),
				`The body's fields nest deeper than ${MAX_NESTING} levels`,
			],
			[
				'JSON arrays nested 5,000 deep',
				() => ({
					// Written as text: JSON.stringify itself would run out of stack.
					body: jsonWith(created(), { end_user_properties: { plan: 'deep' } }).replace(
						'"deep"',
						`${'['.repeat(5_000)}${']'.repeat(5_000)}`,
					),
					contentType: JSON_TYPE,
				}),
				`The body's fields nest deeper than ${MAX_NESTING} levels`,
			],
			[
				'a field one level deeper than the bound',
				() => ({
					body: `${formWith(created())}&response[end_user_properties]${'[a]'.repeat(MAX_NESTING - 1)}=x`,
					contentType: FORM,
				}),
				`The body's fields nest deeper than ${MAX_NESTING} levels`,
			],
			[
				'a body over 64 KB',
				() => ({
					body: `${formWith(created())}&pad=${'x'.repeat(MAX_BODY_BYTES)}`,
					contentType: FORM,
				}),
				'The body is over 64 KB',
			],
		];

		it.each(unreadable)('%s', async (_, delivery, message) => {
			const session = await start();
			const { body, contentType } = delivery();

			const answer = await post(session.trigger.productionUrl, signed(fake, body, contentType));

			expect({ status: answer.status, body: JSON.parse(answer.text) as unknown }).toEqual({
				status: 400,
				body: { message },
			});
			expect(session.trigger.executions).toEqual([]);
		});

		it('a property nested as deep as the bound is read', async () => {
			const session = await start();
			const body = `${formWith(created())}&response[end_user_properties][deep]${'[a]'.repeat(MAX_NESTING - 3)}=x`;

			const answer = await post(session.trigger.productionUrl, signed(fake, body, FORM));

			expect(answer.status).toBe(200);
			expect(session.emitted).toHaveLength(1);
		});

		it('a body of exactly 64 KB is read', async () => {
			const session = await start();
			const head = `${formWith(created())}&response%5Bend_user_properties%5D%5Bpad%5D=`;
			const body = `${head}${'x'.repeat(MAX_BODY_BYTES - head.length)}`;

			const answer = await post(session.trigger.productionUrl, signed(fake, body, FORM));

			expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
			expect(answer.status).toBe(200);
			expect(session.emitted).toHaveLength(1);
		});
	});

	it('JSON that does not parse is answered 422 by n8n itself, before the node runs', async () => {
		const session = await start();

		const answer = await post(
			session.trigger.productionUrl,
			signed(fake, '{"response": {', JSON_TYPE),
		);

		expect(answer.status).toBe(422);
		expect(JSON.parse(answer.text)).toMatchObject({ message: 'Failed to parse request body' });
		expect(session.trigger.executions).toEqual([]);
	});

	/** The seeded end user's properties with a property named __proto__, as a plain key. */
	const propertiesWithProto = (value: unknown) =>
		Object.defineProperty({ plan: 'pro', seats: '12' }, '__proto__', {
			value,
			enumerable: true,
		});

	it.each<[string, string, () => string, () => object]>([
		[
			'response[__proto__][polluted] (not a record field)',
			FORM,
			() => `${formWith(created())}&response%5B__proto__%5D%5Bpolluted%5D=yes`,
			() => responseItem().end_user.properties,
		],
		[
			'__proto__[polluted] (not a field of the body)',
			FORM,
			() => `${formWith(created())}&__proto__%5Bpolluted%5D=yes`,
			() => responseItem().end_user.properties,
		],
		[
			'response[constructor][prototype][polluted] (not a record field)',
			FORM,
			() => `${formWith(created())}&response%5Bconstructor%5D%5Bprototype%5D%5Bpolluted%5D=yes`,
			() => responseItem().end_user.properties,
		],
		[
			'response[end_user_properties][__proto__] (an end-user property)',
			FORM,
			() => `${formWith(created())}&response%5Bend_user_properties%5D%5B__proto__%5D=yes`,
			() => propertiesWithProto('yes'),
		],
		[
			'"__proto__" at every level of JSON',
			JSON_TYPE,
			() => jsonWith(created()).replace(/\{/g, '{"__proto__":{"polluted":"yes"},'),
			() => propertiesWithProto({ polluted: 'yes' }),
		],
	])(
		'a field named %s is a plain field: Object.prototype is untouched',
		async (_, type, body, properties) => {
			const session = await start();

			const answer = await post(session.trigger.productionUrl, signed(fake, body(), type));

			expect(answer.status).toBe(200);
			const item = responseItem();
			expect(session.emitted).toEqual([
				{ ...item, end_user: { ...item.end_user, properties: properties() } },
			]);
			expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
			expect(({} as IDataObject).polluted).toBeUndefined();
		},
	);
});
