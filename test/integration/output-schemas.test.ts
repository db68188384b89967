import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeParameters, INodeType } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	createEndUser,
	seedDemoData,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import { loadPackage, REPO_ROOT, runNode } from '../harness';
import {
	SCHEMA_FOLDER,
	schemaFilesIn,
	versionFolder,
	type JsonSchema,
} from '../../scripts/output-schemas';
import { addRichEndUser, addRichRecords, misfits, schemaFields } from '../support/json-schema';
import { credentialsFor, OPERATIONS_ON_NO_RECORD } from '../support/wootric';

/**
 * The output schemas as n8n reads them, from dist (nodes/Wootric/__schema__, written by
 * scripts/output-schemas.ts) against what the node really outputs: every operation of every node
 * version runs through n8n's engine against the fake with the demo data, Simplify off and on, and
 * the list operations also as an agent's tool. Every field an item has must be in its schema with
 * its type, at any depth, and every field of a schema must be one some item had. A null value is
 * any type's (Wootric sends null for what a record lacks); the data is chosen so that every field
 * also comes with a value somewhere, where the fake's API gives one.
 */
const BUILT_SCHEMAS = path.join(REPO_ROOT, 'dist', SCHEMA_FOLDER);

const readSchema = (file: string) =>
	JSON.parse(readFileSync(path.join(BUILT_SCHEMAS, file), 'utf8')) as JsonSchema & {
		version: number;
	};

interface Run {
	file: string;
	/** What ran, for the message of a misfit. */
	label: string;
	items: unknown[];
}

describe('the output schemas', () => {
	let fake: FakeWootric;
	let versions: number[];
	/** Every operation of the node, as `<resource>/<operation>`. */
	let operations: string[];
	const runs: Run[] = [];
	const failedRuns: unknown[] = [];

	beforeAll(async () => {
		const { description } = (await loadPackage()).nodeTypes['n8n-nodes-wootric.wootric']
			.type as INodeType;
		versions = [description.version].flat();
		operations = description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.options as Array<{ value: string }>).map(
					({ value }) => `${property.displayOptions!.show!.resource![0]}/${value}`,
				),
			)
			.sort();

		fake = await startFakeWootric();
		seedDemoData(fake.store, fake.account);
		fake.account.historicalEditsEnabled = true;
		const now = fake.clock.now();
		const rich = addRichEndUser(fake);
		const { response, decline } = addRichRecords(fake, rich);

		let created = 0;
		// Every version reads its own fields: 1.2 the End User locator, earlier ones End User ID and
		// Look Up By; version 1 keeps a create's Simplify under Additional Fields.
		const endUser = (id: number) => ({
			lookUpBy: 'id',
			endUserId: id,
			endUser: { __rl: true, mode: 'id', value: String(id) },
		});
		const properties = { properties: { property: [{ name: 'plan', value: 'team' }] } };
		// Email Statistics reads a period around today: one email survey sent and one CSV upload in it
		// (Get Sources lists a send with every field).
		fake.account.emailSurveys.push(
			{ endpoint: 'email_survey', receivedAt: now - 600, emails: [rich.email], params: {} },
			{
				endpoint: 'email_survey_csv',
				receivedAt: now - 300,
				emails: ['csv@example.com'],
				fileName: 'survey.csv',
				params: {},
			},
		);
		const casesWith = (simplify: boolean): INodeParameters[] => [
			{
				resource: 'endUser',
				operation: 'create',
				email: `created${++created}@example.com`,
				additionalFields: {
					externalId: `crm-created-${created}`,
					lastSurveyed: '2026-01-05T10:00:00Z',
					externalCreatedAt: '2025-06-01T00:00:00Z',
					simplify,
				},
				...properties,
			},
			{
				resource: 'endUser',
				operation: 'update',
				...endUser(rich.id),
				updateFields: { externalId: 'crm-rich' },
				...properties,
			},
			{
				resource: 'endUser',
				operation: 'upsert',
				matchBy: 'email',
				email: rich.email,
				...properties,
			},
			{ resource: 'endUser', operation: 'get', ...endUser(rich.id) },
			{ resource: 'endUser', operation: 'getAll', returnAll: true },
			{ resource: 'endUser', operation: 'exportData', ...endUser(rich.id) },
			{
				resource: 'endUser',
				operation: 'delete',
				...endUser(
					createEndUser(fake.account, fake.store, `doomed${++created}@example.com`, {
						lastSurveyed: now - 3600,
						externalCreatedAt: now - 86400,
					}).id,
				),
			},
			{ resource: 'endUserSettings', operation: 'get', ...endUser(rich.id) },
			{
				resource: 'endUserSettings',
				operation: 'update',
				...endUser(rich.id),
				updateFields: { emailSurveys: true },
			},
			{
				resource: 'response',
				operation: 'create',
				...endUser(rich.id),
				score: 9,
				ipAddress: '203.0.113.9',
				originUrl: 'https://app.example.com/billing',
				additionalFields: { text: 'Better now.', simplify },
				endUserProperties: { property: [{ name: 'plan', value: 'pro' }] },
			},
			{ resource: 'response', operation: 'get', ...endUser(rich.id), responseId: response.id },
			{ resource: 'response', operation: 'getAll', scope: 'all', returnAll: true },
			{
				resource: 'response',
				operation: 'update',
				responseId: response.id,
				updateFields: { completed: true },
			},
			{
				resource: 'response',
				operation: 'delete',
				...endUser(rich.id),
				// Older than the response above, which stays the end user's last response.
				responseId: addResponse(fake.account, fake.store, {
					endUserId: rich.id,
					score: 5,
					createdAt: now - 7200,
				}).id,
			},
			{
				resource: 'decline',
				operation: 'create',
				...endUser(rich.id),
				additionalFields: { originUrl: 'https://app.example.com/settings', simplify },
			},
			{ resource: 'decline', operation: 'get', ...endUser(rich.id), declineId: decline.id },
			{ resource: 'decline', operation: 'getAll', scope: 'all', returnAll: true },
			{
				resource: 'decline',
				operation: 'update',
				declineId: decline.id,
				endUserPropertiesInput: 'json',
				endUserPropertiesJson: '{"plan":"pro"}',
			},
			{
				resource: 'decline',
				operation: 'delete',
				...endUser(rich.id),
				declineId: addDecline(fake.account, fake.store, { endUserId: rich.id }).id,
			},
			...OPERATIONS_ON_NO_RECORD,
		];

		for (const nodeTypeVersion of versions) {
			const folder = versionFolder(nodeTypeVersion);
			/** Runs one operation's parameters and records its items against its schema file. */
			const record = async (
				parameters: INodeParameters,
				simplify: boolean,
				account: { surveyType?: string } = {},
			) => {
				const run = await runNode({
					nodeType: 'wootric',
					nodeTypeVersion,
					parameters: { ...parameters, options: { simplify } },
					credentials: credentialsFor(fake, account),
				});
				const label = `version ${nodeTypeVersion}, ${parameters.resource} → ${parameters.operation}, Simplify ${simplify ? 'on' : 'off'}${account.surveyType ? `, ${account.surveyType}` : ''}`;
				if (run.error) failedRuns.push([label, run.error.message]);
				runs.push({
					file: `${folder}/${parameters.resource}/${parameters.operation}.json`,
					label,
					items: run.items.map((item) => item.json),
				});
			};
			for (const simplify of [false, true])
				for (const parameters of casesWith(simplify)) await record(parameters, simplify);
			// A CSAT account's responses carry score_category where an NPS account's carry nps_category
			// (the credential's Survey Type; CSAT 1–10 takes the scores given here).
			for (const parameters of casesWith(true).filter(
				({ resource, operation }) =>
					resource === 'response' && ['create', 'get', 'getAll'].includes(String(operation)),
			))
				await record(parameters, true, { surveyType: 'csat10' });
			// As an agent's tool, list operations output Raw or Simplified records (Selected Fields:
			// some of Simplified's).
			for (const resource of ['endUser', 'response', 'decline', 'segment', 'surveyTemplate']) {
				for (const output of ['raw', 'simplified']) {
					const run = await runNode({
						nodeType: 'wootricTool',
						nodeTypeVersion,
						parameters: { resource, operation: 'getAll', output },
						credentials: credentialsFor(fake),
						inputItems: [{ json: {} }],
					});
					const label = `version ${nodeTypeVersion}, ${resource} → getAll as a tool, Output ${output}`;
					const answer = run.items[0]?.json.answer;
					const items = Array.isArray(answer) ? answer : [];
					if (run.error || !Array.isArray(answer))
						failedRuns.push([label, run.error?.message ?? run.items[0]?.json]);
					runs.push({ file: `${folder}/${resource}/getAll.json`, label, items });
				}
			}
		}
	});
	afterAll(async () => await fake.close());

	it('exist for every version of the node and every operation, and nothing else', () => {
		// The files at the top are the triggers' (trigger-output-schemas.test.ts).
		expect(schemaFilesIn(BUILT_SCHEMAS).filter((file) => file.includes('/'))).toEqual(
			versions.flatMap((version) =>
				operations.map((operation) => `${versionFolder(version)}/${operation}.json`),
			),
		);
	});

	it('are in the form n8n reads: an object with fields, in format version 1', () => {
		for (const file of new Set(runs.map((run) => run.file))) {
			const { type, properties, version } = readSchema(file);
			expect({ file, type, version }).toEqual({ file, type: 'object', version: 1 });
			expect(Object.keys(properties ?? {}).length).toBeGreaterThan(0);
		}
	});

	it('come from runs of every operation without an error, each with output', () => {
		expect(failedRuns).toEqual([]);
		expect(runs.filter((run) => run.items.length === 0).map((run) => run.label)).toEqual([]);
	});

	it('hold every field the node outputs, with its type', () => {
		const wrong = runs.flatMap(({ file, label, items }) => {
			const schema = readSchema(file);
			return items.flatMap((item) =>
				misfits(item, schema, '', new Set()).map((misfit) => `${label}: ${misfit}`),
			);
		});
		expect(wrong).toEqual([]);
	});

	it('hold no field the node never outputs', () => {
		const seen = new Map<string, Set<string>>();
		for (const { file, items } of runs) {
			const paths = seen.get(file) ?? new Set<string>();
			seen.set(file, paths);
			for (const item of items) misfits(item, readSchema(file), '', paths);
		}
		const neverOutput = [...seen].flatMap(([file, paths]) =>
			schemaFields(readSchema(file))
				.filter((at) => !paths.has(at))
				.map((at) => `${file}: ${at}`),
		);
		expect(neverOutput).toEqual([]);
	});
});
