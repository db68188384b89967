import type { IDataObject, INode, INodeParameters, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import type { EndUser } from '../fake/store';
import { loadPackage, type InputItem } from '../harness';
import { SIMPLIFIED_TOOL_FIELDS as SIMPLIFIED } from '../support/tool-output';
import { parametersAsLoaded, requestsSeen, wootricRunner } from '../support/wootric';

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The record with only `fields`, in their order. */
const picked = (record: IDataObject, fields: string[]) =>
	Object.fromEntries(
		fields.filter((field) => field in record).map((field) => [field, record[field]]),
	);

/**
 * Node version 1.3, the default for new nodes: ISO datetimes and nps_category on every record,
 * Simplify keeps the fields the tool's Simplified keeps, End User → Delete answers
 * `{ deleted: true }`, and no parameter is read from the first item only while offering an
 * expression. Each against 1.2, which behaves as before.
 */
describe('node version 1.3', () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	const runAs = (nodeTypeVersion: number) => wootricRunner(() => fake, {}, nodeTypeVersion);

	it('is the default version', async () => {
		const { description } = (await loadPackage()).nodeTypes['n8n-nodes-wootric.wootric']
			.type as INodeType;
		expect(description.defaultVersion).toBe(1.3);
	});

	describe('records', () => {
		let ada: EndUser;
		let responseId: number;
		let declineId: number;

		beforeEach(() => {
			ada = createEndUser(fake.account, fake.store, 'ada@example.com', {
				externalId: 'crm-1',
				properties: { plan: 'pro' },
			});
			responseId = addResponse(fake.account, fake.store, {
				endUserId: ada.id,
				score: 3,
				text: 'Slow',
			}).id;
			declineId = addDecline(fake.account, fake.store, { endUserId: ada.id }).id;
		});

		const endUser = () => ({ __rl: true, mode: 'id', value: ada.id });
		const operations: Array<[string, () => INodeParameters, keyof typeof SIMPLIFIED]> = [
			[
				'Response → Get',
				() => ({ resource: 'response', operation: 'get', endUser: endUser(), responseId }),
				'responses',
			],
			['Response → Get Many', () => ({ resource: 'response', operation: 'getAll' }), 'responses'],
			[
				'Decline → Get',
				() => ({ resource: 'decline', operation: 'get', endUser: endUser(), declineId }),
				'declines',
			],
			['Decline → Get Many', () => ({ resource: 'decline', operation: 'getAll' }), 'declines'],
			[
				'End User → Get',
				() => ({ resource: 'endUser', operation: 'get', endUser: endUser() }),
				'endUsers',
			],
			['End User → Get Many', () => ({ resource: 'endUser', operation: 'getAll' }), 'endUsers'],
		];

		/** The single item the operation outputs with `options`. */
		const outputOf = async (version: number, parameters: INodeParameters) => {
			const run = await runAs(version)(parameters);
			expect(run.error).toBeUndefined();
			expect(run.items).toHaveLength(1);
			return run.items[0].json;
		};

		it.each(operations)(
			'%s: 1.3 gives ISO datetimes (and a response its nps_category) always, and Simplify keeps the main fields',
			async (_, parameters, records) => {
				const full = await outputOf(1.3, parameters());
				const simplified = await outputOf(1.3, { ...parameters(), options: { simplify: true } });

				expect(full.created_at).toMatch(ISO_UTC);
				expect(full.updated_at).toMatch(ISO_UTC);
				if (records === 'responses') expect(full.nps_category).toBe('detractor');
				else expect(full).not.toHaveProperty('nps_category');
				expect(simplified).toEqual(picked(full, SIMPLIFIED[records]));
				expect(Object.keys(simplified).length).toBeLessThan(Object.keys(full).length);
			},
		);

		it.each(operations)(
			'%s: 1.2 answers as Wootric does, and Simplify adds nps_category and ISO datetimes to every field',
			async (_, parameters, records) => {
				const asAnswered = await outputOf(1.2, parameters());
				const simplified = await outputOf(1.2, { ...parameters(), options: { simplify: true } });

				expect(asAnswered.created_at).not.toMatch(ISO_UTC);
				expect(asAnswered).not.toHaveProperty('nps_category');
				expect(simplified.created_at).toMatch(ISO_UTC);
				expect(Object.keys(simplified)).toEqual(
					records === 'responses'
						? [...Object.keys(asAnswered), 'nps_category']
						: Object.keys(asAnswered),
				);
			},
		);

		it('Response → Create: 1.3 sends what 1.2 sends; its Simplify keeps the main fields', async () => {
			const create = {
				resource: 'response',
				operation: 'create',
				endUser: endUser(),
				score: 9,
				ipAddress: '203.0.113.7',
				originUrl: 'https://app.example.com/',
				options: { simplify: true },
			};

			const old = await outputOf(1.2, create);
			const simplified = await outputOf(1.3, create);

			const [sentBy12, sentBy13] = requestsSeen(fake).filter(({ method }) => method === 'POST');
			expect(sentBy13.rawBody).toBe(sentBy12.rawBody);
			expect(old).toMatchObject({ nps_category: 'promoter', ip_address: '203.0.113.7' });
			expect(Object.keys(simplified)).toEqual(SIMPLIFIED.responses);
			expect(simplified).toMatchObject({ nps_category: 'promoter', score: 9 });
		});

		it('End User Settings → Get and Segment → Get Many: ISO datetimes in 1.3; Simplify is offered only before 1.3', async () => {
			fake.account.segments.push({ name: 'plan', dataType: 'string', createdAt: fake.clock.now() });
			const settings = { resource: 'endUserSettings', operation: 'get', endUser: endUser() };

			const [settings13, settings12] = [
				await outputOf(1.3, settings),
				await outputOf(1.2, settings),
			];
			const segments13 = await outputOf(1.3, { resource: 'segment', operation: 'getAll' });
			const segments12 = await outputOf(1.2, { resource: 'segment', operation: 'getAll' });

			expect(settings13.created_at).toMatch(ISO_UTC);
			expect(settings12.created_at).not.toMatch(ISO_UTC);
			expect(Object.keys(settings13)).toEqual(Object.keys(settings12));
			expect(segments13.created_at).toMatch(ISO_UTC);
			expect(segments12.created_at).not.toMatch(ISO_UTC);
			const withSimplify = { ...settings, options: { simplify: true } };
			expect(await parametersAsLoaded(1.2, withSimplify)).toHaveProperty('options', {
				simplify: true,
			});
			expect(await parametersAsLoaded(1.3, withSimplify)).not.toHaveProperty('options');
		});

		it('End User → Delete: 1.3 answers { deleted: true } with the ID and email, 1.2 the marked record', async () => {
			const remove = { resource: 'endUser', operation: 'delete', endUser: endUser() };

			const run = await runAs(1.3)(remove);
			const old = await outputOf(1.2, remove);

			expect(run.error).toBeUndefined();
			expect(run.items).toEqual([
				{
					json: { success: true, deleted: true, id: ada.id, email: 'ada@example.com' },
					pairedItem: { item: 0 },
				},
			]);
			expect(ada.markedForDeletionAt).toBeDefined();
			expect(old).toMatchObject({
				id: ada.id,
				email: 'ada@example.com',
				properties: { plan: 'pro' },
			});
			expect(requestsSeen(fake).map(({ method, path }) => `${method} ${path}`)).toEqual([
				`DELETE /v1/end_users/${ada.id}`,
				`DELETE /v1/end_users/${ada.id}`,
			]);
		});
	});

	describe('parameters read once per run', () => {
		const twoPeople: InputItem[] = [
			{ json: { email: 'ada@example.com', subject: 'Hi' } },
			{ json: { email: 'grace@example.com', subject: 'Hello' } },
		];

		it.each([
			['Email Survey → Send: Combine Items', 'send', 'combineItems', '={{ false }}'],
			['Email Survey → Send From CSV: Source', 'sendCsv', 'source', "={{ 'items' }}"],
		])(
			'%s takes no expression from 1.3; 1.2 keeps the expression it was saved with',
			async (_, operation, name, expression) => {
				const { description } = (await loadPackage()).nodeTypes['n8n-nodes-wootric.wootric']
					.type as INodeType;
				const shownOn = (typeVersion: number) =>
					description.properties.filter(
						(property) =>
							property.name === name &&
							NodeHelpers.displayParameter(
								{ resource: 'emailSurvey', operation },
								property,
								{ typeVersion } as INode,
								description,
							),
					);
				const saved = { resource: 'emailSurvey', operation, [name]: expression };

				expect(shownOn(1.3).map((property) => property.noDataExpression)).toEqual([true]);
				expect(shownOn(1.2).map((property) => property.noDataExpression)).toEqual([undefined]);
				expect((await parametersAsLoaded(1.2, saved))[name]).toBe(expression);
				expect((await parametersAsLoaded(1.3, saved))[name]).toBe(expression.slice(1));
			},
		);

		it('Combine Items of a 1.2 node saved as an expression is still evaluated: one request per item', async () => {
			const run = await runAs(1.2)(
				{
					resource: 'emailSurvey',
					operation: 'send',
					emails: '={{ $json.email }}',
					combineItems: '={{ false }}',
				},
				{ inputItems: twoPeople },
			);

			expect(run.error).toBeUndefined();
			expect(fake.requestsTo('/v1/email_survey', 'POST')).toHaveLength(2);
		});

		const buildFromItems = {
			resource: 'emailSurvey',
			operation: 'sendCsv',
			source: 'items',
			csvEmail: '={{ $json.email }}',
			subject: '={{ $json.subject }}',
		};
		const surveyed = () =>
			fake.account.emailSurveys.map((survey) => ({
				subject: fake.requestsTo('/v1/email_survey_csv', 'POST')[0]?.body.subject,
				emails: survey.rows?.map((row) => row.email),
			}));

		it('Build From Items, 1.3: every item’s survey fields are read, and an item whose differ fails, naming the field', async () => {
			const stopped = await runAs(1.3)(buildFromItems, { inputItems: twoPeople });

			expect(stopped.error?.message).toBe(
				'Subject must be the same for every item when Source is Build From Items (one CSV is one survey); item 0 gives "Hi" (item 1: got "Hello")',
			);
			expect(fake.apiRequests()).toEqual([]);

			const run = await runAs(1.3)(buildFromItems, {
				inputItems: twoPeople,
				continueOnFail: true,
			});

			expect(
				run.items.map(({ json, pairedItem }) => [json.error ?? json.rows, pairedItem]),
			).toEqual([
				[stopped.error?.message, { item: 1 }],
				[{ from: 1, to: 1 }, [{ item: 0 }]],
			]);
			expect(surveyed()).toEqual([{ subject: 'Hi', emails: ['ada@example.com'] }]);
		});

		it('Build From Items, 1.3: items with the same survey fields make one CSV', async () => {
			const run = await runAs(1.3)(
				{ ...buildFromItems, subject: "={{ 'Hi ' + $input.first().json.subject }}" },
				{ inputItems: twoPeople },
			);

			expect(run.error).toBeUndefined();
			expect(surveyed()).toEqual([
				{ subject: 'Hi Hi', emails: ['ada@example.com', 'grace@example.com'] },
			]);
		});

		it('Build From Items, 1.2: as before, the first item’s survey fields for every row', async () => {
			const run = await runAs(1.2)(buildFromItems, { inputItems: twoPeople });

			expect(run.error).toBeUndefined();
			expect(surveyed()).toEqual([
				{ subject: 'Hi', emails: ['ada@example.com', 'grace@example.com'] },
			]);
		});
	});
});
