import { join } from 'node:path';

import { devBanner, ticketChangeLine } from '../../scripts/e2e/dev-banner';
import { EXAMPLES_FOLDER } from '../../scripts/e2e/paths';
import {
	EXAMPLE_TICKET_URL,
	readWorkflows,
	SANDBOX_CREDENTIAL,
	DEMO_EXAMPLES,
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
	/** [from, output index, to] for each connection. */
	const SANDBOX_CREDENTIAL_REFERENCE = {
		wootricApi: { id: SANDBOX_CREDENTIAL.id, name: SANDBOX_CREDENTIAL.name },
	};
	const connectionsOf = (workflow: WorkflowFile) =>
		Object.entries(
			workflow.connections as Record<string, { main: Array<Array<{ node: string }>> }>,
		).flatMap(([from, { main }]) =>
			main.flatMap((targets, output) => targets.map(({ node }) => [from, output, node])),
		);
	/** A Switch's outputs, each as `<name>: <its conditions>`. */
	const routes = (node: WorkflowFile['nodes'][number]) =>
		(
			node.parameters.rules as {
				values: Array<{
					outputKey: string;
					conditions: {
						combinator: string;
						conditions: Array<{
							leftValue: string;
							rightValue: string;
							operator: { operation: string };
						}>;
					};
				}>;
			}
		).values.map(
			({ outputKey, conditions: { combinator, conditions } }) =>
				`${outputKey}: ${conditions
					.map(
						({ leftValue, operator, rightValue }) =>
							`${leftValue} ${operator.operation} ${rightValue}`,
					)
					.join(` ${combinator} `)}`,
		);

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
		expect(banner()).toContain(
			`Publish "${workflowNamed('New detractor → ticket (safety net)').name}" beside it`,
		);
		expect(banner()).toContain(`"${workflowNamed('New detractor → ticket').name}" alone`);
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
			[trigger.name, 0, find.name],
			[find.name, 0, record.name],
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
			expect(node.credentials).toEqual(SANDBOX_CREDENTIAL_REFERENCE);
	});

	it('"New detractor → ticket (instant)": a detractor\'s Response Created opens the ticket, a change adds to it, retried until the ticket is open', () => {
		const instant = workflowNamed('New detractor → ticket (instant)');
		const [trigger, which, open, update] = instant.nodes;

		expect(instant.nodes.map((node) => node.type)).toEqual([
			WEBHOOK_TRIGGER_TYPE,
			'n8n-nodes-base.switch',
			'n8n-nodes-base.httpRequest',
			'n8n-nodes-base.httpRequest',
		]);
		expect(connectionsOf(instant)).toEqual([
			[trigger.name, 0, which.name],
			[which.name, 0, open.name],
			[which.name, 1, update.name],
		]);
		expect(trigger.parameters).toEqual({
			events: ['response', 'responseUpdated'],
			filters: { categories: ['detractor'] },
			options: { simplify: true },
		});
		// A response the polling trigger first reads after its comment comes as Response Created with
		// the comment: it goes both ways, so the ticket the webhook opened at the score gets it.
		expect(routes(which)).toEqual([
			'Response Created: ={{ $json.event }} equals response',
			'Changed Since Created: ={{ $json.event }} equals responseUpdated or ={{ $json.updated_at }} notEquals ={{ $json.created_at }}',
		]);
		expect(which.parameters.options).toEqual({ allMatchingOutputs: true });
		// Both triggers' items have one shape, so the ticket is opened from them alike.
		expect(open.parameters).toEqual(workflowNamed('New detractor → ticket').nodes[1].parameters);
		expect(update).toMatchObject({
			parameters: {
				method: 'PATCH',
				url: `=${EXAMPLE_TICKET_URL}/by-response/{{ $json.id }}`,
				bodyParameters: {
					parameters: [
						{ name: 'comment', value: "={{ $json.text ?? '' }}" },
						{ name: 'score', value: '={{ $json.score }}' },
					],
				},
			},
			// An update that overtook its creation finds the ticket a few seconds later.
			retryOnFail: true,
			maxTries: 5,
			waitBetweenTries: 3000,
		});
		// n8n's v1 execution order runs the branch placed higher first: a poll that emits a response
		// and its change together opens the ticket before it updates it.
		expect(open.position[1]).toBeLessThan(update.position[1]);
		expect(trigger.credentials).toEqual(SANDBOX_CREDENTIAL_REFERENCE);
		expect(webhookTriggerUrl('http://127.0.0.1:5678', instant)).toBe(
			`http://127.0.0.1:5678/webhook/${trigger.webhookId}/webhook`,
		);
		// The demo's webhooks go to it; the ticket examples (their own accounts) have one too.
		expect(instant.id).toBe(DEMO_EXAMPLES.instant);
		expect(
			examples
				.filter((workflow) => workflow.nodes.some((node) => node.type === WEBHOOK_TRIGGER_TYPE))
				.map((workflow) => workflow.id)
				.sort(),
		).toEqual([DEMO_EXAMPLES.instant, 'exTicketJira', 'exTicketSlack', 'exTicketZendesk']);
	});

	it('"New detractor → ticket (safety net)" is the instant flow on the polling trigger, New Response and Updated Response', () => {
		const instant = workflowNamed('New detractor → ticket (instant)');
		const safetyNet = workflowNamed('New detractor → ticket (safety net)');
		const [trigger, ...rest] = safetyNet.nodes;

		expect(trigger).toMatchObject({
			type: 'n8n-nodes-wootric.wootricTrigger',
			parameters: {
				events: instant.nodes[0].parameters.events,
				filters: instant.nodes[0].parameters.filters,
				options: { includeEndUser: true, simplify: true },
			},
			credentials: SANDBOX_CREDENTIAL_REFERENCE,
		});
		// Without Wait Until Complete: the ticket opens at the score, as the webhook opens it.
		expect(trigger.parameters.options).not.toHaveProperty('waitUntilComplete');
		const withoutIds = (nodes: WorkflowFile['nodes']) => nodes.map(({ id: _id, ...node }) => node);
		expect(withoutIds(rest)).toEqual(withoutIds(instant.nodes.slice(1)));
		const renamed = (workflow: WorkflowFile) =>
			connectionsOf(workflow).map(([from, output, to]) => [
				from === workflow.nodes[0].name ? 'trigger' : from,
				output,
				to,
			]);
		expect(renamed(safetyNet)).toEqual(renamed(instant));
	});

	it("every example that opens or updates a ticket sends the item's idempotency_key as the Idempotency-Key header", () => {
		const ticketRequests = examples
			.flatMap((workflow) => workflow.nodes)
			.filter((node) => String(node.parameters.url).includes(EXAMPLE_TICKET_URL));

		expect(ticketRequests.length).toBeGreaterThanOrEqual(5);
		for (const node of ticketRequests)
			expect([node.name, node.parameters.headerParameters]).toEqual([
				node.name,
				{ parameters: [{ name: 'Idempotency-Key', value: '={{ $json.idempotency_key }}' }] },
			]);
	});

	it('prints each ticket as it is opened, updated or sent again', () => {
		const ticket = {
			id: 3,
			openedAt: '2026-11-25T14:00:00.000Z',
			fields: { wootric_response_id: 7, comment: 'Slow' },
			idempotencyKey: 'response:7',
			updates: [],
		};
		const update = { receivedAt: '2026-11-25T14:01:00.000Z', fields: { comment: 'Slow' } };
		const request = {
			method: 'POST',
			path: '/tickets',
			idempotencyKey: 'response:7',
			status: 200,
			ticketId: 3,
			receivedAt: '2026-11-25T14:02:00.000Z',
		};

		expect(
			[
				ticketChangeLine({ kind: 'opened', ticket }),
				ticketChangeLine({ kind: 'updated', ticket, update }),
				ticketChangeLine({ kind: 'repeat', ticket, request }),
			].join('\n'),
		).toBe(
			[
				'ticket #3 opened: {"wootric_response_id":7,"comment":"Slow"}',
				'ticket #3 updated: {"comment":"Slow"}',
				'ticket #3: POST with Idempotency-Key response:7 again, nothing changed',
			].join('\n'),
		);
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
