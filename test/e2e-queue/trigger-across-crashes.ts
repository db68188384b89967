/**
 * The polling trigger in queue mode, through what a team's deployment goes through: three bursts of
 * responses, the main restarted between two polls while the second arrives, and the worker running
 * the third killed in the middle of its tickets. The promise checked: every response created is
 * emitted by exactly one trigger execution and gets a ticket; the cursor only moves on. Run on n8n's
 * own poller (the queue suite: the cursor in the workflow's static data) and on its durable poller
 * (the durable suite: the cursor in poller_state).
 */
import { readFileSync } from 'node:fs';

import type { StreamCursor } from '../../nodes/Wootric/polling/cursor';
import { waitFor } from '../../scripts/e2e/processes';
import type { QueueCluster } from '../../scripts/e2e/queue-cluster';
import { psqlQuery } from '../../scripts/e2e/queue-services';
import { requireFromN8n } from '../../scripts/e2e/runtime';
import type { TicketServer } from '../../scripts/e2e/ticket-server';
import { burstSize } from '../../scripts/e2e/version-checks';
import { addResponse, createEndUser, type FakeWootric } from '../fake';
import { TRIGGER_NAME } from './workflows';

/** One SQL query against the cluster's PostgreSQL database: rows of tab-separated values. */
export async function queueSql(cluster: QueueCluster, query: string): Promise<string[][]> {
	return (await psqlQuery(cluster.services.env, query, ['-F', '\t']))
		.split('\n')
		.filter(Boolean)
		.map((line) => line.split('\t'));
}

/**
 * The ids of the executions of `workflowIds` each worker says it started ("Worker started execution
 * <id>"). Each step counts only its own workflows' executions, so that one that failed with
 * executions still running leaves the next step its own verdict.
 */
export async function executionsPerWorker(
	cluster: QueueCluster,
	workflowIds: string[],
): Promise<Array<Set<string>>> {
	const rows = await queueSql(
		cluster,
		`SELECT id FROM execution_entity WHERE "workflowId" IN (${workflowIds.map((id) => `'${id}'`).join(', ')})`,
	);
	const ofWorkflows = new Set(rows.map(([id]) => id));
	return cluster.workers.map(
		(worker) =>
			new Set(
				[...readFileSync(worker.logFile, 'utf8').matchAll(/Worker started execution (\d+)/g)]
					.map((match) => match[1])
					.filter((id) => ofWorkflows.has(id)),
			),
	);
}

export interface TriggerAcrossCrashes {
	cluster: QueueCluster;
	/** The account the trigger reads: the bursts are created in it. */
	fake: FakeWootric;
	/** Where the workflow opens its tickets (cleared first). */
	tickets: TicketServer;
	/** A Wootric Trigger → tickets workflow (triggerToTickets), unpublished. */
	workflowId: string;
	/**
	 * Restarts the main as the deployment runs it, doing `whileDown` while it is stopped, with
	 * `recovery` added to its environment, and logs in again.
	 */
	restartMain: (recovery: Record<string, string>, whileDown: () => void) => Promise<void>;
	/** The trigger's cursor on /v1/responses where n8n keeps it. */
	cursor: () => Promise<StreamCursor | undefined>;
	/** Where that is, for the figure line. */
	cursorPlace: string;
}

/** Runs the scenario, asserts its promise, unpublishes the workflow, and returns its figure line. */
export async function runTriggerAcrossCrashes(scenario: TriggerAcrossCrashes): Promise<string> {
	const { cluster, fake, tickets, workflowId } = scenario;
	const answer = createEndUser(fake.account, fake.store, 'burst@example.com');
	const created: number[] = [];
	const burst = (count: number, clusterSize: number) => {
		const second = fake.clock.now();
		for (let index = 0; index < count; index++) {
			// The first `clusterSize` share one second (more than a page), the rest the next one.
			created.push(
				addResponse(fake.account, fake.store, {
					endUserId: answer.id,
					score: index % 11,
					createdAt: index < clusterSize ? second : second + 1,
				}).id,
			);
		}
	};
	// The ticket endpoint opens one ticket per Idempotency-Key, however often it is sent.
	const distinctTickets = () => new Set(tickets.tickets.map((ticket) => ticket.idempotencyKey));
	const ticketPosts = () => tickets.requests.filter((request) => request.method === 'POST');
	const waitForTickets = async (count: number, timeoutMs: number) =>
		await waitFor(
			`${count} distinct tickets`,
			() => (distinctTickets().size >= count ? true : undefined),
			{
				timeoutMs,
				intervalMs: 500,
				describe: () => `distinct tickets ${distinctTickets().size}, POSTs ${ticketPosts().length}`,
			},
		);
	tickets.clear();
	await cluster.rest.activate(workflowId);
	await waitFor(
		'the first poll to store its cursor',
		async () => ((await scenario.cursor()) ? true : undefined),
		{ timeoutMs: 90_000, intervalMs: 1000 },
	);

	// Burst 1, then the main restarts between two polls while burst 2 arrives. It comes back checking
	// for dangling executions every minute instead of every 3 hours, so that the execution of the
	// worker killed below is marked crashed in time. (n8n's check is racy: an execution stored but
	// not yet queued is marked too, and its worker then skips it. The webhook bursts, which run
	// before, keep n8n's default.)
	const perBurst = burstSize();
	// The same-second clusters, and burst 3's ticketing time (about 12 s, in which a worker is killed),
	// are those of a burst of 300, in proportion for a smaller one (100 in the version checks).
	const scaled = (atThreeHundred: number) =>
		Math.round((atThreeHundred * Math.min(perBurst, 300)) / 300);
	burst(perBurst, scaled(120));
	await waitForTickets(perBurst, 180_000);
	const cursorBeforeRestart = await scenario.cursor();
	await scenario.restartMain({ N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '1' }, () =>
		burst(perBurst, scaled(200)),
	);
	await waitForTickets(2 * perBurst, 180_000);

	// Burst 3 goes to tickets slowly; the worker running that execution is killed in the middle of
	// it.
	tickets.delayMs = Math.round(12_000 / Math.min(perBurst, 300));
	const beforeBurst3 = await executionsPerWorker(cluster, [workflowId]);
	burst(perBurst, scaled(60));
	await waitFor(
		'tickets of burst 3 to arrive',
		() => (distinctTickets().size >= 2 * perBurst + scaled(100) ? true : undefined),
		{ timeoutMs: 120_000, intervalMs: 200 },
	);
	const running = (await executionsPerWorker(cluster, [workflowId])).findIndex(
		(ids, index) => ids.size > beforeBurst3[index].size,
	);
	expect(running).toBeGreaterThanOrEqual(0);
	const killed = cluster.workers[running];
	killed.kill('SIGKILL');
	await killed.whenExited();
	const ticketsAtKill = distinctTickets().size;
	await killed.start();
	tickets.delayMs = 0;
	// n8n does not run a killed worker's job again (its queue allows no stalled retries): the
	// execution ends "crashed", the rest of its items unsent. Retrying it, as an operator would,
	// sends them; the ticket system's idempotency key absorbs the ones that had gone out.
	const crashed = await waitFor(
		'the killed execution to be marked',
		async () => {
			const rows = await queueSql(
				cluster,
				`SELECT id, status FROM execution_entity WHERE "workflowId" = '${workflowId}' AND status NOT IN ('success', 'running', 'new') AND "retryOf" IS NULL`,
			);
			return rows.length > 0 ? rows : undefined;
		},
		{ timeoutMs: 180_000, intervalMs: 2000 },
	);
	for (const [id] of crashed)
		await cluster.rest.request('POST', `/rest/executions/${id}/retry`, { loadWorkflow: false });
	await waitForTickets(3 * perBurst, 240_000);
	// A last quarter-minute poll, so that a late duplicate would show.
	await new Promise((resolve) => setTimeout(resolve, 16_000));

	const posts = ticketPosts().length;
	expect([...distinctTickets()].sort()).toEqual(created.map((id) => `response:${id}`).sort());
	const emitted = await emittedByTrigger(cluster, workflowId);
	const emittedIds = emitted.flat();
	expect({
		perExecution: emitted.map((ids) => ids.length),
		total: emittedIds.length,
		distinct: new Set(emittedIds).size,
	}).toEqual({
		perExecution: expect.any(Array),
		total: created.length,
		distinct: created.length,
	});
	const cursor = await scenario.cursor();
	// The cursor only moves on: the main restarted from the one n8n's database held.
	expect(cursor?.complete).toBeGreaterThanOrEqual(cursorBeforeRestart?.complete ?? Infinity);
	await cluster.rest.deactivate(workflowId);
	return (
		`trigger exactly once: ${created.length} responses created in 3 bursts (same-second clusters of ${[120, 200, 60].map(scaled).join(', ')}), the main restarted between polls, ` +
		`worker ${running + 1} killed at ${ticketsAtKill} tickets; the trigger emitted ${emittedIds.length} (${new Set(emittedIds).size} distinct) in ${emitted.length} executions; ` +
		`tickets ${distinctTickets().size} distinct of ${posts} POSTs (${posts - distinctTickets().size} re-sent by the retry of crashed execution ${crashed.map(([id, status]) => `${id} (${status})`).join(', ')}); ` +
		`cursor in ${scenario.cursorPlace}: complete ${cursor?.complete} (${cursor ? new Date(cursor.complete * 1000).toISOString() : '–'}), ` +
		`${cursor?.recent.length ?? '–'} recent records kept`
	);
}

/** The response ids each trigger execution (not the retries) carried, read from PostgreSQL. */
async function emittedByTrigger(cluster: QueueCluster, workflowId: string): Promise<number[][]> {
	const rows = await queueSql(
		cluster,
		`SELECT d.data FROM execution_data d JOIN execution_entity e ON e.id = d."executionId" WHERE e."workflowId" = '${workflowId}' AND e."retryOf" IS NULL ORDER BY e.id`,
	);
	const { parse } = requireFromN8n<{ parse: (text: string) => unknown }>(
		cluster.runtime,
		'flatted',
	);
	type Items = Array<{ json: { id: number } }>;
	return rows.map(([data]) => {
		const run = parse(data) as {
			resultData: { runData: Record<string, Array<{ data?: { main?: Items[] } }>> };
			executionData?: {
				nodeExecutionStack: Array<{ node: { name: string }; data: { main: Items[] } }>;
			};
		};
		// A run the killed worker never finished holds the trigger's items as the main queued them, on
		// the stack (n8n's crash recovery puts a stand-in item in its run data).
		const items =
			run.executionData?.nodeExecutionStack.find((entry) => entry.node.name === TRIGGER_NAME)?.data
				.main[0] ??
			run.resultData.runData[TRIGGER_NAME]?.[0]?.data?.main?.[0] ??
			[];
		return items.map((item) => item.json.id);
	});
}
