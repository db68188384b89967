/**
 * The Wootric Webhook Trigger in a real n8n, as both e2e suites drive it (one process and queue
 * mode): the workflow "Wootric Webhook Trigger → ticket" (workflows/webhook-to-ticket.json), Response
 * Created webhooks signed as Wootric signs them, posted to its Production URL (all at once, or again
 * where n8n cannot remember them), and what n8n made of them, read back from its executions list
 * (REST) and from the ticket endpoint.
 */
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import { ExecutionStatusList } from 'n8n-workflow';

import type { N8nInstance } from '../../scripts/e2e/n8n-instance';
import { REPO_ROOT } from '../../scripts/e2e/paths';
import { waitFor } from '../../scripts/e2e/processes';
import type { ExecutionSummary, N8nRestClient, RestExecution } from '../../scripts/e2e/rest-client';
import type { Ticket, TicketServer } from '../../scripts/e2e/ticket-server';
import { webhookTriggerUrl, type WorkflowFile } from '../../scripts/e2e/workflow-files';
import { addResponse, createEndUser, type FakeWootric } from '../fake';
import type { SurveyResponse } from '../fake/store';
import { encodeWebhook, responsePayload, signWebhook } from '../fake/webhook-body';
import { outputOf } from './helpers';

// From the repository root: the bench reads it too, compiled into build-test/.
export const WEBHOOK_WORKFLOW = JSON.parse(
	readFileSync(join(REPO_ROOT, 'test', 'e2e', 'workflows', 'webhook-to-ticket.json'), 'utf8'),
) as WorkflowFile;
export const WEBHOOK_TRIGGER_NAME = 'Wootric Webhook';

/** The scenarios that post many deliveries at once. */
type MassScenario = 'burst' | 'badSignatures' | 'duplicates';

/**
 * Each scenario that posts many deliveries at once runs against its own copy of the webhook workflow
 * (its own id and Production URL), and counts only that workflow's executions: a scenario that
 * failed with executions still running leaves the next one its own verdict. The suites import these
 * beside WEBHOOK_WORKFLOW; the scenarios publish them.
 */
export const SCENARIO_WORKFLOWS: Record<MassScenario, WorkflowFile> = {
	burst: copyOfWebhookWorkflow('Burst', 1),
	badSignatures: copyOfWebhookWorkflow('BadSignatures', 2),
	duplicates: copyOfWebhookWorkflow('Duplicates', 3),
};

function copyOfWebhookWorkflow(suffix: string, index: number): WorkflowFile {
	const webhookId = (id: string) => `${id.slice(0, -2)}${String(index).padStart(2, '0')}`;
	return {
		...WEBHOOK_WORKFLOW,
		id: `${WEBHOOK_WORKFLOW.id}${suffix}`,
		name: `${WEBHOOK_WORKFLOW.name} (${suffix})`,
		nodes: WEBHOOK_WORKFLOW.nodes.map((node) =>
			node.webhookId ? { ...node, webhookId: webhookId(node.webhookId) } : node,
		),
	};
}

/** What the scenarios work with, once the suite's n8n has started. */
export interface WebhookTarget {
	fake: FakeWootric;
	tickets: TicketServer;
	/** The n8n process that receives the webhooks (the main, in queue mode). */
	receiver: N8nInstance;
	/** Logged in to it. */
	rest: N8nRestClient;
}

/** One POST as Wootric would send it for a response (or not quite, for the refused ones). */
export interface Delivery {
	responseId: number;
	body: string;
	contentType: string;
	/** X-Wootric-Signature; none sent when undefined. */
	signature?: string;
}

export interface Answer {
	responseId: number;
	/** Date.now() when the first POST was made. */
	sentAt: number;
	/** The POSTs it took: more than one when n8n answered 5xx or not at all (RETRY_WAITS_MS). */
	attempts: number;
	/** The last answer's status, and its `message` (n8n's, or the trigger's). */
	status: number;
	message: string;
}

/** What the trigger answers to a delivery it received already (receive.ts). */
const NOTHING_TO_START = 'Received; nothing to start';

/**
 * Response Created (or Updated) for a response of the fake as it is now, sent at `sentAt` (UNIX
 * seconds; default now by the fake's clock), signed with the account's webhook secret.
 */
export function responseWebhook(
	fake: FakeWootric,
	response: SurveyResponse,
	{
		event = 'created',
		sentAt = fake.clock.now(),
	}: { event?: 'created' | 'updated'; sentAt?: number } = {},
): Delivery {
	const { body, contentType } = encodeWebhook(
		responsePayload(fake.account, response, event, sentAt),
		'form',
	);
	return {
		responseId: response.id,
		body,
		contentType,
		signature: signWebhook(body, fake.credentials.webhookSecret),
	};
}

/** The delivery signed with a secret that is not the account's. */
export const withWrongSecret = (delivery: Delivery): Delivery => ({
	...delivery,
	signature: signWebhook(delivery.body, 'not-the-secret'),
});

/** Ways a delivery can fail the signature check, one after the other by index. */
const BAD_SIGNATURES: Array<(delivery: Delivery) => Delivery> = [
	(delivery) => ({ ...delivery, signature: undefined }),
	withWrongSecret,
	// Signed, then changed on the way.
	(delivery) => ({ ...delivery, body: `${delivery.body}&tampered=1` }),
	(delivery) => ({
		...delivery,
		signature: `sha256=${createHmac('sha256', 'not-the-secret').update(delivery.body).digest('hex')}`,
	}),
];

/**
 * How many POSTs a sender has in flight at most: a webhook sender delivers through a bounded pool
 * of connections. With 1,000 truly simultaneous connections n8n 2.40.7's queue-mode main answered
 * 500 to most (docs/maintainers/performance.md, Webhooks).
 */
export const SENDER_CONNECTIONS = Number(process.env.E2E_WEBHOOK_CONNECTIONS ?? 100);

/**
 * What the sender waits before each new try of a delivery n8n answered 5xx or did not answer, as an
 * at-least-once sender does (Wootric is one: docs/instant-trigger.md): a busy n8n answers 503
 * "Database is not ready!" before the trigger sees the webhook, and 500 when it could not store the
 * execution (its database pool's "timeout exceeded when trying to connect").
 */
const RETRY_WAITS_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000];

async function postOnce(
	url: string,
	{ body, contentType, signature }: Delivery,
	stopped?: AbortSignal,
): Promise<{ status: number; message: string }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': contentType,
			...(signature === undefined ? {} : { 'x-wootric-signature': signature }),
		},
		body,
		signal: stopped,
	});
	const text = await response.text();
	let message = text;
	try {
		message = String((JSON.parse(text) as { message?: unknown }).message ?? text);
	} catch {
		// Not JSON: the text is the message.
	}
	return { status: response.status, message };
}

/**
 * Sends by `sendOnce` again after each 5xx or failed connection while RETRY_WAITS_MS lasts, as an
 * at-least-once sender does, and gives the last answer with the number of tries; given up once
 * `stopped` aborts. A POST n8n answered 5xx started no run (it could not reach its database to
 * store one): the steps that send it again still check that nothing was sent twice.
 */
export async function sendUntilTaken<T extends { status: number }>(
	sendOnce: () => Promise<T>,
	unanswered: (error: Error) => T,
	stopped?: AbortSignal,
): Promise<T & { attempts: number }> {
	for (let attempts = 1; ; attempts++) {
		stopped?.throwIfAborted();
		const answer = await sendOnce().catch(unanswered);
		stopped?.throwIfAborted();
		const wait = RETRY_WAITS_MS[attempts - 1];
		if ((answer.status !== 0 && answer.status < 500) || wait === undefined)
			return { ...answer, attempts };
		await delay(wait, undefined, { signal: stopped });
	}
}

/** One delivery, sent until taken (sendUntilTaken). */
async function post(url: string, delivery: Delivery, stopped?: AbortSignal): Promise<Answer> {
	const sentAt = Date.now();
	const answer = await sendUntilTaken(
		async () => await postOnce(url, delivery, stopped),
		(error) => ({ status: 0, message: `no answer: ${error.message}` }),
		stopped,
	);
	return { responseId: delivery.responseId, sentAt, ...answer };
}

/** fn over the items, at most `concurrency` at a time, each taking the next item when done. */
async function inTurn<T, R>(
	items: T[],
	concurrency: number,
	fn: (item: T) => Promise<R>,
): Promise<R[]> {
	const results: R[] = [];
	let next = 0;
	const lane = async () => {
		while (next < items.length) {
			const index = next++;
			results[index] = await fn(items[index]);
		}
	};
	await Promise.all(Array.from({ length: concurrency }, lane));
	return results;
}

/**
 * Posts the deliveries all due at once, in order, over `connections` connections (each takes the
 * next delivery when its answer came), and collects the answers in the deliveries' order. Once
 * `stopped` aborts (the step that posts them ended), nothing more is sent and it fails.
 */
export async function postAll(
	url: string,
	deliveries: Delivery[],
	{
		connections = SENDER_CONNECTIONS,
		stopped,
	}: { connections?: number; stopped?: AbortSignal } = {},
): Promise<Answer[]> {
	return await inTurn(
		deliveries,
		connections,
		async (delivery) => await post(url, delivery, stopped),
	);
}

/** p50 and p95 by the nearest-rank method (the value at or below which that share of them lie). */
export function percentile(sorted: number[], share: number): number {
	return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)];
}

export interface BurstFigures {
	webhooks: number;
	/** The sender's connections (SENDER_CONNECTIONS). */
	connections: number;
	executions: number;
	succeeded: number;
	/** From each POST (when its connection sent it) to the start (startedAt) of its execution, in ms. */
	startLatencyMs: { p50: number; p95: number; max: number };
	/** Deliveries the sender had to send more than once (n8n answered 5xx or not at all). */
	retried: number;
	/** From the first POST to the last execution's end. */
	allDoneSeconds: number;
	/** The receiving n8n process's peak resident memory since it started (VmHWM), in MB. */
	receiverPeakRssMb: number;
}

/** A process's peak resident memory so far, from Linux's /proc/<pid>/status. */
function peakRssMb(n8n: N8nInstance): number {
	const status = readFileSync(`/proc/${n8n.pid}/status`, 'utf8');
	const kilobytes = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1]);
	return Math.round(kilobytes / 1024);
}

interface ExecutionCounts {
	all: number;
	succeeded: number;
}

/** A delivery `deliverOnce` made, for `deliverAgainUnremembered` to repeat. */
export interface DeliveredOnce {
	response: SurveyResponse;
	delivery: Delivery;
	/** The idempotency_key of its item. */
	idempotencyKey: string;
}

/** The ids of a workflow's newest executions (up to 100), to tell the ones that come after. */
export async function executionIdsOf(
	rest: N8nRestClient,
	workflowId: string,
): Promise<Set<string>> {
	return new Set((await rest.newestExecutions(workflowId)).map((execution) => execution.id));
}

/**
 * Waits until `count` executions of the workflow that are not in `before` have ended; returns
 * every such execution, oldest first, with its data.
 */
export async function executionsAfter(
	rest: N8nRestClient,
	workflowId: string,
	before: Set<string>,
	count: number,
	timeoutMs = 60_000,
): Promise<RestExecution[]> {
	let ended: ExecutionSummary[] = [];
	await waitFor(
		`${count} new executions of workflow ${workflowId} to end`,
		async () => {
			const newer = (await rest.newestExecutions(workflowId)).filter(
				(execution) => !before.has(execution.id),
			);
			ended = newer.filter(
				(execution) => !['new', 'running', 'waiting'].includes(execution.status),
			);
			return ended.length >= count && ended.length === newer.length ? true : undefined;
		},
		{ timeoutMs, intervalMs: 500, describe: () => `Ended so far: ${JSON.stringify(ended)}` },
	);
	const oldestFirst = [...ended].sort((a, b) => Number(a.id) - Number(b.id));
	return await Promise.all(oldestFirst.map(async ({ id }) => await rest.finishedExecution(id)));
}

/** A count the scenario checks, with what it counts, so that a failure says which. */
const counted = (what: string, count: number) => ({ what, count });

/**
 * The scenarios: a burst of new responses, refused signatures, repeated deliveries. Each makes its
 * own responses in the fake and posts many at once to its own workflow (SCENARIO_WORKFLOWS), so they
 * may run in any order, and each counts only its own executions and tickets.
 */
export class WebhookScenarios {
	private batches = 0;
	/** The scenario workflows published so far, for `unpublish`. */
	private readonly published = new Set<string>();

	constructor(private readonly target: () => WebhookTarget) {}

	get productionUrl(): string {
		return this.productionUrlOf(WEBHOOK_WORKFLOW);
	}

	/**
	 * New responses in the fake from one new end user, with a comment each, scores 0–10 in turn
	 * unless `score` is given.
	 */
	newResponses(count: number, score?: number): SurveyResponse[] {
		const { fake } = this.target();
		const user = createEndUser(
			fake.account,
			fake.store,
			`webhook-batch-${++this.batches}@example.com`,
		);
		return Array.from({ length: count }, (_, index) =>
			addResponse(fake.account, fake.store, {
				endUserId: user.id,
				score: score ?? index % 11,
				text: `Webhook ${index}`,
			}),
		);
	}

	/** The tickets the webhook workflow opened (it alone sends n8n_execution_id) for responses. */
	private ticketsFor(responses: SurveyResponse[]): Ticket[] {
		const ids = new Set(responses.map((response) => response.id));
		return this.target().tickets.tickets.filter(
			(ticket) =>
				ticket.fields.n8n_execution_id !== undefined &&
				ids.has(Number(ticket.fields.wootric_response_id)),
		);
	}

	/** Publishes a scenario's workflow, once. */
	private async publish(workflow: WorkflowFile): Promise<void> {
		if (this.published.has(workflow.id)) return;
		await this.target().rest.activate(workflow.id);
		this.published.add(workflow.id);
	}

	/** Unpublishes the scenario workflows published so far. */
	async unpublish(): Promise<void> {
		for (const id of this.published) await this.target().rest.deactivate(id);
		this.published.clear();
	}

	/** How many executions a workflow has: of any status, and succeeded. */
	private async executionCounts(workflow: WorkflowFile): Promise<ExecutionCounts> {
		const { rest } = this.target();
		const [all, succeeded] = await Promise.all([
			rest.executionCount(workflow.id),
			rest.executionCount(workflow.id, ['success']),
		]);
		return { all, succeeded };
	}

	/**
	 * Waits until the workflow has `count` executions more than `before` and none still to end;
	 * returns how many more it has, and how many more succeeded.
	 */
	private async newExecutions(
		workflow: WorkflowFile,
		before: ExecutionCounts,
		count: number,
		timeoutMs: number,
		stopped?: AbortSignal,
	): Promise<ExecutionCounts> {
		const { rest } = this.target();
		let started = 0;
		let unfinished = 0;
		await waitFor(
			`${count} executions of workflow ${workflow.id} to end`,
			async () => {
				[started, unfinished] = await Promise.all([
					rest.executionCount(workflow.id).then((all) => all - before.all),
					rest.executionCount(workflow.id, ['new', 'running', 'waiting']),
				]);
				return started >= count && unfinished === 0 ? true : undefined;
			},
			{
				timeoutMs,
				intervalMs: 1_000,
				describe: () => `New executions so far: ${started}, ${unfinished} of them not ended`,
				stopped,
			},
		);
		const after = await this.executionCounts(workflow);
		return { all: after.all - before.all, succeeded: after.succeeded - before.succeeded };
	}

	/** Waits for a ticket per response; a timeout says which have none, and what n8n's executions did. */
	private async ticketsArrived(
		workflow: WorkflowFile,
		responses: SurveyResponse[],
		timeoutMs: number,
		stopped?: AbortSignal,
	): Promise<void> {
		try {
			await waitFor(
				`tickets for ${responses.length} responses`,
				() => (this.ticketsFor(responses).length >= responses.length ? true : undefined),
				{
					timeoutMs,
					intervalMs: 500,
					describe: () => `Tickets so far: ${this.ticketsFor(responses).length}`,
					stopped,
				},
			);
		} catch (error) {
			const ticketed = new Set(
				this.ticketsFor(responses).map((ticket) => Number(ticket.fields.wootric_response_id)),
			);
			const byStatus = await Promise.all(
				ExecutionStatusList.map(
					async (status) =>
						`${status} ${await this.target().rest.executionCount(workflow.id, [status])}`,
				),
			);
			(error as Error).message +=
				`\nResponses without a ticket: ${responses
					.filter((response) => !ticketed.has(response.id))
					.map((response) => response.id)
					.join(', ')}` +
				`\nThe executions of workflow ${workflow.id} by status: ${byStatus.join(', ')}`;
			throw error;
		}
	}

	/**
	 * `count` new responses, their webhooks posted at once: each starts one execution, every
	 * execution succeeds, and the ticket endpoint gets exactly one ticket per response, from its
	 * execution.
	 */
	async burst(count: number, timeoutMs: number, stopped?: AbortSignal): Promise<BurstFigures> {
		const workflow = SCENARIO_WORKFLOWS.burst;
		await this.publish(workflow);
		const responses = this.newResponses(count);
		const deliveries = responses.map((response) => responseWebhook(this.target().fake, response));
		const before = await this.executionCounts(workflow);

		const answers = await postAll(this.productionUrlOf(workflow), deliveries, { stopped });
		expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
		await this.ticketsArrived(workflow, responses, timeoutMs, stopped);
		const started = await this.newExecutions(workflow, before, count, timeoutMs, stopped);

		expect(counted('executions', started.all)).toEqual(counted('executions', count));
		expect(counted('succeeded', started.succeeded)).toEqual(counted('succeeded', count));
		const tickets = this.ticketsFor(responses);
		const ticketedIds = tickets.map((ticket) => Number(ticket.fields.wootric_response_id));
		expect(ticketedIds.sort((a, b) => a - b)).toEqual(responses.map((response) => response.id));
		const ticketExecutionIds = [
			...new Set(tickets.map((ticket) => String(ticket.fields.n8n_execution_id))),
		];
		expect(counted('executions that opened a ticket', ticketExecutionIds.length)).toEqual(
			counted('executions that opened a ticket', count),
		);
		const executions = await inTurn(
			ticketExecutionIds,
			10,
			async (id) => await this.target().rest.executionSummary(id),
		);
		expect(
			executions.filter(
				(execution) => execution.workflowId !== workflow.id || execution.status !== 'success',
			),
		).toEqual([]);

		const executionById = new Map(executions.map((execution) => [execution.id, execution]));
		const sentAt = new Map(answers.map((answer) => [answer.responseId, answer.sentAt]));
		const latencies = tickets
			.map((ticket) => {
				const execution = executionById.get(String(ticket.fields.n8n_execution_id))!;
				return (
					Date.parse(execution.startedAt!) - sentAt.get(Number(ticket.fields.wootric_response_id))!
				);
			})
			.sort((a, b) => a - b);
		const firstSent = Math.min(...answers.map((answer) => answer.sentAt));
		const lastStopped = Math.max(
			...executions.map((execution) => Date.parse(execution.stoppedAt ?? '')),
		);
		return {
			webhooks: count,
			connections: SENDER_CONNECTIONS,
			retried: answers.filter((answer) => answer.attempts > 1).length,
			executions: started.all,
			succeeded: started.succeeded,
			startLatencyMs: {
				p50: percentile(latencies, 0.5),
				p95: percentile(latencies, 0.95),
				max: latencies.at(-1)!,
			},
			allDoneSeconds: Math.round((lastStopped - firstSent) / 100) / 10,
			receiverPeakRssMb: peakRssMb(this.target().receiver),
		};
	}

	/**
	 * `count` new responses, their webhooks posted at once, each failing the signature check in one
	 * of four ways: every one answered 401, no execution, no ticket. Returns the responses.
	 */
	async badSignatures(count: number, stopped?: AbortSignal): Promise<SurveyResponse[]> {
		const workflow = SCENARIO_WORKFLOWS.badSignatures;
		await this.publish(workflow);
		const responses = this.newResponses(count);
		const deliveries = responses.map((response, index) =>
			BAD_SIGNATURES[index % BAD_SIGNATURES.length](responseWebhook(this.target().fake, response)),
		);
		const before = await this.executionCounts(workflow);

		const answers = await postAll(this.productionUrlOf(workflow), deliveries, { stopped });

		expect(answers.filter((answer) => answer.status !== 401)).toEqual([]);
		expect(answers.filter((answer) => !answer.message.startsWith('X-Wootric-Signature'))).toEqual(
			[],
		);
		// A refused webhook is answered before n8n creates an execution: there is none to wait for.
		expect(await this.executionCounts(workflow)).toEqual(before);
		expect(this.ticketsFor(responses)).toEqual([]);
		return responses;
	}

	/**
	 * Each response's webhook delivered twice at once, then once more after the executions ended:
	 * one execution and one ticket per response, the repeats answered "nothing to start".
	 */
	async duplicates(
		responses: SurveyResponse[],
		timeoutMs: number,
		stopped?: AbortSignal,
	): Promise<void> {
		const workflow = SCENARIO_WORKFLOWS.duplicates;
		await this.publish(workflow);
		const url = this.productionUrlOf(workflow);
		const deliveries = responses.map((response) => responseWebhook(this.target().fake, response));
		const before = await this.executionCounts(workflow);

		// Each delivery next to its copy: the two go out on two connections at the same moment.
		const twice = await postAll(
			url,
			deliveries.flatMap((delivery) => [delivery, delivery]),
			{ stopped },
		);
		expect(twice.filter((answer) => answer.status !== 200)).toEqual([]);
		await this.ticketsArrived(workflow, responses, timeoutMs, stopped);
		await this.newExecutions(workflow, before, responses.length, timeoutMs, stopped);
		const again = await postAll(url, deliveries, { stopped });
		expect(again.filter((answer) => answer.status !== 200)).toEqual([]);

		const repeats = [...twice, ...again].filter((answer) => answer.message === NOTHING_TO_START);
		expect(counted('repeats answered "nothing to start"', repeats.length)).toEqual(
			counted('repeats answered "nothing to start"', 2 * responses.length),
		);
		const started = await this.newExecutions(
			workflow,
			before,
			responses.length,
			timeoutMs,
			stopped,
		);
		expect(started).toEqual({ all: responses.length, succeeded: responses.length });
		const ticketedIds = this.ticketsFor(responses).map((ticket) =>
			Number(ticket.fields.wootric_response_id),
		);
		expect(ticketedIds.sort((a, b) => a - b)).toEqual(responses.map((response) => response.id));
	}

	/** A workflow's Production URL at the receiving n8n. */
	productionUrlOf(workflow: WorkflowFile): string {
		return webhookTriggerUrl(this.target().receiver.baseUrl, workflow);
	}

	/**
	 * `delivery` posted to `url` (default: `workflow`'s Production URL): answered 200, it starts one
	 * execution of `workflow`, which succeeds; returns the items its trigger emitted.
	 */
	async startsOne(
		workflow: WorkflowFile,
		delivery: Delivery,
		url = this.productionUrlOf(workflow),
	): Promise<Array<Record<string, unknown>>> {
		const { rest } = this.target();
		const before = await executionIdsOf(rest, workflow.id);

		const [answer] = await postAll(url, [delivery]);

		expect(answer).toMatchObject({
			status: 200,
			message: expect.not.stringContaining(NOTHING_TO_START),
		});
		const started = await executionsAfter(rest, workflow.id, before, 1);
		expect(started.map((execution) => execution.status)).toEqual(['success']);
		return outputOf(started[0], workflow.nodes[0].name);
	}

	/**
	 * A new response's Response Created posted once to the webhook workflow at `url`: one
	 * execution, whose item carries the key `response:<id>`, and one ticket opened with it.
	 */
	async deliverOnce(url: string): Promise<DeliveredOnce> {
		const { fake, tickets } = this.target();
		const [response] = this.newResponses(1, 10);
		const delivery = responseWebhook(fake, response);

		const items = await this.startsOne(WEBHOOK_WORKFLOW, delivery, url);

		const idempotencyKey = `response:${response.id}`;
		expect(items).toEqual([
			expect.objectContaining({
				event: 'response',
				id: response.id,
				idempotency_key: idempotencyKey,
			}),
		]);
		expect(tickets.forResponse(response.id)).toEqual([expect.objectContaining({ idempotencyKey })]);
		return { response, delivery, idempotencyKey };
	}

	/**
	 * The delivery of `deliverOnce` posted again to `url`, where it is not remembered (n8n restarted
	 * since, or another webhook process): it starts the workflow again, with the same
	 * idempotency_key, and the ticket endpoint folds that POST into the one ticket.
	 */
	async deliverAgainUnremembered(first: DeliveredOnce, url: string): Promise<void> {
		const { tickets } = this.target();

		const items = await this.startsOne(WEBHOOK_WORKFLOW, first.delivery, url);

		expect(items).toEqual([
			expect.objectContaining({ id: first.response.id, idempotency_key: first.idempotencyKey }),
		]);
		expect(tickets.forResponse(first.response.id)).toHaveLength(1);
		expect(
			tickets
				.requestsFor(first.response.id)
				.map(({ method, status, idempotencyKey }) => ({ method, status, idempotencyKey })),
		).toEqual([
			{ method: 'POST', status: 201, idempotencyKey: first.idempotencyKey },
			{ method: 'POST', status: 200, idempotencyKey: first.idempotencyKey },
		]);
	}

	/**
	 * `delivery` posted to `workflow`'s Production URL, then `fence`, a delivery that starts it.
	 * n8n 1.x answers before it stores an execution, so that `delivery` started none shows only once
	 * an execution started after it has ended: the fence's must be the one new execution. Returns
	 * the answer to `delivery`.
	 */
	async startsNothing(
		workflow: WorkflowFile,
		delivery: Delivery,
		fence: Delivery,
	): Promise<Answer> {
		const { rest } = this.target();
		const url = this.productionUrlOf(workflow);
		const before = await executionIdsOf(rest, workflow.id);

		const [answer] = await postAll(url, [delivery]);
		const [fenceAnswer] = await postAll(url, [fence]);

		expect(fenceAnswer.status).toBe(200);
		const started = await executionsAfter(rest, workflow.id, before, 1);
		expect(started.map((execution) => outputOf(execution, workflow.nodes[0].name)[0].id)).toEqual([
			fence.responseId,
		]);
		return answer;
	}
}

/**
 * Where the figures of every run go, keyed by mode and n8n version, for
 * docs/maintainers/performance.md.
 */
const FIGURES_FILE = join(REPO_ROOT, 'bench-results', 'webhook-e2e.json');

/**
 * Records a burst's figures in bench-results/webhook-e2e.json (the runs of other modes and versions
 * kept) and returns them as one line for the suite to print.
 */
export function recordBurst(mode: string, n8nVersion: string, figures: BurstFigures): string {
	const key = `${mode}, n8n ${n8nVersion}`;
	const { p50, p95, max } = figures.startLatencyMs;
	const line =
		`webhook burst (${key}): ${figures.webhooks} posted at once over ${figures.connections} connections (${figures.retried} sent again after a 5xx), ${figures.succeeded} of ${figures.executions} executions succeeded, ` +
		`POST → execution start p50 ${p50} ms, p95 ${p95} ms, max ${max} ms; all done in ${figures.allDoneSeconds} s; ` +
		`receiving n8n's peak RSS ${figures.receiverPeakRssMb} MB`;
	mkdirSync(join(REPO_ROOT, 'bench-results'), { recursive: true });
	const recorded = existsSync(FIGURES_FILE)
		? (JSON.parse(readFileSync(FIGURES_FILE, 'utf8')) as Record<string, unknown>)
		: {};
	recorded[key] = { ...figures, measuredAt: new Date().toISOString() };
	writeFileSync(FIGURES_FILE, `${JSON.stringify(recorded, null, 2)}\n`);
	return line;
}
