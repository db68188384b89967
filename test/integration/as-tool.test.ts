import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	addDecline,
	createEndUser,
	seedSurveyTemplates,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import { runNode } from '../harness';
import { SIMPLIFIED_TOOL_FIELDS as SIMPLIFIED } from '../support/tool-output';
import { credentialsFor, requestsSeen, seedResponses } from '../support/wootric';

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * The Wootric node as an AI agent's tool: its tool variant `wootricTool`, the type n8n gives a
 * node used as a tool, run through n8n-core as an agent runs it (the harness's Tool Caller gets
 * the tool with getInputConnectionData and calls it). n8n resolves `@tool` to true for that type:
 * list operations start with a Limit of 10 and output Simplified records.
 */
describe("as an AI agent's tool", () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	const call = async (
		parameters: INodeParameters,
		options: { nodeTypeVersion?: number; args?: IDataObject } = {},
	) => {
		const run = await runNode({
			nodeType: 'wootricTool',
			nodeTypeVersion: options.nodeTypeVersion,
			parameters,
			credentials: credentialsFor(fake),
			inputItems: [{ json: options.args ?? {} }],
		});
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		return run.items[0].json as { description: string; answer?: IDataObject[]; error?: string };
	};
	const runPlain = async (parameters: INodeParameters, nodeTypeVersion?: number) =>
		await runNode({
			nodeType: 'wootric',
			nodeTypeVersion,
			parameters,
			credentials: credentialsFor(fake),
		});
	const getManyResponses = { resource: 'response', operation: 'getAll' };

	describe('Get Many responses', () => {
		it.each([1, 1.1, 1.2])(
			'version %s: reads 10 responses with one page request and answers them Simplified',
			async (nodeTypeVersion) => {
				seedResponses(fake, 120);

				const { description, answer } = await call(getManyResponses, { nodeTypeVersion });

				expect(description).toBe(
					'Get many responses in Wootric: survey answers, of everyone or of one end user, newest first. Returns one record per response: score, its category, comment, end user, date.',
				);
				expect(
					requestsSeen(fake).map(({ method, path, rawQuery }) => [method, path, rawQuery]),
				).toEqual([
					['GET', '/v1/responses', 'sort_key=created_at&sort_order=desc&page=1&per_page=50'],
				]);
				expect(answer).toHaveLength(10);
				for (const record of answer!) {
					expect(Object.keys(record)).toEqual(SIMPLIFIED.responses);
					expect(record.created_at).toMatch(ISO_UTC);
				}
				const newest = [...fake.account.responses.values()]
					.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
					.slice(0, 10);
				expect(answer!.map(({ id, score, nps_category }) => ({ id, score, nps_category }))).toEqual(
					newest.map(({ id, score }) => ({
						id,
						score,
						nps_category: score <= 6 ? 'detractor' : score <= 8 ? 'passive' : 'promoter',
					})),
				);
			},
		);

		it('outside a tool the same parameters read 50 raw responses, as before', async () => {
			seedResponses(fake, 120);

			// Version 1.2: from 1.3 every response has its nps_category, also outside a tool.
			const run = await runPlain(
				{
					...getManyResponses,
					output: 'selected',
					outputFields: ['score'],
				},
				1.2,
			);

			expect(run.items).toHaveLength(50);
			expect(run.items[0].json).not.toHaveProperty('nps_category');
			expect(Object.keys(run.items[0].json)).toEqual(
				expect.arrayContaining(['ip_address', 'origin_url', 'end_user', 'survey_id']),
			);
		});

		it('Raw answers the records as Wootric returns them', async () => {
			seedResponses(fake, 30);
			const plain = await runPlain({ ...getManyResponses, limit: 10 });

			const { answer } = await call({ ...getManyResponses, output: 'raw' });

			expect(answer).toEqual(plain.items.map((item) => item.json));
		});

		it('Selected Fields answers the id and the fields picked, datetimes in ISO 8601', async () => {
			seedResponses(fake, 30);

			const { answer } = await call({
				...getManyResponses,
				output: 'selected',
				outputFields: ['score', 'created_at', 'nps_category'],
			});

			expect(answer).toHaveLength(10);
			for (const record of answer!) {
				expect(Object.keys(record)).toEqual(['id', 'score', 'created_at', 'nps_category']);
				expect(record.created_at).toMatch(ISO_UTC);
			}
		});

		it("a Limit from the model ($fromAI) and Return All are the tool's to set", async () => {
			seedResponses(fake, 120);

			const limited = await call(
				{ ...getManyResponses, limit: "={{ $fromAI('limit', 'How many at most', 'number') }}" },
				{ args: { limit: 3 } },
			);
			const all = await call({ ...getManyResponses, returnAll: true });

			expect(limited.answer).toHaveLength(3);
			expect(all.answer).toHaveLength(120);
		});

		it('a tool saved with Simplify on (before Output) answers Simplified records', async () => {
			seedResponses(fake, 30);

			const { answer } = await call(
				{ ...getManyResponses, options: { simplify: true } },
				{ nodeTypeVersion: 1.1 },
			);

			expect(answer).toHaveLength(10);
			expect(Object.keys(answer![0])).toEqual(SIMPLIFIED.responses);
		});
	});

	it('Get Many declines and end users: 10, Simplified', async () => {
		const ada = createEndUser(fake.account, fake.store, 'ada@example.com');
		for (let index = 0; index < 12; index++) {
			createEndUser(fake.account, fake.store, `person${index}@example.com`);
			addDecline(fake.account, fake.store, { endUserId: ada.id });
		}

		const declines = await call({ resource: 'decline', operation: 'getAll' });
		const endUsers = await call({ resource: 'endUser', operation: 'getAll' });

		expect(declines.description).toBe(
			'Get many declines in Wootric: refused NPS surveys, of everyone or of one end user, newest first. Returns one record per decline: its ID, the end user, the date.',
		);
		expect(declines.answer!.map((record) => Object.keys(record))).toEqual(
			Array(10).fill(SIMPLIFIED.declines),
		);
		expect(endUsers.answer).toHaveLength(10);
		for (const record of endUsers.answer!) {
			expect(SIMPLIFIED.endUsers).toEqual(expect.arrayContaining(Object.keys(record)));
			expect(record).toHaveProperty('email');
		}
		expect(requestsSeen(fake).map(({ path, rawQuery }) => `${path}?${rawQuery}`)).toEqual([
			'/v1/declines?sort_key=created_at&sort_order=desc&page=1&per_page=50',
			'/v1/end_users?sort_key=created_at&sort_order=asc&page=1&per_page=50',
		]);
	});

	it('Get Many segments and survey templates: Simplified and Selected Fields', async () => {
		fake.account.segments.push({ name: 'plan', dataType: 'string', createdAt: fake.clock.now() });
		seedSurveyTemplates(fake.account);

		const segments = await call({ resource: 'segment', operation: 'getAll' });
		const templates = await call({
			resource: 'surveyTemplate',
			operation: 'getAll',
			output: 'selected',
			outputFields: ['is_default'],
		});

		expect(segments.answer).toEqual([
			{ name: 'plan', data_type: 'string', created_at: expect.stringMatching(ISO_UTC) },
		]);
		expect(templates.answer!.length).toBeGreaterThan(1);
		expect(templates.answer!.map((record) => Object.keys(record))).toEqual(
			templates.answer!.map(() => ['id', 'is_default']),
		);
		expect(templates.answer!.filter((record) => record.is_default)).toHaveLength(1);
	});

	it("the model reads the Tool Description the user wrote, or, left empty, n8n's automatic one; tools saved before read theirs", async () => {
		seedResponses(fake, 3);

		const written = await call({
			...getManyResponses,
			toolDescription: 'The newest NPS answers of our customers',
		});
		const empty = await call({ ...getManyResponses, toolDescription: '' });
		// Saved before the node had its own Tool Description, with n8n's pair.
		const savedAuto = await call({ ...getManyResponses, descriptionType: 'auto' });
		const savedManual = await call({
			...getManyResponses,
			descriptionType: 'manual',
			toolDescription: 'Answers of the last surveys',
		});

		expect(written.description).toBe('The newest NPS answers of our customers');
		expect(empty.description).toBe('Get many responses in Wootric');
		expect(savedAuto.description).toMatch(/^Get many responses in Wootric: .+\. Returns /);
		expect(savedManual.description).toBe('Answers of the last surveys');
	});

	it('an error answers the model in one short line naming the field or the record', async () => {
		const missing = await call(
			{
				resource: 'response',
				operation: 'getAll',
				scope: 'endUser',
				endUserId: 999999,
			},
			{ nodeTypeVersion: 1.1 },
		);
		const badLimit = await call({ ...getManyResponses, limit: 0 });
		const badOutput = await call({ ...getManyResponses, output: '={{ "everything" }}' });

		expect(missing.error).toBe(
			'The end user 999999 was not found in Wootric\n\nDetails: Wootric says: The record could not be found.',
		);
		expect(badLimit.error).toBe('Limit must be a whole number of at least 1 (item 0: got 0)');
		expect(badOutput.error).toBe(
			'Output must be raw, simplified or selected (item 0: got "everything")',
		);
	});
});
