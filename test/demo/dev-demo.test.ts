import { join } from 'node:path';

import { devBanner } from '../../scripts/e2e/dev-banner';
import { EXAMPLES_FOLDER } from '../../scripts/e2e/paths';
import {
	readWorkflows,
	WEBHOOK_TRIGGER_TYPE,
	webhookTriggerUrl,
	type WorkflowFile,
} from '../../scripts/e2e/workflow-files';
import { ACTIONS, READ_ALL, pagesOfResponses, responsesToTickets } from '../e2e-queue/workflows';
import { FakeWootric, seedDemoData } from '../fake';

/**
 * `npm run dev`'s first-run promise: the banner names what the operations need, and the headline
 * flow is ready.
 */
describe('npm run dev: the demo', () => {
	const sandbox = new FakeWootric();
	seedDemoData(sandbox.store, sandbox.account);
	const demoUsers = [...sandbox.account.endUsers.values()];
	const examples = readWorkflows(EXAMPLES_FOLDER);
	const banner = (keptFolder?: string) =>
		devBanner({
			n8nUrl: 'http://127.0.0.1:5678',
			owner: { email: 'demo@example.com', password: 'Wootric-demo-1' },
			sandbox: { ...sandbox.credentials, baseUrl: 'http://127.0.0.1:4010' },
			endUsers: demoUsers,
			ticketsUrl: 'http://127.0.0.1:4020/tickets',
			n8nLogFile: '/tmp/n8n.log',
			keptFolder,
		});
	const workflowNamed = (name: string): WorkflowFile => {
		const workflow = examples.find((candidate) => candidate.name === name);
		if (!workflow)
			throw new Error(
				`examples/ has no workflow "${name}": ${examples.map((candidate) => candidate.name).join(', ')}`,
			);
		return workflow;
	};
	const connectionsOf = (workflow: WorkflowFile) =>
		Object.entries(
			workflow.connections as Record<string, { main: Array<Array<{ node: string }>> }>,
		).flatMap(([from, { main }]) => main.flat().map(({ node }) => [from, node]));

	it('prints every demo end user with the ID and email that operations ask for', () => {
		expect(demoUsers.length).toBeGreaterThanOrEqual(5);
		for (const user of demoUsers)
			expect(banner()).toMatch(
				new RegExp(`^ +${user.id} +${user.email.replace('.', '\\.')}\\b`, 'm'),
			);
	});

	it('names the headline flow by its workflows, and says whether n8n is kept', () => {
		expect(banner()).toContain(
			`"${workflowNamed('New detractor → ticket (instant)').name}" and publish it; run "${workflowNamed('Record a detractor').name}"`,
		);
		expect(banner()).toContain(`Or publish "${workflowNamed('New detractor → ticket').name}"`);
		expect(banner()).toContain(
			'thrown away on Ctrl+C; to keep them, run it as N8N_DEV_FOLDER=<folder> npm run dev',
		);
		expect(banner('/home/me/wootric-dev')).toContain(
			'kept in /home/me/wootric-dev for the next run',
		);
	});

	it('"Record a detractor" records a detractor with a comment for a demo end user found by email', () => {
		const workflow = workflowNamed('Record a detractor');
		const [trigger, find, record] = workflow.nodes;

		expect(workflow.nodes.map((node) => node.type)).toEqual([
			'n8n-nodes-base.manualTrigger',
			'n8n-nodes-wootric.wootric',
			'n8n-nodes-wootric.wootric',
		]);
		expect(connectionsOf(workflow)).toEqual([
			[trigger.name, find.name],
			[find.name, record.name],
		]);
		expect(find.parameters).toMatchObject({
			resource: 'endUser',
			operation: 'get',
			lookUpBy: 'email',
		});
		expect(demoUsers.map((user) => user.email)).toContain(find.parameters.email);
		expect(record.parameters).toMatchObject({
			resource: 'response',
			operation: 'create',
			endUserId: '={{ $json.id }}',
			additionalFields: { text: expect.stringMatching(/\w/) },
		});
		// A detractor (0–6) with its comment, so "New detractor → ticket" (Wait Until Complete) tickets
		// it at the next poll.
		expect(record.parameters.score).toBeLessThanOrEqual(6);
		for (const node of [find, record])
			expect(node.credentials).toEqual({
				wootricApi: { id: 'wootricSandbox01', name: 'Wootric sandbox' },
			});
	});

	it('"New detractor → ticket (instant)" is the polling flow on the Webhook Trigger, at a Production URL the sandbox is told', () => {
		const polling = workflowNamed('New detractor → ticket');
		const instant = workflowNamed('New detractor → ticket (instant)');
		const [trigger, ticket] = instant.nodes;

		expect(instant.nodes.map((node) => node.type)).toEqual([
			WEBHOOK_TRIGGER_TYPE,
			'n8n-nodes-base.httpRequest',
		]);
		expect(connectionsOf(instant)).toEqual([[trigger.name, ticket.name]]);
		expect(trigger.parameters).toEqual({
			events: ['response'],
			filters: { categories: ['detractor'] },
			options: { simplify: true },
		});
		// Both triggers' items have one shape, so the ticket is built from them alike.
		expect(ticket.parameters).toEqual(polling.nodes[1].parameters);
		expect(trigger.credentials).toEqual(polling.nodes[0].credentials);
		expect(webhookTriggerUrl('http://127.0.0.1:5678', instant)).toBe(
			`http://127.0.0.1:5678/webhook/${trigger.webhookId}/webhook`,
		);
		expect(
			examples.filter((workflow) =>
				workflow.nodes.some((node) => node.type === WEBHOOK_TRIGGER_TYPE),
			),
		).toEqual([instant]);
	});

	it("gives every workflow it imports an id n8n 1.x accepts (at most 16 characters; a longer one never saves a trigger's cursor)", () => {
		const queueWorkflows = [
			ACTIONS,
			READ_ALL,
			pagesOfResponses('queuePagesPass', 'p', { id: 'c', name: 'c' }),
			responsesToTickets('http://t'),
		];
		const workflows = [
			...examples,
			...readWorkflows(join(__dirname, '..', 'e2e', 'workflows')),
			...queueWorkflows,
		];
		expect(
			workflows.filter((workflow) => workflow.id.length > 16).map((workflow) => workflow.id),
		).toEqual([]);
	});
});
