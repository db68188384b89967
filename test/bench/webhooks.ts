/**
 * The Wootric Webhook Trigger side by side, in one real n8n (the pinned version, the package
 * installed from its tarball, started as the e2e starts it, plus N8N_METRICS for its count of
 * isolates), with:
 *
 * - the floor: the least any signed community trigger does (reads its credential's secret in the
 *   webhook, checks the HMAC of the raw body, emits one item), floor-trigger/, built for the bench
 *   only; and the same floor keeping its secret between deliveries (what that would save);
 * - theirs, what a user would build instead: n8n's Webhook node (raw body) → Crypto (HMAC-SHA1 of
 *   that raw body with the webhook secret) → IF (`sha1=<hex>` equals X-Wootric-Signature)
 *   (workflows/webhook-node-to-ticket.json).
 *
 * Ours at version 1.1 (what new nodes are) and at version 1 (workflows saved before). Every side
 * opens the ticket with the same HTTP Request node, the response id in it. Each receives the same
 * load of signed Response Created deliveries (distinct responses) with only its own workflow
 * published; the order alternates (forwards, backwards, …) so that none always runs on the fuller
 * database or the warmer process.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { startN8nWithPackage, type N8nWithPackage } from '../../scripts/e2e/n8n-with-package';
import { startQueueCluster, type QueueCluster } from '../../scripts/e2e/queue-cluster';
import { REPO_ROOT } from '../../scripts/e2e/paths';
import { freePort, waitFor } from '../../scripts/e2e/processes';
import { TicketServer } from '../../scripts/e2e/ticket-server';
import type { WorkflowFile } from '../../scripts/e2e/workflow-files';
import {
	percentile,
	postAll,
	responseWebhook,
	WEBHOOK_WORKFLOW,
	WebhookScenarios,
} from '../e2e/webhook-deliveries';
import { FakeWootric } from '../fake';
import { formatCount, formatMs, median } from './measure';

const WEBHOOK_NODE_WORKFLOW = JSON.parse(
	readFileSync(
		join(REPO_ROOT, 'test', 'bench', 'workflows', 'webhook-node-to-ticket.json'),
		'utf8',
	),
) as WorkflowFile;
/** The Crypto node's credential in that workflow: its HMAC secret is the account's webhook secret. */
const HMAC_CREDENTIAL = {
	id: 'benchWootricHmac01',
	name: 'Wootric webhook secret',
	type: 'crypto',
};
const FLOOR_PACKAGE = join(REPO_ROOT, 'test', 'bench', 'floor-trigger');
const FLOOR_CREDENTIAL = { id: 'benchFloorSecret01', name: 'Floor webhook secret' };
/** How long the kept floor keeps its secret: the rotation window it would open. */
export const KEEP_SECRET_SECONDS = 60;

/**
 * The e2e's workflow (ours at version 1) with another trigger in its place: the same HTTP Request
 * node after it, the trigger's own webhook id.
 */
function withTrigger(
	id: string,
	name: string,
	trigger: Record<string, unknown> & { webhookId: string },
): WorkflowFile {
	const [ours, ...rest] = WEBHOOK_WORKFLOW.nodes;
	const node = { ...ours, ...trigger } as WorkflowFile['nodes'][number];
	return { ...WEBHOOK_WORKFLOW, id, name, nodes: [node, ...rest] };
}
const floorTrigger = (keepSeconds: number) => ({
	type: 'n8n-nodes-bench-floor.signedFloor',
	typeVersion: 1.1,
	parameters: { keepSeconds },
	credentials: { benchFloorSecret: FLOOR_CREDENTIAL },
});
const WORKFLOWS_OURS = withTrigger('benchOursV11', 'bench: Wootric Webhook Trigger 1.1 → ticket', {
	typeVersion: 1.1,
	webhookId: '8d0c3b1e-5a2f-4c6d-9e7b-1f2a3b4c5d01',
});
const WORKFLOWS = {
	ours: WORKFLOWS_OURS,
	oursV1: WEBHOOK_WORKFLOW,
	floor: withTrigger('benchFloor', 'bench: the floor trigger → ticket', {
		...floorTrigger(0),
		webhookId: '8d0c3b1e-5a2f-4c6d-9e7b-1f2a3b4c5d02',
	}),
	floorKept: withTrigger('benchFloorKept', 'bench: the floor trigger, secret kept → ticket', {
		...floorTrigger(KEEP_SECRET_SECONDS),
		webhookId: '8d0c3b1e-5a2f-4c6d-9e7b-1f2a3b4c5d03',
	}),
	theirs: WEBHOOK_NODE_WORKFLOW,
	// Queue mode: ours posted half to the main and half to an `n8n webhook` process.
	oursSplit: WORKFLOWS_OURS,
} satisfies Record<string, WorkflowFile>;

const OWNER = { email: 'bench-owner@example.com', password: 'Bench-owner-password-1' };
/** How long one load may take to be ticketed before the run is called failed. */
const TICKETS_TIMEOUT_MS = 5 * 60_000;

export type Side = keyof typeof WORKFLOWS;
export const SIDE_NAMES: Record<Side, string> = {
	ours: 'ours: Wootric Webhook Trigger 1.1 (new nodes) → HTTP Request',
	oursV1: 'ours at version 1 (workflows saved before) → HTTP Request',
	floor: 'floor: reads its credential, checks the HMAC, emits one item → HTTP Request',
	floorKept: `floor keeping its secret ${KEEP_SECRET_SECONDS} s → HTTP Request`,
	theirs: 'theirs: Webhook (raw body) → Crypto HMAC-SHA1 → IF signature → HTTP Request',
	oursSplit: 'ours, posted half to the main and half to an `n8n webhook` process',
};

/** A load: `deliveries` posted as a sender with `connections` connections posts them. */
interface Load {
	deliveries: number;
	connections: number;
}
export const LOADS = {
	burst: { deliveries: 500, connections: 100 },
	oneAtATime: { deliveries: 100, connections: 1 },
} satisfies Record<string, Load>;
type LoadName = keyof typeof LOADS;
/** Before the measured runs, once per side: n8n's first executions of a workflow are slower. */
const WARM_UP: Load = { deliveries: 50, connections: 10 };

export interface LoadFigures {
	/** From each POST (when its connection sent it) to its ticket arriving at the ticket server. */
	p50Ms: number;
	p95Ms: number;
	/** From the first POST to the last ticket. */
	allTicketedMs: number;
	/** Deliveries the sender had to post again (n8n answered 5xx or not at all). */
	retried: number;
	/** The n8n process's CPU time (user + system, all its threads) over the load, per delivery. */
	n8nCpuMsPerDelivery: number;
	/** Isolates n8n's expression engine handed out over the load, per delivery (null: it uses none). */
	isolatesPerDelivery: number | null;
}

export interface WebhookRun {
	side: Side;
	figures: Record<LoadName, LoadFigures>;
	/** The machine's 1-minute load average when the run ended: other jobs on it show here. */
	loadAverage: number;
}

export interface SideBySide {
	n8nVersion: string;
	deployment: 'one process' | 'queue mode';
	/** n8n's settings that differ from its defaults (environment variables). */
	n8nSettings: Record<string, string>;
	/** Every run, in the order run. */
	runs: WebhookRun[];
	/** Per side measured, the median of its runs' figures. */
	medians: Partial<Record<Side, Record<LoadName, LoadFigures>>>;
}

/** Where each side receives its deliveries (dealt out in turn), and which workflow to publish. */
interface Receiver {
	workflow: WorkflowFile;
	urls: string[];
}

/** The Production URL of a workflow's n8n Webhook node: /webhook/<its path>. */
function webhookNodeUrl(n8nBaseUrl: string, workflow: WorkflowFile): string {
	const node = workflow.nodes.find((candidate) => candidate.type === 'n8n-nodes-base.webhook');
	if (!node) throw new Error(`Workflow "${workflow.name}" has no Webhook node`);
	return `${n8nBaseUrl}/webhook/${String(node.parameters.path)}`;
}

/** USER_HZ: the unit of /proc's CPU times, 100 on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/** A process's CPU time so far (user + system, all threads), from Linux's /proc/<pid>/stat. */
function cpuMs(pid: number): number {
	// The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * How many isolates n8n's expression engine has handed out since it started: its Prometheus
 * counter (N8N_METRICS=true), absent when the engine uses none.
 */
async function isolatesAcquired(n8nBaseUrl: string | undefined): Promise<number | null> {
	if (n8nBaseUrl === undefined) return null;
	const metrics = await (await fetch(`${n8nBaseUrl}/metrics`)).text();
	const line = metrics
		.split('\n')
		.find((candidate) => candidate.startsWith('n8n_expression_pool_acquired_total '));
	return line === undefined ? null : Number(line.split(' ')[1]);
}

function medianFigures(runs: Array<Record<LoadName, LoadFigures>>): Record<LoadName, LoadFigures> {
	const of = (load: LoadName, figure: Exclude<keyof LoadFigures, 'isolatesPerDelivery'>) =>
		median(runs.map((run) => run[load][figure]));
	const isolates = (load: LoadName) => {
		const counted = runs.map((run) => run[load].isolatesPerDelivery);
		return counted.includes(null) ? null : median(counted as number[]);
	};
	const figuresOf = (load: LoadName): LoadFigures => ({
		p50Ms: of(load, 'p50Ms'),
		p95Ms: of(load, 'p95Ms'),
		allTicketedMs: of(load, 'allTicketedMs'),
		retried: of(load, 'retried'),
		n8nCpuMsPerDelivery: of(load, 'n8nCpuMsPerDelivery'),
		isolatesPerDelivery: isolates(load),
	});
	return { burst: figuresOf('burst'), oneAtATime: figuresOf('oneAtATime') };
}

/**
 * Starts the fake Wootric API, the ticket server and n8n with the sides' workflows, warms each side
 * up, then runs `rounds` rounds of the sides in alternating order, and stops them all.
 * `n8nSettings`: n8n's expression-engine settings other than its defaults. In queue mode (two
 * workers, one `n8n webhook` process) the CPU time is every n8n process's, and isolates are not
 * counted (the main's count would leave out the workers').
 */
export async function webhookSideBySide(
	sides: Side[],
	rounds: number,
	log: (line: string) => void,
	n8nSettings: Record<string, string> = {},
	deployment: 'one process' | 'queue mode' = 'one process',
): Promise<SideBySide> {
	const workFolder = mkdtempSync(join(tmpdir(), 'n8n-wootric-bench-'));
	const fake = await new FakeWootric().listen();
	/** Response id → when each ticket for it arrived (more than one would be a double ticket). */
	const ticketed = new Map<number, number[]>();
	const tickets = await new TicketServer((change) => {
		// Every POST that arrived, one folded by its Idempotency-Key included.
		if (change.kind === 'updated') return;
		const id = Number(change.ticket.fields.wootric_response_id);
		ticketed.set(id, [...(ticketed.get(id) ?? []), Date.now()]);
	}).listen();
	let n8n: N8nWithPackage | QueueCluster | undefined;
	try {
		const options = {
			workFolder,
			port: await freePort(),
			owner: OWNER,
			wootric: { baseUrl: fake.baseUrl, login: fake.credentials },
			ticketUrl: tickets.url,
			otherPackages: [FLOOR_PACKAGE],
			credentials: [
				{ ...HMAC_CREDENTIAL, data: { hmacSecret: fake.credentials.webhookSecret } },
				{
					...FLOOR_CREDENTIAL,
					type: 'benchFloorSecret',
					data: { secret: fake.credentials.webhookSecret },
				},
			],
			workflows: [...new Set(sides.map((side) => WORKFLOWS[side]))],
			// Only so that the bench can read n8n's count of isolates (GET /metrics).
			env: { N8N_METRICS: 'true', ...n8nSettings },
			log,
		};
		const cluster =
			deployment === 'queue mode'
				? await startQueueCluster({ ...options, workers: 2, webhookProcesses: 1 })
				: undefined;
		n8n = cluster ?? (await startN8nWithPackage(options));
		const { rest } = n8n;
		const pids = [n8n.n8n, ...(cluster?.workers ?? []), ...(cluster?.webhookProcesses ?? [])].map(
			(process) => process.pid!,
		);
		const baseUrl = n8n.n8n.baseUrl;
		const metricsUrl = cluster ? undefined : baseUrl;
		const receiverOf = (side: Side): Receiver => {
			const workflow = WORKFLOWS[side];
			if (side === 'theirs') return { workflow, urls: [webhookNodeUrl(baseUrl, workflow)] };
			// A trigger's Production URL: /webhook/<its webhook id>/<its webhook's path>.
			const path = `webhook/${workflow.nodes[0].webhookId}/webhook`;
			const receivers =
				side === 'oursSplit' ? [n8n!.n8n, ...(cluster?.webhookProcesses ?? [])] : [n8n!.n8n];
			return { workflow, urls: receivers.map((receiver) => `${receiver.baseUrl}/${path}`) };
		};
		const scenarios = new WebhookScenarios(() => ({
			fake,
			tickets,
			receiver: n8n!.n8n,
			rest,
		}));

		/** One load to one side: every delivery answered 200 and ticketed once, or an error. */
		const post = async (side: Side, load: Load): Promise<LoadFigures> => {
			const { workflow, urls } = receiverOf(side);
			const responses = scenarios.newResponses(load.deliveries);
			const deliveries = responses.map((response) => responseWebhook(fake, response));
			const cpuOfAll = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
			const cpuBefore = cpuOfAll();
			const isolatesBefore = await isolatesAcquired(metricsUrl);
			// Several receivers share the load's connections (one at a time: one each).
			const answers = (
				await Promise.all(
					urls.map(
						async (url, index) =>
							await postAll(
								url,
								deliveries.filter((_, delivery) => delivery % urls.length === index),
								{ connections: Math.max(1, Math.round(load.connections / urls.length)) },
							),
					),
				)
			).flat();
			const refused = answers.filter((answer) => answer.status !== 200);
			if (refused.length > 0)
				throw new Error(
					`${side}: ${refused.length} deliveries not answered 200, e.g. ${JSON.stringify(refused[0])}`,
				);
			const missing = () => responses.filter((response) => !ticketed.has(response.id));
			await waitFor(
				`tickets for ${load.deliveries} deliveries (${side})`,
				() => (missing().length === 0 ? true : undefined),
				{
					timeoutMs: TICKETS_TIMEOUT_MS,
					intervalMs: 100,
					describe: () => `${missing().length} without a ticket`,
				},
			);
			// The next load starts on an idle n8n: the last executions are saved too.
			await waitFor(
				`the executions of ${workflow.id} to end`,
				async () =>
					(await rest.executionCount(workflow.id, ['new', 'running', 'waiting'])) === 0
						? true
						: undefined,
				{ timeoutMs: TICKETS_TIMEOUT_MS, intervalMs: 200 },
			);
			const n8nCpuMsPerDelivery = (cpuOfAll() - cpuBefore) / load.deliveries;
			const isolatesAfter = await isolatesAcquired(metricsUrl);
			const twice = responses.filter((response) => ticketed.get(response.id)!.length > 1);
			if (twice.length > 0)
				throw new Error(`${side}: ${twice.length} responses ticketed more than once`);
			const latencies = answers
				.map((answer) => ticketed.get(answer.responseId)![0] - answer.sentAt)
				.sort((a, b) => a - b);
			const firstSent = Math.min(...answers.map((answer) => answer.sentAt));
			const lastTicket = Math.max(...responses.map((response) => ticketed.get(response.id)![0]));
			return {
				p50Ms: percentile(latencies, 0.5),
				p95Ms: percentile(latencies, 0.95),
				allTicketedMs: lastTicket - firstSent,
				retried: answers.filter((answer) => answer.attempts > 1).length,
				n8nCpuMsPerDelivery,
				isolatesPerDelivery:
					isolatesBefore === null || isolatesAfter === null
						? null
						: (isolatesAfter - isolatesBefore) / load.deliveries,
			};
		};
		/** With only this side's workflow published. */
		const published = async <T>(side: Side, work: () => Promise<T>): Promise<T> => {
			await rest.activate(WORKFLOWS[side].id);
			try {
				return await work();
			} finally {
				await rest.deactivate(WORKFLOWS[side].id);
			}
		};

		for (const side of sides) {
			log(`Warming up ${side}…`);
			await published(side, () => post(side, WARM_UP));
		}
		const runs: WebhookRun[] = [];
		for (let round = 0; round < rounds; round++) {
			const order = round % 2 === 0 ? sides : [...sides].reverse();
			for (const side of order) {
				log(`Round ${round + 1} of ${rounds}: ${side}…`);
				const figures = await published(side, async () => ({
					burst: await post(side, LOADS.burst),
					oneAtATime: await post(side, LOADS.oneAtATime),
				}));
				const run = { side, figures, loadAverage: loadavg()[0] };
				runs.push(run);
				log(`  ${runLine(run)}`);
			}
		}
		const runsOf = (side: Side) =>
			runs.filter((run) => run.side === side).map((run) => run.figures);
		return {
			n8nVersion: n8n.runtime.n8nVersion,
			deployment,
			n8nSettings,
			runs,
			medians: Object.fromEntries(sides.map((side) => [side, medianFigures(runsOf(side))])),
		};
	} finally {
		await (n8n && 'workers' in n8n ? n8n.stop() : n8n?.n8n.stop());
		await fake.close();
		FakeWootric.started.splice(FakeWootric.started.indexOf(fake), 1);
		await tickets.close();
		rmSync(workFolder, { recursive: true, force: true });
	}
}

const loadLabel = (load: Load) =>
	load.connections === 1
		? `${formatCount(load.deliveries)} one at a time`
		: `${formatCount(load.deliveries)} over ${load.connections} connections`;

const formatIsolates = (isolates: number | null) =>
	isolates === null ? 'no isolate count' : `${isolates.toFixed(1)} isolates`;

/** One run's figures on one line, as the bench prints it while running. */
export function runLine({ side, figures, loadAverage }: WebhookRun): string {
	const parts = (Object.keys(LOADS) as LoadName[]).map((load) => {
		const { p50Ms, p95Ms, allTicketedMs, retried, n8nCpuMsPerDelivery, isolatesPerDelivery } =
			figures[load];
		return `${loadLabel(LOADS[load])}: p50 ${formatMs(p50Ms)}, p95 ${formatMs(p95Ms)}, all in ${formatMs(allTicketedMs)}, n8n CPU ${formatMs(n8nCpuMsPerDelivery)} and ${formatIsolates(isolatesPerDelivery)} a delivery${retried ? ` (${retried} posted again)` : ''}`;
	});
	return `${side}: ${parts.join('; ')}; load average ${loadAverage.toFixed(1)}`;
}

/**
 * Two sides of one run, figure by figure: each, and `side` / `against`, marked against `goal` where
 * one is given (for the times and n8n's CPU; the isolates show why).
 */
export function comparisonTable(
	result: SideBySide,
	side: Side,
	against: Side,
	goal?: number,
): string {
	const settings = Object.entries(result.n8nSettings).map(([name, value]) => `, ${name}=${value}`);
	const lines = [
		`| n8n ${result.n8nVersion}, ${result.deployment === 'queue mode' ? 'queue mode, two workers' : 'one process'}${settings.join('')} | ${SIDE_NAMES[side]} | ${SIDE_NAMES[against]} | ${side} / ${against}${goal === undefined ? '' : ` (goal ≤ ${goal}×)`} |`,
		'|---|---|---|---|',
	];
	/** A figure's label, how it is shown, and whether the goal applies to it. */
	const figures: Array<[keyof LoadFigures, string, (value: number) => string, boolean]> = [
		['p50Ms', 'POST → ticket, p50', formatMs, true],
		['p95Ms', 'POST → ticket, p95', formatMs, true],
		['allTicketedMs', 'all ticketed in', formatMs, true],
		['n8nCpuMsPerDelivery', "n8n's CPU time per delivery", formatMs, true],
		['isolatesPerDelivery', 'isolates n8n took per delivery', (value) => value.toFixed(1), false],
	];
	for (const load of Object.keys(LOADS) as LoadName[])
		for (const [figure, label, format, hasGoal] of figures) {
			const mine = result.medians[side]?.[load][figure];
			const theirs = result.medians[against]?.[load][figure];
			if (mine === null || mine === undefined || theirs === null || theirs === undefined) continue;
			const ratio = mine / theirs;
			const mark = hasGoal && goal !== undefined ? ` ${ratio <= goal ? '✓' : '✗'}` : '';
			lines.push(
				`| ${loadLabel(LOADS[load])}: ${label} | ${format(mine)} | ${format(theirs)} | ${ratio.toFixed(2)}×${mark} |`,
			);
		}
	return lines.join('\n');
}
