import { join } from 'node:path';

import type { IDataObject, INode, INodeType, IVersionedNodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { readWorkflows, type WorkflowFile } from '../../scripts/e2e/workflow-files';
import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	seedSurveyTemplates,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import {
	loadPackage,
	runNode,
	runPoll,
	startWebhookTrigger,
	type InputItem,
	type NodeRun,
	type NodeUnderTestOptions,
} from '../harness';
import { webhookCredentialsFor } from '../support/webhooks';
import { credentialsFor, requestsSeen, updatedSinceQuery } from '../support/wootric';

/**
 * Workflows as n8n's editor exports them, one per node type and version: the parameters are what
 * that version's editor saved (values that differ from the defaults). Wootric 1 and Wootric
 * Trigger 1 were saved with 0.2.0, the last release (they are all it had); Wootric 1.1 and 1.2,
 * Wootric Trigger 1.1 and the Wootric Webhook Trigger came after it, so theirs are what the
 * current editor saves. Each must load and run unchanged.
 */
const SAVED_WORKFLOWS = readWorkflows(join(__dirname, '..', 'fixtures', 'saved-workflows'));
const PACKAGE_PREFIX = 'n8n-nodes-wootric.';

const packageNodes = (workflow: WorkflowFile) =>
	(workflow.nodes as INode[]).filter((node) => node.type.startsWith(PACKAGE_PREFIX));

/** The saved workflow whose nodes of this package are of that type and version. */
function savedWith(nodeName: string, typeVersion: number): WorkflowFile {
	const found = SAVED_WORKFLOWS.filter((workflow) =>
		packageNodes(workflow).every(
			(node) => node.type === PACKAGE_PREFIX + nodeName && node.typeVersion === typeVersion,
		),
	);
	expect(found).toHaveLength(1);
	return found[0];
}

function versionsOf(nodeType: INodeType | IVersionedNodeType): number[] {
	if ('nodeVersions' in nodeType) return Object.keys(nodeType.nodeVersions).map(Number);
	return [nodeType.description.version].flat();
}

describe('workflows saved with the last release and the current editor', () => {
	const saved = SAVED_WORKFLOWS.flatMap((workflow) =>
		packageNodes(workflow).map((node) => ({ title: `${workflow.name}: ${node.name}`, node })),
	);

	it('cover every node type and version the package declares, and only those', async () => {
		const { nodeTypes } = await loadPackage();
		const declared = Object.entries(nodeTypes).flatMap(([type, loaded]) =>
			versionsOf(loaded.type).map((version) => `${type} ${version}`),
		);

		expect(
			[...new Set(saved.map(({ node }) => `${node.type} ${node.typeVersion}`))].sort(),
		).toEqual(declared.sort());
	});

	it.each(saved)('$title keeps every saved parameter and its credential', async ({ node }) => {
		const { nodeTypes, credentialTypes } = await loadPackage();
		expect(Object.keys(nodeTypes)).toContain(node.type);
		const { description } = NodeHelpers.getVersionedNodeType(
			nodeTypes[node.type].type,
			node.typeVersion,
		);
		expect([description.version].flat()).toContain(node.typeVersion);

		// As n8n reads a node when it opens or runs the workflow: what the description no longer
		// shows for this version is dropped.
		const read = NodeHelpers.getNodeParameters(
			description.properties,
			node.parameters,
			true,
			false,
			node,
			description,
		);
		expect(read).toMatchObject(node.parameters);

		const credentialNames = Object.keys(node.credentials ?? {});
		expect(credentialNames).toEqual(description.credentials?.map(({ name }) => name));
		expect(Object.keys(credentialTypes)).toEqual(expect.arrayContaining(credentialNames));
	});
});

describe('saved workflows run unchanged against the API', () => {
	let fake: FakeWootric;

	beforeEach(async () => {
		fake = await startFakeWootric();
	});
	afterEach(async () => await fake.close());

	/** The harness options that run a saved node as it was saved, with its credential's type. */
	const asSaved = (node: INode) =>
		({
			nodeType: node.type.slice(PACKAGE_PREFIX.length),
			nodeTypeVersion: node.typeVersion,
			parameters: node.parameters,
			credentialType: Object.keys(node.credentials ?? {})[0],
		}) satisfies NodeUnderTestOptions;

	/**
	 * Runs a chain of nodes as a manual execution does, from the node nothing leads to along each
	 * node's first output: every node of this package through n8n's engine with the items the one
	 * before it output (the Manual Trigger's one empty item at first). Each must succeed.
	 */
	async function runChain(workflow: WorkflowFile): Promise<Record<string, NodeRun>> {
		const nodes = workflow.nodes as INode[];
		const connections = workflow.connections as Record<string, { main: Array<{ node: string }[]> }>;
		const targets = Object.values(connections).flatMap(({ main }) => main.flat());
		let node = nodes.find(({ name }) => !targets.some((target) => target.node === name));
		let items: InputItem[] = [{ json: {} }];
		const runs: Record<string, NodeRun> = {};
		while (node) {
			if (node.type.startsWith(PACKAGE_PREFIX)) {
				const run = await runNode({
					...asSaved(node),
					credentials: credentialsFor(fake),
					inputItems: items,
				});
				expect(run.error).toBeUndefined();
				runs[node.name] = run;
				items = run.items.map(({ json }) => ({ json }));
			}
			const next = connections[node.name]?.main[0]?.[0]?.node;
			node = nodes.find(({ name }) => name === next);
		}
		return runs;
	}

	/**
	 * The saved Wootric Webhook Trigger of `typeVersion`, published, the fake sending its webhooks to
	 * it; the caller closes it.
	 */
	async function publishSaved(typeVersion: number) {
		const [node] = packageNodes(savedWith('wootricWebhookTrigger', typeVersion));
		const trigger = await startWebhookTrigger({
			...asSaved(node),
			credentials: webhookCredentialsFor(fake),
		});
		try {
			await trigger.activate();
		} catch (error) {
			await trigger.close();
			throw error;
		}
		fake.outgoingWebhooks.register({ url: trigger.productionUrl });
		return trigger;
	}

	/** Each data request the fake received: method, path and query, body, status. */
	const requestsReceived = () =>
		requestsSeen(fake).map(
			({ method, path, rawQuery, rawBody, status }) =>
				`${method} ${path}${rawQuery ? `?${rawQuery}` : ''} ${rawBody} ${status}`,
		);
	const ISO_SECONDS = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

	it('Wootric 1 (0.2.0): finds the end user by email, records a score with Simplify under Additional Fields', async () => {
		const margaret = createEndUser(fake.account, fake.store, 'margaret@example.com');

		const runs = await runChain(savedWith('wootric', 1));

		expect(requestsReceived()).toEqual([
			'GET /v1/end_users/margaret%40example.com?lookup_by_email=true  200',
			`POST /v1/end_users/${margaret.id}/responses score=3&ip_address=203.0.113.7&origin_url=https%3A%2F%2Fapp.example.com%2Freports&text=Exports%20time%20out 201`,
		]);
		expect(runs['Record a Score of 3'].items.map(({ json }) => json)).toEqual([
			expect.objectContaining({
				end_user_id: margaret.id,
				score: 3,
				text: 'Exports time out',
				nps_category: 'detractor',
				created_at: ISO_SECONDS,
			}),
		]);
	});

	it('Wootric 1.1: finds the end user by external ID, records a decline with Simplify under Options', async () => {
		const margaret = createEndUser(fake.account, fake.store, 'margaret@example.com', {
			externalId: 'crm-1042',
		});

		const runs = await runChain(savedWith('wootric', 1.1));

		expect(requestsReceived()).toEqual([
			'GET /v1/end_users/crm-1042?lookup_by_external_id=true  200',
			`POST /v1/end_users/${margaret.id}/declines origin_url=https%3A%2F%2Fapp.example.com%2Fbilling 201`,
		]);
		expect(runs['Record the Decline'].items.map(({ json }) => json)).toEqual([
			expect.objectContaining({
				end_user_id: margaret.id,
				origin_url: 'https://app.example.com/billing',
				created_at: ISO_SECONDS,
			}),
		]);
	});

	it('Wootric 1.2: finds the end user By Email, surveys her with the template picked From List', async () => {
		createEndUser(fake.account, fake.store, 'margaret@example.com');
		seedSurveyTemplates(fake.account);

		const runs = await runChain(savedWith('wootric', 1.2));

		expect(requestsReceived()).toEqual([
			'GET /v1/end_users/margaret%40example.com?lookup_by_email=true  200',
			'POST /v1/email_survey emails[]=margaret%40example.com&subject=How%20are%20we%20doing%3F&survey_settings[language]=ES&survey_settings[survey_template_id]=502 200',
		]);
		expect(runs['Send the Survey'].items.map(({ json }) => json)).toEqual([
			expect.objectContaining({ emails: ['margaret@example.com'], status: 'scheduled' }),
		]);
	});

	it("Wootric Trigger 1 (0.2.0): the first poll emits the commented detractors and declines since Start From, in the workflow's time zone", async () => {
		const workflow = savedWith('wootricTrigger', 1);
		const [trigger] = packageNodes(workflow);
		// Start From 2026-11-20T09:00:00 in Europe/Berlin.
		const startFrom = Date.UTC(2026, 10, 20, 8, 0, 0) / 1000;
		const margaret = createEndUser(fake.account, fake.store, 'margaret@example.com');
		const respond = (minutes: number, score: number, text: string | null) =>
			addResponse(fake.account, fake.store, {
				endUserId: margaret.id,
				score,
				text,
				createdAt: startFrom + minutes * 60,
			});
		respond(-1, 2, 'Before Start From');
		const commented = respond(1, 3, 'Exports time out');
		respond(2, 4, null);
		respond(3, 10, 'Love it');
		const declined = addDecline(fake.account, fake.store, {
			endUserId: margaret.id,
			createdAt: startFrom + 4 * 60,
		});

		const poll = await runPoll({
			...asSaved(trigger),
			credentials: credentialsFor(fake),
			mode: 'trigger',
			staticData: {},
			timezone: (workflow.settings as { timezone: string }).timezone,
		});

		expect(poll.error).toBeUndefined();
		expect(requestsReceived()).toEqual([
			`GET /v1/responses?${updatedSinceQuery(startFrom)}  200`,
			`GET /v1/declines?${updatedSinceQuery(startFrom)}  200`,
			`GET /v1/end_users/${margaret.id}  200`,
		]);
		const withMargaret = expect.objectContaining({ email: 'margaret@example.com' });
		expect(poll.result?.[0].map(({ json }) => json)).toEqual([
			expect.objectContaining({
				event: 'response',
				id: commented.id,
				nps_category: 'detractor',
				created_at: '2026-11-20T08:01:00.000Z',
				end_user: withMargaret,
			}),
			expect.objectContaining({
				event: 'decline',
				id: declined.id,
				created_at: '2026-11-20T08:04:00.000Z',
				end_user: withMargaret,
			}),
		]);
	});

	it("Wootric Trigger 1.1: Simplify keeps the main fields, a commented detractor's with nps_category and ISO times; an uncommented one waits for its comment", async () => {
		const workflow = savedWith('wootricTrigger', 1.1);
		const [trigger] = packageNodes(workflow);
		// Start From 2026-11-20T09:00:00 in Europe/Berlin.
		const startFrom = Date.UTC(2026, 10, 20, 8, 0, 0) / 1000;
		const margaret = createEndUser(fake.account, fake.store, 'margaret@example.com');
		const respond = (createdAt: number, score: number, text: string | null, completed = true) =>
			addResponse(fake.account, fake.store, {
				endUserId: margaret.id,
				score,
				text,
				completed,
				createdAt,
			});
		respond(startFrom - 60, 2, 'Before Start From');
		const commented = respond(startFrom + 60, 3, 'Exports time out');
		respond(startFrom + 180, 10, 'Love it');
		// Not complete and younger than the saved Treat as Complete After (10): held.
		const held = respond(fake.clock.now() - 60, 1, null, false);
		const staticData: IDataObject = {};

		const poll = await runPoll({
			...asSaved(trigger),
			credentials: credentialsFor(fake),
			mode: 'trigger',
			staticData,
			timezone: (workflow.settings as { timezone: string }).timezone,
		});

		expect(poll.error).toBeUndefined();
		expect(requestsReceived()).toEqual([
			`GET /v1/responses?${updatedSinceQuery(startFrom)}  200`,
			`GET /v1/end_users/${margaret.id}  200`,
		]);
		expect(poll.result?.[0].map(({ json }) => json)).toEqual([
			{
				event: 'response',
				idempotency_key: `response:${commented.id}`,
				id: commented.id,
				end_user_id: margaret.id,
				score: 3,
				nps_category: 'detractor',
				text: 'Exports time out',
				completed: true,
				excluded_from_calculations: false,
				tags: [],
				created_at: '2026-11-20T08:01:00.000Z',
				updated_at: '2026-11-20T08:01:00.000Z',
				end_user: expect.objectContaining({ email: 'margaret@example.com' }),
			},
		]);
		expect(staticData.responses).toMatchObject({ waiting: [[held.id, held.createdAt]] });
	});

	it('Wootric Webhook Trigger 1.1: without Simplify, every field, with nps_category; responses left out of NPS included', async () => {
		const margaret = createEndUser(fake.account, fake.store, 'margaret@example.com');
		const trigger = await publishSaved(1.1);
		try {
			const detractor = addResponse(fake.account, fake.store, {
				endUserId: margaret.id,
				score: 5,
				text: 'Exports time out',
				excludedFromCalculations: true,
			});
			// Above the saved Maximum Score (6).
			addResponse(fake.account, fake.store, { endUserId: margaret.id, score: 9 });
			const declined = addDecline(fake.account, fake.store, { endUserId: margaret.id });
			await fake.outgoingWebhooks.settled();

			expect(trigger.executions.flatMap(({ items }) => items.map(({ json }) => json))).toEqual([
				expect.objectContaining({
					event: 'response',
					id: detractor.id,
					nps_category: 'detractor',
					excluded_from_calculations: true,
					ip_address: '203.0.113.7',
					origin_url: 'https://app.example.com/',
					survey_id: detractor.surveyId,
					created_at: ISO_SECONDS,
				}),
				expect.objectContaining({
					event: 'decline',
					id: declined.id,
					survey_id: declined.surveyId,
					created_at: ISO_SECONDS,
				}),
			]);
			expect(requestsReceived()).toEqual([]);
		} finally {
			await trigger.close();
		}
	});

	it('Wootric Webhook Trigger 1: published, it starts the workflow for the commented detractors the service sends, within Max Age', async () => {
		const margaret = createEndUser(fake.account, fake.store, 'margaret@example.com');
		const respond = (score: number, text: string | null = null) =>
			addResponse(fake.account, fake.store, { endUserId: margaret.id, score, text });
		const trigger = await publishSaved(1);
		try {
			const commented = respond(2, 'Exports time out');
			respond(10, 'Love it');
			// A comment 7 minutes after the score: within the saved Treat as Complete After (10).
			const commentedLater = respond(4);
			await fake.outgoingWebhooks.settled();
			changeResponse(
				fake.account,
				fake.store,
				commentedLater.id,
				{ text: 'Support never answered' },
				commentedLater.createdAt + 7 * 60,
			);
			// Sent 40 minutes ago: older than the saved Max Age (30).
			fake.clock.advance(-40 * 60);
			respond(1, 'Crashes');
			await fake.outgoingWebhooks.settled();

			expect(fake.outgoingWebhooks.deliveries.map(({ status }) => status)).toEqual([
				200, 200, 200, 200, 200,
			]);
			expect(trigger.executions.flatMap(({ items }) => items.map(({ json }) => json))).toEqual([
				expect.objectContaining({
					event: 'response',
					id: commented.id,
					nps_category: 'detractor',
					created_at: ISO_SECONDS,
				}),
				expect.objectContaining({
					event: 'response',
					id: commentedLater.id,
					text: 'Support never answered',
					nps_category: 'detractor',
				}),
				// Its Response Updated too, under its own key (the rule both triggers share).
				expect.objectContaining({
					event: 'responseUpdated',
					id: commentedLater.id,
					text: 'Support never answered',
				}),
			]);
			// The trigger only receives: it asks the API nothing.
			expect(requestsReceived()).toEqual([]);
		} finally {
			await trigger.close();
		}
	});
});
