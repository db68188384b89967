import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { DemoWatch, publishStep, type DemoFacts } from '../../scripts/e2e/demo-watch';
import type { ListedExecution, RestExecution } from '../../scripts/e2e/rest-client';
import { addResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';

const FACTS: DemoFacts = {
	n8nUrl: 'http://127.0.0.1:5678',
	n8nLogFile: '/tmp/n8n-dev/n8n.log',
	publish: publishStep(false),
	instantWorkflow: 'New detractor → ticket (instant)',
	safetyNetWorkflow: 'New detractor → ticket (safety net)',
	credential: 'Wootric sandbox',
	webhookSecret: 'whsec-us-5f0c2a9e',
};

/**
 * `npm run dev` names the step a user missed, in the terminal they watch, instead of leaving it to
 * the fake's delivery log, n8n's log file or its executions list.
 */
describe('npm run dev: what the demo tells when something it waits for does not come', () => {
	let sandbox: FakeWootric;
	let lines: string[];
	let watch: DemoWatch;
	let receiver: Server;
	/** What the webhook's receiver answers: n8n answers 404 on the URL of a workflow not published. */
	let receiverStatus: number;

	beforeEach(async () => {
		sandbox = await startFakeWootric();
		lines = [];
		watch = new DemoWatch((line) => lines.push(line), FACTS);
		watch.watchSandbox(sandbox);
		receiverStatus = 404;
		receiver = createServer((request, response) => {
			request.resume();
			request.on('end', () => response.writeHead(receiverStatus).end());
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		const { port } = receiver.address() as AddressInfo;
		sandbox.outgoingWebhooks.register({ url: `http://127.0.0.1:${port}/webhook/wootric` });
	});
	afterEach(async () => {
		await sandbox.close();
		await new Promise((resolve) => receiver.close(resolve));
	});

	const user = () => createEndUser(sandbox.account, sandbox.store, 'grace@example.com');
	async function recordDetractors(count: number, endUserId = user().id) {
		for (let index = 0; index < count; index++)
			addResponse(sandbox.account, sandbox.store, { endUserId, score: 2, text: 'Too slow' });
		await sandbox.outgoingWebhooks.settled();
	}
	async function signIn(grant: Record<string, string>) {
		const answer = await fetch(`${sandbox.baseUrl}/oauth/token`, {
			method: 'POST',
			body: new URLSearchParams(grant),
		});
		await answer.arrayBuffer();
	}

	/** The line that says to publish, and how to bring back the detractors recorded meanwhile. */
	const publishLine = (n8n1: boolean) => {
		const publish = n8n1 ? 'switch it to Active' : 'click Publish';
		return new RegExp(
			`^The sandbox sent a webhook \\(response_created of \\d+\\) to "New detractor → ticket \\(instant\\)" and n8n answered 404: the workflow is not published\\. Open it in http://127\\.0\\.0\\.1:5678, ${publish}, then run "Record a detractor" again\\. A detractor recorded while it was not published gets no ticket from its webhook: "New detractor → ticket \\(safety net\\)" brings it within a minute if it was published then; if not, set its Wootric Trigger's Start From \\(Options\\) to a time before the detractor, then ${publish}\\.$`,
		);
	};

	it('a webhook answered 404: one line that says to publish the instant workflow, however many deliveries and retries meet it', async () => {
		// The service's retry: the same delivery sent again once the first is answered.
		sandbox.outgoingWebhooks.faults.inject({ fault: { kind: 'duplicate' }, times: 2 });
		await recordDetractors(3);

		expect(sandbox.outgoingWebhooks.deliveries.map(({ status }) => status)).toEqual([
			404, 404, 404, 404, 404,
		]);
		expect(lines).toEqual([expect.stringMatching(publishLine(false))]);
	});

	it("names n8n 1.x's Active toggle where 2.x has Publish", async () => {
		const onN8n1: string[] = [];
		new DemoWatch((line) => onN8n1.push(line), {
			...FACTS,
			publish: publishStep(true),
		}).watchSandbox(sandbox);
		await recordDetractors(1);

		expect(onN8n1).toEqual([expect.stringMatching(publishLine(true))]);
	});

	it('says nothing while n8n takes the webhooks, and tells again when they fail once more', async () => {
		const endUserId = user().id;
		receiverStatus = 200;
		await recordDetractors(2, endUserId);
		expect(lines).toEqual([]);

		receiverStatus = 404;
		await recordDetractors(1, endUserId);
		receiverStatus = 200;
		await recordDetractors(1, endUserId);
		receiverStatus = 404;
		await recordDetractors(2, endUserId);

		expect(lines).toHaveLength(2);
		expect(lines.every((line) => line.includes('click Publish'))).toBe(true);
	});

	it("a webhook answered 401: the trigger's credential lacks the sandbox's Webhook Secret Token, and which it is", async () => {
		receiverStatus = 401;
		await recordDetractors(2);

		expect(lines).toEqual([
			expect.stringMatching(
				/ and n8n answered 401: the Webhook Secret Token of its trigger's credential \("Wootric sandbox"\) is not the sandbox's\. Set it to whsec-us-5f0c2a9e, then run "Record a detractor" again\.$/,
			),
		]);
	});

	it("another failing answer: the status, n8n's executions list and its log", async () => {
		receiverStatus = 500;
		await recordDetractors(2);

		expect(lines).toEqual([
			expect.stringMatching(
				/ and n8n answered 500\. See its executions, http:\/\/127\.0\.0\.1:5678\/home\/executions, and its log: \/tmp\/n8n-dev\/n8n\.log\.$/,
			),
		]);
	});

	it('no answer at all: whether n8n still runs, and its log', async () => {
		receiver.close();
		await recordDetractors(2);

		expect(lines).toEqual([
			expect.stringMatching(
				/ and got no answer \(.*ECONNREFUSED.*\): is n8n still running\? Its log: \/tmp\/n8n-dev\/n8n\.log\.$/,
			),
		]);
	});

	it('a refused sign-in names the credential; a refused refresh and a good sign-in say nothing', async () => {
		const { email, password } = sandbox.credentials;
		await signIn({ grant_type: 'password', username: email, password });
		await signIn({ grant_type: 'refresh_token', refresh_token: 'spent' });
		expect(lines).toEqual([]);

		await signIn({ grant_type: 'password', username: email, password: 'changed' });
		await signIn({ grant_type: 'password', username: email, password: 'changed' });

		expect(lines).toEqual([
			'The sandbox refused a sign-in (400): the credential "Wootric sandbox" no longer matches it. Set it back to the login printed below "Fake Wootric API (sandbox)", or choose "Wootric sandbox" in the workflow\'s Wootric nodes.',
		]);
	});

	it("a failed execution: its workflow, n8n's error and the link to it; what ended before the demo's first look is not told", async () => {
		const executions = new ExecutionsList();
		executions.end(RECORD, 'error', 'Wootric refused the sign-in (400).');
		const stop = watch.watchExecutions(executions, 20);
		try {
			await executions.nextLooks(2);
			executions.end(RECORD, 'error', 'Node "Find the End User" has no credentials set');
			await executions.nextLooks(2);
		} finally {
			stop();
		}

		expect(lines).toEqual([
			'"Record a detractor" failed: Node "Find the End User" has no credentials set. See which node and why: http://127.0.0.1:5678/workflow/exRecordScore/executions/2',
		]);
	});

	it('a workflow failing the same way again (a poll each minute) is told once, and again after it succeeded; one that ends after a newer one is told too', async () => {
		const executions = new ExecutionsList();
		const refused = 'Wootric refused the sign-in (400).';
		const stop = watch.watchExecutions(executions, 20);
		try {
			await executions.nextLooks(1);
			executions.end(SAFETY_NET, 'error', refused);
			executions.end(SAFETY_NET, 'error', refused);
			executions.end(RECORD, 'error', refused);
			await executions.nextLooks(2);
			executions.end(SAFETY_NET, 'error', refused);
			await executions.nextLooks(2);
			executions.end(SAFETY_NET, 'success');
			executions.end(SAFETY_NET, 'error', refused);
			const stillRunning = executions.start(SAFETY_NET);
			executions.end(RECORD, 'success');
			await executions.nextLooks(2);
			executions.ended(stillRunning, 'error', 'The ticket endpoint answered 500');
			await executions.nextLooks(2);
		} finally {
			stop();
		}

		const link = (workflow: { workflowId: string }, id: number) =>
			`See which node and why: http://127.0.0.1:5678/workflow/${workflow.workflowId}/executions/${id}`;
		expect(lines).toEqual([
			`"New detractor → ticket (safety net)" failed: ${refused} ${link(SAFETY_NET, 1)}`,
			`"Record a detractor" failed: ${refused} ${link(RECORD, 3)}`,
			`"New detractor → ticket (safety net)" failed: ${refused} ${link(SAFETY_NET, 6)}`,
			`"New detractor → ticket (safety net)" failed: The ticket endpoint answered 500. ${link(SAFETY_NET, 7)}`,
		]);
	});
});

const RECORD = { workflowId: 'exRecordScore', workflowName: 'Record a detractor' };
const SAFETY_NET = {
	workflowId: 'exDetractorNet',
	workflowName: 'New detractor → ticket (safety net)',
};

/** n8n's executions list as the watch reads it: newest first, ids in start order. */
class ExecutionsList {
	private readonly executions: ListedExecution[] = [];
	private readonly errors = new Map<string, string>();
	private looks = 0;

	async newestExecutions(
		_workflowId: string | undefined,
		statuses: readonly string[] = [],
	): Promise<ListedExecution[]> {
		this.looks++;
		return this.executions.filter(({ status }) => statuses.includes(status)).reverse();
	}

	async finishedExecution(id: string): Promise<RestExecution> {
		const message = this.errors.get(id);
		return {
			id,
			data: { resultData: { runData: {}, ...(message ? { error: { message } } : {}) } },
		} as RestExecution;
	}

	start(workflow: typeof RECORD): ListedExecution {
		const execution = {
			...workflow,
			id: String(this.executions.length + 1),
			status: 'running',
			mode: 'trigger',
			startedAt: '2026-11-28T10:00:00.000Z',
		};
		this.executions.push(execution);
		return execution;
	}

	ended(execution: ListedExecution, status: string, message?: string): void {
		execution.status = status;
		if (message) this.errors.set(execution.id, message);
	}

	end(workflow: typeof RECORD, status: string, message?: string): void {
		this.ended(this.start(workflow), status, message);
	}

	/** Resolves once `count` more looks have started: all but the last have ended. */
	async nextLooks(count: number): Promise<void> {
		const looks = this.looks + count;
		await waitUntil(() => this.looks >= looks);
	}
}

async function waitUntil(done: () => boolean, timeoutMs = 5_000): Promise<void> {
	const until = Date.now() + timeoutMs;
	while (!done()) {
		if (Date.now() > until) throw new Error('timed out');
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}
