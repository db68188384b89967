import type { IDataObject } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import type { EndUser } from '../fake/store';
import { declinePayload, responsePayload } from '../fake/webhook-body';
import { SIMPLIFIED_TOOL_FIELDS } from '../support/tool-output';
import { closeWebhookSessions, WebhookSession } from '../support/webhooks';
import { TriggerSession } from '../support/wootric';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/;
const SERVICE_TEXT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d -0800$/;

/**
 * The fields Simplify keeps from version 1.1, in their order: those of the action node's Simplified
 * output, and the end user.
 */
const MAIN_RESPONSE_FIELDS = [
	'event',
	'idempotency_key',
	...SIMPLIFIED_TOOL_FIELDS.responses,
	'end_user',
];
const MAIN_DECLINE_FIELDS = [
	'event',
	'idempotency_key',
	...SIMPLIFIED_TOOL_FIELDS.declines,
	'end_user',
];

/**
 * A trigger's items for a new response (score 3, a comment) and a new decline, on a node version
 * with Simplify on or off. Each call is about new records: a webhook trigger folds a repeat.
 */
type ItemsOf = (typeVersion: number, simplify: boolean) => Promise<[IDataObject, IDataObject]>;

/**
 * What Simplify does, by node version, alike on both triggers. Version 1 (saved workflows): the
 * record as read, and Simplify adds nps_category and turns times into ISO 8601 UTC. Version 1.1:
 * items always have those, and Simplify keeps the main fields.
 */
/** An item without what differs from one record to the next (ids and times). */
const withoutIdsAndTimes = ({
	id: _id,
	idempotency_key: _key,
	survey_id: _survey,
	created_at: _created,
	updated_at: _updated,
	...rest
}: IDataObject) => rest;

describe.each([
	[
		'Wootric Trigger',
		(fake: FakeWootric, user: EndUser): ItemsOf =>
			async (typeVersion, simplify) => {
				addResponse(fake.account, fake.store, { endUserId: user.id, score: 3, text: 'Slow' });
				addDecline(fake.account, fake.store, { endUserId: user.id });
				const session = new TriggerSession(
					fake,
					{ events: ['response', 'decline'], options: { simplify } },
					{},
					undefined,
					typeVersion,
				);
				const { items } = await session.poll('manual');
				return [items[0], items[1]];
			},
		// The API's times are local; the webhook's are ISO 8601 UTC already.
		SERVICE_TEXT,
	],
	[
		'Wootric Webhook Trigger',
		(fake: FakeWootric, user: EndUser): ItemsOf =>
			async (typeVersion, simplify) => {
				const session = await WebhookSession.start(
					fake,
					{ events: ['response', 'decline'], options: { simplify } },
					typeVersion,
				);
				const response = addResponse(fake.account, fake.store, {
					endUserId: user.id,
					score: 3,
					text: 'Slow',
				});
				const decline = addDecline(fake.account, fake.store, { endUserId: user.id });
				await session.deliver(responsePayload(fake.account, response, 'created', fake.clock.now()));
				await session.deliver(declinePayload(fake.account, decline, fake.clock.now()));
				const [responseItem, declineItem] = session.emitted;
				return [responseItem, declineItem];
			},
		ISO,
	],
] as const)('%s: Simplify by node version', (_, itemsFor, version1Times) => {
	let fake: FakeWootric;
	let itemsOf: ItemsOf;

	beforeEach(async () => {
		fake = await startFakeWootric({ utcOffsetMinutes: -480 });
		const user = createEndUser(fake.account, fake.store, 'ada@example.com');
		itemsOf = itemsFor(fake, user);
	});
	afterEach(async () => {
		await closeWebhookSessions();
		await fake.close();
	});

	it('version 1 without Simplify: the record as read, no nps_category', async () => {
		const [response, decline] = await itemsOf(1, false);

		expect(response).not.toHaveProperty('nps_category');
		expect([response.created_at, decline.updated_at]).toEqual([
			expect.stringMatching(version1Times),
			expect.stringMatching(version1Times),
		]);
	});

	it('version 1 with Simplify: every field, nps_category added, times ISO 8601 UTC', async () => {
		const [plain] = await itemsOf(1, false);
		const [response, decline] = await itemsOf(1, true);

		expect(Object.keys(response)).toEqual([...Object.keys(plain), 'nps_category']);
		expect(response).toMatchObject({
			nps_category: 'detractor',
			created_at: expect.stringMatching(ISO),
		});
		expect(decline.updated_at).toMatch(ISO);
	});

	it('version 1.1 without Simplify: what version 1 gives with it', async () => {
		const simplified = await itemsOf(1, true);
		const items = await itemsOf(1.1, false);

		expect(items.map((item) => Object.keys(item))).toEqual(
			simplified.map((item) => Object.keys(item)),
		);
		expect(items.map(withoutIdsAndTimes)).toEqual(simplified.map(withoutIdsAndTimes));
		expect(items.map((item) => item.created_at)).toEqual([
			expect.stringMatching(ISO),
			expect.stringMatching(ISO),
		]);
	});

	it('version 1.1 with Simplify: only the main fields, with nps_category and ISO times', async () => {
		const [all] = await itemsOf(1.1, false);
		const [response, decline] = await itemsOf(1.1, true);

		// A webhook carries no completed and tags.
		const mainFields = MAIN_RESPONSE_FIELDS.filter((field) => field in all);
		expect(Object.keys(response)).toEqual(mainFields);
		expect(withoutIdsAndTimes(response)).toEqual(
			withoutIdsAndTimes(Object.fromEntries(mainFields.map((field) => [field, all[field]]))),
		);
		expect(Object.keys(all)).toEqual(expect.arrayContaining(['ip_address', 'survey_id']));
		expect(Object.keys(decline)).toEqual(MAIN_DECLINE_FIELDS);
		expect([response.nps_category, response.created_at, decline.created_at]).toEqual([
			'detractor',
			expect.stringMatching(ISO),
			expect.stringMatching(ISO),
		]);
	});
});
