import type { CliExecution } from '../../scripts/e2e/n8n-instance';
import type { RestExecution } from '../../scripts/e2e/rest-client';
import type { WorkflowFile } from '../../scripts/e2e/workflow-files';
import { waitFor } from '../../scripts/e2e/processes';
import type { FakeRequest, FakeWootric } from '../fake';

type Json = Record<string, unknown>;

/**
 * The items a node output in an execution (its first run, first output). Fails with the nodes that
 * did run and the execution's error when the node has no output.
 */
export function outputOf(execution: CliExecution | RestExecution, nodeName: string): Json[] {
	const { runData, error } = execution.data.resultData;
	const items = runData[nodeName]?.[0]?.data?.main?.[0];
	if (!items) {
		throw new Error(
			`Node "${nodeName}" has no output. Nodes that ran: ${Object.keys(runData).join(', ') || 'none'}.` +
				(error ? ` Execution error: ${error.message}` : ''),
		);
	}
	return items.map((item) => item.json);
}

/** The requests the fake API received from a point on: mark before a run, read after it. */
export class RequestLog {
	private from = 0;

	constructor(private readonly fake: FakeWootric) {}

	mark(): void {
		this.from = this.fake.requests.length;
	}

	/** Data requests since the mark (the token endpoint left out). */
	since(): FakeRequest[] {
		return this.fake.requests.slice(this.from).filter((request) => request.path !== '/oauth/token');
	}

	/** The requests since the mark of one method and (decoded) path. */
	to(method: string, path: string): FakeRequest[] {
		return this.since().filter(
			(request) => request.method === method && decodeURIComponent(request.path) === path,
		);
	}

	/**
	 * Exactly one request of `method` to `path` since the mark; otherwise fails with what was
	 * received.
	 */
	one(method: string, path: string): FakeRequest {
		const matching = this.to(method, path);
		if (matching.length !== 1) {
			throw new Error(
				`Expected one ${method} ${path}, the fake API received ${matching.length}. All requests since the run started:\n${this.describe()}`,
			);
		}
		return matching[0];
	}

	/**
	 * The requests since the mark, one "METHOD /path?query → status" line each, for failure messages.
	 */
	describe(): string {
		const lines = this.since().map(
			(request) =>
				`  ${request.method} ${decodeURIComponent(request.path)}${request.rawQuery ? `?${request.rawQuery}` : ''} → ${request.status ?? '…'}`,
		);
		return lines.join('\n') || '  (none)';
	}
}

const POLLING_TRIGGER_TYPE = 'n8n-nodes-wootric.wootricTrigger';

/**
 * n8n refuses a Poll Time that fires more than once a minute ("The polling interval is too short";
 * a cron with anything but one fixed second in its seconds field), but it checks each Poll Time on
 * its own: twelve custom crons five seconds apart poll every 5 s. Each is there twice, in two
 * spellings (n8n skips a cron registered again as it is), so n8n's own poller starts two polls at
 * once every time, as with two Poll Times of one minute: every step then shows the trigger emitting
 * each event once all the same. Only the tests do this; the examples poll every minute.
 */
export function fiveSecondPolls(workflow: WorkflowFile): WorkflowFile {
	const pollTimes = {
		item: Array.from({ length: 12 }, (_, index) => 5 * index).flatMap((second) =>
			[`${second} * * * * *`, `${second} */1 * * * *`].map((cronExpression) => ({
				mode: 'custom',
				cronExpression,
			})),
		),
	};
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.type === POLLING_TRIGGER_TYPE
				? { ...node, parameters: { ...node.parameters, pollTimes } }
				: node,
		),
	};
}

/**
 * Waits for a poll that started after now to be answered: a list of responses the fake answered
 * (the polling trigger's read).
 */
export async function pollOfFakeAnswered(fake: FakeWootric, timeoutMs: number): Promise<void> {
	const from = fake.requests.length;
	await waitFor(
		'one more poll',
		() =>
			fake.requests
				.slice(from)
				.some((request) => request.path === '/v1/responses' && request.status !== undefined)
				? true
				: undefined,
		{ timeoutMs },
	);
}
