/**
 * The package in n8n's editor, in a real browser, as a new user meets it: log in, find Wootric in
 * the nodes panel, create the credential, open every resource × operation, pick from the lists the
 * account fills, run a node and both triggers. Debian's Chromium driven by playwright-core, against
 * the real n8n the e2e provisions (the pinned version unless E2E_N8N_VERSION says otherwise) and the
 * fake Wootric API. Screenshots go to E2E_SCREENSHOTS_DIR (`npm run screenshots`: docs/screenshots)
 * or the suite's work folder.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	NodeHelpers,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { startN8nWithPackage, type N8nWithPackage } from '../../scripts/e2e/n8n-with-package';
import { EXAMPLES_FOLDER, REPO_ROOT } from '../../scripts/e2e/paths';
import { waitFor } from '../../scripts/e2e/processes';
import type { TicketServer } from '../../scripts/e2e/ticket-server';
import { readWorkflows, type WorkflowFile } from '../../scripts/e2e/workflow-files';
import { SCHEMA_FOLDER, versionFolder } from '../../scripts/output-schemas';
import { Wootric } from '../../nodes/Wootric/Wootric.node';
import { WootricTrigger } from '../../nodes/Wootric/WootricTrigger.node';
import { WootricWebhookTrigger } from '../../nodes/Wootric/WootricWebhookTrigger.node';
import { addResponse, type FakeWootric } from '../fake';
import { encodeWebhook, responsePayload, signWebhook } from '../fake/webhook-body';
import { e2eSuite } from '../e2e/suite';
import { example, ticketExamplesSetUp, TICKET_EXAMPLES } from '../e2e-tickets/tools';
import { Editor } from './editor';

const OWNER = { email: 'browser-owner@example.com', password: 'Browser-owner-password-1' };
const HEADLINE_WORKFLOW = 'exNewDetractor';

const ACTION_NODE = new Wootric().description;
const NODE_VERSION = ACTION_NODE.defaultVersion ?? 1;
const triggerName = (description: INodeTypeDescription) =>
	description.displayName.replace(/ Trigger$/, '');

/**
 * A Wootric node that has never run (Response → Get, the default version) and a node after it,
 * whose input panel can only show the Wootric node's fields from its output schema.
 */
const FIELD_PREVIEW_NODES: Array<WorkflowFile['nodes'][number] & { typeVersion: number }> = [
	{
		id: 'e2e-field-preview-start',
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	},
	{
		id: 'e2e-field-preview-wootric',
		name: 'Wootric',
		type: 'n8n-nodes-wootric.wootric',
		typeVersion: NODE_VERSION,
		position: [220, 0],
		parameters: { resource: 'response', operation: 'get' },
	},
	{
		id: 'e2e-field-preview-next',
		name: 'Next',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [440, 0],
		parameters: {},
	},
];
const FIELD_PREVIEW_WORKFLOW: WorkflowFile = {
	id: 'e2eFieldPreview',
	name: 'Field preview',
	nodes: FIELD_PREVIEW_NODES,
	connections: {
		Start: { main: [[{ node: 'Wootric', type: 'main', index: 0 }]] },
		Wootric: { main: [[{ node: 'Next', type: 'main', index: 0 }]] },
	},
	active: false,
	settings: {},
};
const previewedSchema = JSON.parse(
	readFileSync(
		join(REPO_ROOT, SCHEMA_FOLDER, versionFolder(NODE_VERSION), 'response', 'get.json'),
		'utf8',
	),
) as { properties: Record<string, unknown> };

let fake: FakeWootric;
let tickets: TicketServer;
let demo: N8nWithPackage;
let editor: Editor;
let screenshots: string;

const { step } = e2eSuite({
	label: 'browser',
	start: async (services) => {
		({ fake, tickets } = services);
		screenshots =
			process.env.E2E_SCREENSHOTS_DIR ?? join(services.n8nOptions.workFolder, 'screenshots');
		mkdirSync(screenshots, { recursive: true });
		// The ticket examples as a user sets them up (their project, channel, subdomain): as shipped,
		// n8n marks the nodes that need it (test/unit/ticket-examples.test.ts).
		const ticketExamples = ticketExamplesSetUp();
		const setUpIds = new Set(ticketExamples.workflows.map((workflow) => workflow.id));
		demo = await startN8nWithPackage({
			...services.n8nOptions,
			owner: OWNER,
			credentials: ticketExamples.credentials,
			workflows: [
				...readWorkflows(EXAMPLES_FOLDER).filter((workflow) => !setUpIds.has(workflow.id)),
				...ticketExamples.workflows,
				FIELD_PREVIEW_WORKFLOW,
			],
		});
		editor = await Editor.open(demo.n8n.baseUrl);
	},
	stop: async () => {
		await editor?.close();
		await demo?.n8n.stop();
	},
	logTails: () =>
		demo
			? `--- n8n log, last 40 lines (${demo.n8n.logFile}) ---\n${demo.n8n.logTail(40)}`
			: undefined,
	stopTimeoutMs: 60_000,
});

const options = (property: INodeProperties) => (property.options ?? []) as INodePropertyOptions[];
const property = (name: string, values: Record<string, unknown> = {}) => {
	const found = ACTION_NODE.properties.find(
		(candidate) =>
			candidate.name === name &&
			NodeHelpers.displayParameter(
				values as never,
				candidate,
				{ typeVersion: NODE_VERSION },
				ACTION_NODE,
			),
	);
	if (!found) throw new Error(`The node has no ${name} shown for ${JSON.stringify(values)}`);
	return found;
};

/**
 * The parameters n8n must show for a resource and operation: every top-level one the node's
 * description displays with the defaults of the others, as n8n decides it (notices have no label).
 */
function expectedParameters(resource: string, operation: string): string[] {
	const node = { typeVersion: NODE_VERSION };
	const values =
		NodeHelpers.getNodeParameters(
			ACTION_NODE.properties,
			{ resource, operation },
			true,
			false,
			node,
			ACTION_NODE,
		) ?? {};
	return ACTION_NODE.properties
		.filter((candidate) => !['hidden', 'notice'].includes(candidate.type))
		.filter((candidate) => NodeHelpers.displayParameter(values, candidate, node, ACTION_NODE))
		.map((candidate) => candidate.name);
}

describe('a new user in the editor', () => {
	step('logs in', async () => {
		await editor.logIn(OWNER.email, OWNER.password);
		expect(editor.page.url()).not.toContain('signin');
	});

	step(
		'creates the credential: each authentication type shows its fields; Test fails with the service’s message for a wrong password and succeeds with the right one',
		async () => {
			const { page } = editor;
			await page.goto(`${demo.n8n.baseUrl}/home/credentials`);
			await page.getByTestId('add-resource-credential').click();
			await page.getByTestId('new-credential-type-select').locator('input').fill('Wootric');
			await page
				.getByTestId('new-credential-type-select-option')
				.filter({ hasText: 'Wootric API' })
				.click();
			await page.getByTestId('new-credential-type-button').click();
			const dialog = page.getByTestId('credential-edit-dialog');
			const fieldNames = async () =>
				(
					await dialog
						.locator('[data-test-id^="parameter-input-"]:visible')
						.evaluateAll((inputs) => inputs.map((input) => input.getAttribute('data-test-id')))
				)
					.map((id) => id!.replace('parameter-input-', ''))
					.filter((name) => name !== 'field');

			await editor.pick(dialog, 'grantType', 'Client Credentials');
			expect(await fieldNames()).toEqual(expect.arrayContaining(['clientId', 'clientSecret']));
			expect(await fieldNames()).not.toContain('email');
			await editor.pick(dialog, 'grantType', 'Password');
			expect(await fieldNames()).toEqual(expect.arrayContaining(['email', 'password']));
			expect(await fieldNames()).not.toContain('clientId');

			await dialog
				.getByTestId('parameter-input-email')
				.locator('input')
				.fill(fake.credentials.email);
			await dialog
				.getByTestId('parameter-input-password')
				.locator('input')
				.fill('not the password');
			await editor.pick(dialog, 'region', 'Custom Base URL');
			await dialog.getByTestId('parameter-input-baseUrl').locator('input').fill(fake.baseUrl);
			await dialog
				.getByTestId('parameter-input-webhookSecret')
				.locator('input')
				.fill(fake.credentials.webhookSecret);
			await page.getByTestId('credential-save-button').click();
			await dialog.getByText('More details').click();
			await expect(
				dialog.getByText(/^Wootric refused the sign-in \(400: .*wrong email or password/).waitFor(),
			).resolves.toBeUndefined();

			await dialog
				.getByTestId('parameter-input-password')
				.locator('input')
				.fill(fake.credentials.password);
			await page.getByTestId('credential-save-button').click();
			await page
				.getByTestId('credentials-config-container-test-success')
				.getByText('Connection tested successfully')
				.waitFor();
			await editor.screenshot(screenshots, 'credential');
			await page.keyboard.press('Escape');
			expect(editor.takeConsoleErrors()).toEqual([]);
		},
	);

	step(
		'finds Wootric in the nodes panel; the polling trigger’s Fetch Test Event shows a response',
		async () => {
			const { page } = editor;
			await page.goto(`${demo.n8n.baseUrl}/workflow/new`);
			await page.getByTestId('canvas-add-button').click();
			const found = await editor.searchNodes('Wootric');
			await found.filter({ hasText: 'Wootric Webhook' }).waitFor();
			expect(await page.getByTestId('node-creator-item-name').allInnerTexts()).toEqual(
				expect.arrayContaining([
					triggerName(new WootricTrigger().description),
					triggerName(new WootricWebhookTrigger().description),
				]),
			);
			await editor.openNodeEntry(triggerName(new WootricTrigger().description));
			await editor.chooseAction('On response created');
			await editor.waitForNodeCredential();
			await page.getByTestId('trigger-execute-button').click();
			await editor.waitForOutputItems(1);
			await page.getByTestId('ndv-close-button').click();
			expect(editor.takeConsoleErrors()).toEqual([]);
		},
	);

	step(
		'adds the Wootric node: its actions list every operation; Get Many, named "Get many responses", runs and shows the responses',
		async () => {
			const { page } = editor;
			await page.getByTestId('canvas-handle-plus').click();
			await editor.searchNodes('Wootric');
			await editor.openNodeEntry('Wootric');
			const actions = ACTION_NODE.properties
				.filter((candidate) => candidate.name === 'operation')
				.flatMap(options)
				.map((option) => option.action ?? option.name);
			for (const action of actions) await editor.actionEntry(action).waitFor();
			await editor.screenshot(screenshots, 'operations');

			await editor.chooseAction(
				options(property('operation', { resource: 'response' })).find(
					(option) => option.value === 'getAll',
				)!.action!,
			);
			// n8n names a new node after its operation's action.
			await editor.waitForNodeName('Get many responses');
			await editor.waitForNodeCredential();
			await editor.ndv.getByTestId('node-execute-button').click();
			await editor.waitForOutputItems(Math.min(50, fake.account.responses.size));
			await editor.waitForNoNodeIssues();
			expect(editor.takeConsoleErrors()).toEqual([]);
		},
	);

	step(
		'opens every resource × operation and sees its fields, with no error in the console',
		async () => {
			const seen: string[] = [];
			for (const resource of options(property('resource'))) {
				await editor.pick(editor.ndv, 'resource', resource.name);
				const operations = options(property('operation', { resource: resource.value }));
				for (const operation of operations) {
					await editor.pick(editor.ndv, 'operation', operation.name);
					await expect(editor.shownParameterNames()).resolves.toEqual(
						expectedParameters(String(resource.value), String(operation.value)),
					);
					seen.push(`${resource.name} → ${operation.name}`);
				}
			}
			expect(seen.length).toBeGreaterThanOrEqual(20);
			expect(editor.takeConsoleErrors()).toEqual([]);
		},
		10 * 60_000,
	);

	step(
		'picks an end user from a list searched by email, and a survey template and its languages loaded from the account',
		async () => {
			const { page, ndv } = editor;
			await editor.pick(ndv, 'resource', 'Response');
			await editor.pick(ndv, 'operation', 'Create');
			// A node still named by default is renamed after the operation chosen.
			await editor.waitForNodeName('Create a response');
			// Required fields left empty: n8n flags the node (what the checks for a filled one rely on).
			await page.getByTestId('node-issues').first().waitFor({ state: 'attached' });
			await ndv.getByTestId('resource-locator-endUser').click();
			const endUser = [...fake.account.endUsers.values()][0];
			await page
				.locator('input[data-test-id="rlc-search"], [data-test-id="rlc-search"] input')
				.first()
				.fill(endUser.email);
			await page.getByTestId('rlc-item').filter({ hasText: endUser.email }).click();
			await ndv.getByTestId('parameter-input-score').locator('input').fill('9');
			await ndv.getByTestId('parameter-input-ipAddress').locator('input').fill('203.0.113.7');
			await ndv
				.getByTestId('parameter-input-originUrl')
				.locator('input')
				.fill('https://app.example.com/');
			await editor.waitForNoNodeIssues();

			await editor.pick(ndv, 'resource', 'Email Survey');
			await editor.pick(ndv, 'operation', 'Send');
			await ndv.getByTestId('resource-locator-surveyTemplate').click();
			const templates = fake.account.surveyTemplates;
			await page.getByTestId('rlc-item').first().waitFor();
			const listed = await page.getByTestId('rlc-item').allInnerTexts();
			expect(listed.map((text) => text.replace(/ \(default\)$/, ''))).toEqual(
				templates.map((template) => template.name),
			);
			const multiLanguage = templates.reduce((most, template) =>
				template.languages.length > most.languages.length ? template : most,
			);
			await page.getByTestId('rlc-item').filter({ hasText: multiLanguage.name }).click();
			const languages = await editor.optionsOf(ndv, 'language');
			for (const language of multiLanguage.languages)
				expect(languages).toEqual(expect.arrayContaining([expect.stringContaining(language.name)]));
			expect(editor.takeConsoleErrors()).toEqual([]);
		},
	);

	step('on the webhook trigger, Listen for test event shows a signed delivery', async () => {
		const { page, ndv } = editor;
		await page.goto(`${demo.n8n.baseUrl}/workflow/new`);
		await page.getByTestId('canvas-add-button').click();
		await editor.searchNodes('Wootric');
		await editor.openNodeEntry(triggerName(new WootricWebhookTrigger().description));
		await editor.chooseAction('On response created');
		await editor.waitForNodeCredential();
		// The URLs first: while listening, n8n covers the parameters (and the URLs among them).
		await ndv.getByText('Webhook URLs').click();
		const testUrl = (await ndv.innerText()).match(
			/http:\/\/127\.0\.0\.1:\d+\/webhook-test\/\S+/,
		)?.[0];
		expect(testUrl).toBeDefined();
		await page.getByTestId('trigger-execute-button').click();

		const response = addResponse(fake.account, fake.store, {
			endUserId: [...fake.account.endUsers.keys()][0],
			score: 3,
			text: 'Sent from the browser test',
		});
		const { body, contentType } = encodeWebhook(
			responsePayload(fake.account, response, 'created', fake.clock.now()),
			'form',
		);
		// The editor shows "Listening" as it asks n8n to register the test webhook: until n8n has, the
		// URL answers 404, as a person clicking fast would see.
		await ndv.getByText('Listening for test event').waitFor();
		const answer = await waitFor(
			'the test webhook to be registered',
			async () => {
				const sent = await fetch(testUrl!, {
					method: 'POST',
					headers: {
						'content-type': contentType,
						'x-wootric-signature': signWebhook(body, fake.credentials.webhookSecret),
					},
					body,
				});
				return sent.status === 404 ? undefined : sent;
			},
			{ timeoutMs: 30_000, intervalMs: 1_000 },
		);
		expect(answer.status).toBe(200);
		await editor.waitForOutputItems(1);
		await page.getByTestId('output-panel').getByText(response.text!).first().waitFor();
		await page.getByTestId('ndv-close-button').click();
		expect(editor.takeConsoleErrors()).toEqual([]);
	});

	step(
		'opens a node after a Wootric node that has never run and sees the fields it will get',
		async () => {
			const { page } = editor;
			await page.goto(`${demo.n8n.baseUrl}/workflow/${FIELD_PREVIEW_WORKFLOW.id}`);
			await page.getByTestId('canvas-node').filter({ hasText: 'Next' }).dblclick();
			const fields = await editor.previewedInputFields();
			expect(fields).toEqual(
				expect.arrayContaining(Object.keys(previewedSchema.properties).slice(0, 6)),
			);
			await page.getByTestId('ndv-close-button').click();
			expect(editor.takeConsoleErrors()).toEqual([]);
		},
	);

	step('runs the headline workflow, new detractor → ticket, and sees its output', async () => {
		const { page } = editor;
		tickets.clear();
		await page.goto(`${demo.n8n.baseUrl}/workflow/${HEADLINE_WORKFLOW}`);
		await page.getByTestId('execute-workflow-button').click();
		await waitFor('a ticket from the headline workflow', () => tickets.tickets[0], {
			timeoutMs: 60_000,
		});
		await page.getByTestId('canvas-node').filter({ hasText: 'Open Ticket' }).dblclick();
		await editor.waitForOutputItems(1);
		await editor.screenshot(screenshots, 'headline-workflow');
		await page.getByTestId('ndv-close-button').click();
		expect(editor.takeConsoleErrors()).toEqual([]);
		expect(
			editor.refusedRequests.every((url) => url.startsWith('https://registry.npmjs.org/')),
		).toBe(true);
	});

	step(
		'shows each ticket example (Zendesk, Jira, Slack) on the canvas, every node known and set up',
		async () => {
			const { page } = editor;
			for (const [tool, file] of Object.entries(TICKET_EXAMPLES)) {
				const workflow = example(file);
				await page.goto(`${demo.n8n.baseUrl}/workflow/${workflow.id}`);
				const nodes = page.getByTestId('canvas-node');
				const steps = workflow.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote');
				// Sticky notes may or may not be canvas nodes, by version.
				await waitFor(
					`the ${steps.length} nodes of "${workflow.name}"`,
					async () => ((await nodes.count()) >= steps.length ? true : undefined),
					{ timeoutMs: 30_000 },
				);
				for (const step of steps) await nodes.filter({ hasText: step.name }).first().waitFor();
				// n8n marks a node it does not know, or one with a parameter or credential missing.
				expect(await page.getByTestId('node-issues').count()).toBe(0);
				await page.getByTestId('zoom-to-fit').click();
				await editor.screenshot(screenshots, `ticket-example-${tool}`);
			}
			expect(editor.takeConsoleErrors()).toEqual([]);
		},
	);

	step('found every output schema of the Wootric nodes the editor asked for', async () => {
		expect(editor.schemaRequests.length).toBeGreaterThan(0);
		expect(editor.schemaRequests.filter((request) => !request.startsWith('200 '))).toEqual([]);
	});
});
