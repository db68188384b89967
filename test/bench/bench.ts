/**
 * `npm run bench`: what the package costs next to a floor (a plain undici loop making the fewest
 * requests for the same work), against the fake Wootric API on 127.0.0.1, with the node run through
 * n8n-core's real engine. Prints a table and writes bench-results/bench.json. Not part of `npm
 * test`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SETTLE_SECONDS, type StreamCursor } from '../../nodes/Wootric/polling/cursor';
import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	FakeWootric,
	MAX_PER_PAGE,
} from '../fake';
import {
	loadOptionsContext,
	parameterEvaluation,
	REPO_ROOT,
	requireBuilt,
	runNode,
	shownToUsers,
	type RunNodeOptions,
} from '../harness';
import { recordShown } from '../harness/shown';
import {
	listReading,
	listRequestBound,
	seededRandom,
	seedResponses,
	StoredCredential,
	TriggerSession,
	VERSION_BEFORE_LOCATORS,
} from '../support/wootric';
import { timeCsvCheck } from './csv-check';
import { csvReaderFigures, csvReaderTable, type CsvReaderFigures } from './csv-readers';
import { networkLabel, withFake, type Network } from './fake-network';
import { longestPolls, longestPollTable, type LongestPoll } from './longest-poll';
import { Floor } from './floor';
import {
	formatCount,
	formatMiB,
	formatMs,
	machineFacts,
	measureMemory,
	median,
	time,
	type MachineFacts,
	type MemoryGrowth,
} from './measure';
import { trustedTls } from './tls';
import { webhookMemory, type WebhookMemoryFigures } from './webhook-memory';
import {
	comparisonTable,
	runLine,
	SIDE_NAMES,
	webhookSideBySide,
	type Side,
	type SideBySide,
} from './webhooks';

const WALL_GOAL = 1.25;
const RESULTS = path.join(REPO_ROOT, 'bench-results');
/** Rounds of the webhook side by side: each side measured this often, the order alternating. */
const WEBHOOK_ROUNDS = 2;
/** Ours (version 1.1) over the floor trigger with n8n's defaults, every figure (issue F23). */
const FLOOR_GOAL = 1.05;
/** Ours over n8n's Webhook build with lazy isolates, every figure (issue F23). */
const WEBHOOK_NODE_GOAL = 1.2;
/** What the trigger may keep after 100,000 distinct deliveries (issue F16). */
const WEBHOOK_MEMORY_GOAL_MB = 50;

/** One line of the table, and what bench.json keeps of it. */
interface Row {
	benchmark: string;
	requests: { node: number; floor?: number; goal: string; met: boolean };
	nodeMs: number;
	/**
	 * For the action node: the whole workflow run (engine, input items), of which nodeMs is the
	 * node's step.
	 */
	wholeRunMs?: number;
	/** The floor's time; for the rate-limited job, the limit's bound. */
	reference: { kind: 'floor' | 'bound'; ms: number };
	/** The floor's requests made through n8n-core's request path instead of undici. */
	n8nPathMs?: number;
	/**
	 * n8n evaluating the row's mapped parameter for every item, alone (n8n-core's getNodeParameter,
	 * as the node calls it).
	 */
	evaluationMs?: number;
	/**
	 * The most the node may take over n8n's request path alone (plus the evaluation, where measured),
	 * where a row has that goal.
	 */
	pathGoal?: number;
	ratio: { value: number; goal: number; met: boolean };
	memory?: { node: MemoryGrowth; floor: MemoryGrowth };
	notes: string[];
	/** Every measured run. */
	samples: Record<string, unknown>;
}

/**
 * What one run of the node did: the data requests and sign-ins it made, and the harness's share of
 * its time.
 */
interface NodeWork {
	requests: number;
	signIns: number;
	harnessMs: number;
	/** The action node's step in its workflow run (a poll is the trigger's own run). */
	stepMs?: number;
}

// ————— Running the node and the floor —————

/**
 * The harness records every run's output for the test suite's secret check, which n8n does not do.
 * Replaying that on the same output tells how long it took inside the run, so the node's time can
 * leave it out.
 */
function harnessRecordingMs(shown: unknown): number {
	const start = performance.now();
	recordShown(shown);
	const ms = performance.now() - start;
	shownToUsers.length = 0;
	return ms;
}

/** Counts what `work` sent to the fake. */
async function counting<T>(
	fake: FakeWootric,
	work: () => Promise<T>,
): Promise<{ result: T; requests: number; signIns: number }> {
	const from = fake.requests.length;
	const result = await work();
	const sent = fake.requests.slice(from);
	const signIns = sent.filter((request) => request.path === '/oauth/token').length;
	return { result, requests: sent.length - signIns, signIns };
}

/**
 * Runs the Wootric node with one stored credential across runs, as n8n keeps a token between
 * executions.
 */
function wootricNode(fake: FakeWootric) {
	const credential = new StoredCredential(fake);
	return async (
		parameters: INodeParameters,
		options: Pick<RunNodeOptions, 'inputItems' | 'continueOnFail'> = {},
	) => {
		const {
			result: run,
			requests,
			signIns,
		} = await counting(fake, () =>
			runNode({
				nodeType: 'wootric',
				// The bench's workflows address end users with the fields before the locators.
				nodeTypeVersion: VERSION_BEFORE_LOCATORS,
				parameters,
				...options,
				...credential.options,
			}),
		);
		credential.keep(run);
		if (run.error && !options.continueOnFail)
			throw new Error(`The node failed: ${run.error.message}`);
		return {
			run,
			requests,
			signIns,
			harnessMs: harnessRecordingMs({ outputs: run.outputs, error: run.error }),
			stepMs: run.nodeStepMs,
		};
	};
}

/**
 * A floor's version of a job, on the floor given; `tag` differs between runs (for fresh addresses).
 * Resolves to its request count.
 */
type FloorJob = (floor: Floor, tag: string) => Promise<number>;

/**
 * Runs the node's version of a job, and the floor's on undici and on n8n's request path, `repeats`
 * times each, in turn, after one run of each that is not measured (it loads code, warms the JIT
 * and, for the node, fetches the token it then keeps). `wallGoal`: the most the node may take over
 * the floor.
 */
async function sideBySide(
	fake: FakeWootric,
	repeats: number,
	node: (run: number) => Promise<NodeWork>,
	floorJob: FloorJob,
	wallGoal = WALL_GOAL,
) {
	const floor = await Floor.signIn(fake, 'undici');
	const n8nPath = await Floor.signIn(fake, 'n8n');
	await node(0);
	await floorJob(floor, 'floor0');
	await floorJob(n8nPath, 'path0');
	const nodeRuns = [];
	const floorRuns = [];
	const n8nPathRuns = [];
	for (let run = 1; run <= repeats; run++) {
		nodeRuns.push(await time(() => node(run)));
		floorRuns.push(await time(() => floorJob(floor, `floor${run}`)));
		n8nPathRuns.push(await time(() => floorJob(n8nPath, `path${run}`)));
	}
	// Memory in one more run of each, after a full collection (which would slow a timed run).
	const memory = {
		node: await measureMemory(() => node(repeats + 1)),
		floor: await measureMemory(() => floorJob(floor, `floor${repeats + 1}`)),
	};
	// The node's time: its step where it runs in a workflow (as n8n's execution view times it), else
	// the run.
	const wholeRunMs =
		median(nodeRuns.map((run) => run.ms)) - median(nodeRuns.map((run) => run.result.harnessMs));
	const steps = nodeRuns.flatMap((run) =>
		run.result.stepMs === undefined ? [] : [run.result.stepMs],
	);
	const nodeMs = steps.length === nodeRuns.length ? median(steps) : wholeRunMs;
	const floorMs = median(floorRuns.map((run) => run.ms));
	return {
		nodeRequests: nodeRuns[nodeRuns.length - 1].result.requests,
		floorRequests: floorRuns[floorRuns.length - 1].result,
		floorMs,
		/** A row's timing, memory and samples. */
		measured: {
			nodeMs,
			wholeRunMs: steps.length === nodeRuns.length ? wholeRunMs : undefined,
			reference: { kind: 'floor' as const, ms: floorMs },
			n8nPathMs: median(n8nPathRuns.map((run) => run.ms)),
			ratio: { value: nodeMs / floorMs, goal: wallGoal, met: nodeMs / floorMs <= wallGoal },
			memory,
			samples: {
				repeats,
				nodeMs: nodeRuns.map((run) => run.ms),
				nodeStepMs: nodeRuns.map((run) => run.result.stepMs),
				harnessRecordingMs: nodeRuns.map((run) => run.result.harnessMs),
				nodeRequests: nodeRuns.map((run) => run.result.requests),
				nodeSignIns: nodeRuns.map((run) => run.result.signIns),
				floorMs: floorRuns.map((run) => run.ms),
				floorRequests: floorRuns.map((run) => run.result),
				n8nPathMs: n8nPathRuns.map((run) => run.ms),
			},
		},
	};
}

/**
 * Requests of a list read of N records next to the floor's, against the bound ceil(N/50) +
 * ceil(N/1500) + pages in flight.
 */
function listRequests(
	result: { nodeRequests: number; floorRequests: number },
	records: number,
): Row['requests'] {
	const bound = listRequestBound(records);
	const goal = `≤ ${formatCount(bound)}; ceil(N/50) = ${formatCount(Math.ceil(records / MAX_PER_PAGE))}`;
	return {
		node: result.nodeRequests,
		floor: result.floorRequests,
		goal,
		met: result.nodeRequests <= bound,
	};
}

/** Requests next to the floor's, against an exact count. */
function exactRequests(
	result: { nodeRequests: number; floorRequests: number },
	expected: number,
): Row['requests'] {
	return {
		node: result.nodeRequests,
		floor: result.floorRequests,
		goal: `= ${expected}`,
		met: result.nodeRequests === expected,
	};
}

function expectCount(what: string, actual: number, expected: number): void {
	if (actual !== expected) throw new Error(`${what}: ${actual}, expected ${expected}`);
}

// ————— Response → Get Many, Return All, oldest first —————

async function returnAll(
	records: number,
	repeats: number,
	network: Network = {},
	wallGoal = WALL_GOAL,
): Promise<Row> {
	return await withFake(async (fake) => {
		seedResponses(fake, records);
		const wootric = wootricNode(fake);
		const result = await sideBySide(
			fake,
			repeats,
			async () => {
				const work = await wootric({
					resource: 'response',
					operation: 'getAll',
					scope: 'all',
					returnAll: true,
					options: { order: 'asc' },
				});
				expectCount('Return All items', work.run.items.length, records);
				return work;
			},
			async (floor) => {
				const { result: read, requests } = await counting(fake, () =>
					floor.listAll('/v1/responses'),
				);
				expectCount('Floor records', read.length, records);
				return requests;
			},
			wallGoal,
		);
		return {
			benchmark: `Return All responses, N = ${formatCount(records)}${networkLabel(network)}`,
			requests: listRequests(result, records),
			...result.measured,
			notes: [
				`floor ${(result.floorMs / result.floorRequests).toFixed(2)} ms/request, the fake's work included`,
			],
		};
	}, network);
}

/**
 * One point of the read-ahead curve: Return All with at most `pagesInFlight` pages of a list on
 * their way.
 */
interface CurvePoint {
	pagesInFlight: number;
	nodeMs: number;
	requests: number;
	/** nodeMs over the sequential keep-alive floor's time for the same read. */
	overFloor: number;
	/** The most requests the fake was handling at once. */
	mostAtOnce: number;
	/** Answered 429. */
	refused: number;
}

/**
 * Return All of N over `network` with 1, 2, 4 and 8 pages in flight, each the median of `repeats`
 * runs: the built transport's listAll, each run on a new context of the kind n8n gives a node's
 * dropdown method (n8n's real request path, a rate-limit gate of its own, as each execution has),
 * with one stored credential.
 */
async function readAheadCurve(
	records: number,
	repeats: number,
	network: Network,
	floorMs: number,
): Promise<CurvePoint[]> {
	const { listAll } = requireBuilt<typeof import('../../nodes/Wootric/transport/paging')>(
		'dist/nodes/Wootric/transport/paging',
	);
	return await withFake(async (fake) => {
		seedResponses(fake, records);
		const credential = new StoredCredential(fake);
		const returnAll = async (pagesInFlight: number) => {
			const opened = await loadOptionsContext(
				{ nodeType: 'wootric', ...credential.options },
				'parameters.readAheadCurve',
			);
			credential.keep(opened);
			return await time(() =>
				counting(fake, async () => {
					let read = 0;
					for await (const page of listAll(
						opened.context,
						{ path: '/v1/responses', order: 'asc' },
						{ pagesInFlight },
					))
						read += page.length;
					if (read !== records) throw new Error(`Return All read ${read} of ${records} responses`);
				}),
			);
		};
		// Not measured: it signs in, loads the code and warms the JIT.
		await returnAll(listReading.pagesInFlight);
		const points: CurvePoint[] = [];
		for (const pagesInFlight of [1, 2, 4, 8]) {
			fake.mostAtOnce = 0;
			const from = fake.requests.length;
			const runs = [];
			for (let run = 0; run < repeats; run++) runs.push(await returnAll(pagesInFlight));
			const nodeMs = median(runs.map((run) => run.ms));
			const refused = fake.requests.slice(from).filter((request) => request.status === 429).length;
			points.push({
				pagesInFlight,
				nodeMs,
				requests: runs[0].result.requests,
				overFloor: nodeMs / floorMs,
				mostAtOnce: fake.mostAtOnce,
				refused,
			});
		}
		return points;
	}, network);
}

function curveTable(
	records: number,
	network: Network,
	floorMs: number,
	points: CurvePoint[],
): string {
	const lines = [
		`Return All responses, N = ${formatCount(records)}${networkLabel(network)}; sequential keep-alive floor ${formatMs(floorMs)}; the node reads with ${listReading.pagesInFlight}:`,
		'',
		'| Pages in flight | listAll | × floor | Requests | Most at once at the fake | Answered 429 |',
		'|---|---|---|---|---|---|',
		...points.map(
			(point) =>
				`| ${point.pagesInFlight} | ${formatMs(point.nodeMs)} | ${point.overFloor.toFixed(2)}× | ${formatCount(point.requests)} | ${point.mostAtOnce} | ${point.refused} |`,
		),
	];
	return lines.join('\n');
}

// ————— Wootric Trigger —————

/** The trigger's cursor on one endpoint, as its static data holds it. */
function cursorOf(staticData: IDataObject, stream: 'responses' | 'declines'): StreamCursor {
	const cursor = staticData[stream] as StreamCursor | undefined;
	if (typeof cursor?.complete !== 'number')
		throw new Error(`The trigger keeps no cursor for ${stream}: ${JSON.stringify(staticData)}`);
	return cursor;
}

/** Polls with nothing new, watching responses and declines: requests and time per poll. */
async function triggerIdle(polls: number): Promise<Row> {
	return await withFake(async (fake) => {
		seedResponses(fake, 20, { start: fake.clock.now() - 100 });
		const session = new TriggerSession(fake, { events: ['response', 'decline'] });
		await session.poll(); // The first poll only sets the cursors, at the service's "now".
		// What the node reads: the updated_at stream after the last second read for good.
		const from = (stream: 'responses' | 'declines') =>
			cursorOf(session.staticData, stream).complete + 1;
		const result = await sideBySide(
			fake,
			polls,
			async () => {
				const { result: poll, requests, signIns } = await counting(fake, () => session.poll());
				if (poll.error || poll.result)
					throw new Error(
						`An idle poll ${poll.error ? `failed: ${poll.error.message}` : 'emitted items'}`,
					);
				return {
					requests,
					signIns,
					harnessMs: harnessRecordingMs({ result: poll.result, error: poll.error }),
				};
			},
			async (floor) => {
				const { requests } = await counting(fake, async () => {
					await floor.listAll('/v1/responses', from('responses'), 'updated');
					await floor.listAll('/v1/declines', from('declines'), 'updated');
				});
				return requests;
			},
		);
		return {
			benchmark: 'Trigger: idle poll, 2 events',
			requests: {
				node: result.nodeRequests,
				floor: result.floorRequests,
				goal: '1 per endpoint',
				met: result.nodeRequests === 2,
			},
			...result.measured,
			// A poll's memory is too small to measure apart from the engine's.
			memory: undefined,
			notes: [`time per poll, median of ${polls}`],
		};
	});
}

/**
 * 5,000 responses arrive between two polls: the poll that reads them, repeated from the same
 * cursor. The burst is stored in the fake's past, more than SETTLE_SECONDS before the poll, so the
 * poll reads it once and its cursor settles past it (nothing left in `recent`).
 */
async function triggerBurst(burst: number, repeats: number, network: Network = {}): Promise<Row> {
	return await withFake(async (fake) => {
		const session = new TriggerSession(fake, { events: ['response'] });
		await session.poll();
		const cursor = structuredClone(session.staticData);
		const from = cursorOf(cursor, 'responses').complete + 1;
		// One response a second from the cursor on, then the clock moves past the last by more than
		// SETTLE_SECONDS.
		seedResponses(fake, burst, { start: from });
		fake.clock.set(from + burst + SETTLE_SECONDS + 5);
		const result = await sideBySide(
			fake,
			repeats,
			async () => {
				// Every run polls from the cursor the burst arrived after.
				session.restart(cursor);
				const { result: poll, requests, signIns } = await counting(fake, () => session.poll());
				expectCount('Burst items emitted', poll.items.length, burst);
				const after = cursorOf(session.staticData, 'responses');
				expectCount('Records the cursor keeps after the burst', after.recent.length, 0);
				return {
					requests,
					signIns,
					harnessMs: harnessRecordingMs({ result: poll.result, error: poll.error }),
				};
			},
			async (floor) => {
				const { result: read, requests } = await counting(fake, () =>
					floor.listAll('/v1/responses', from, 'updated'),
				);
				expectCount('Floor records', read.length, burst);
				return requests;
			},
		);
		return {
			benchmark: `Trigger: burst of ${formatCount(burst)} between two polls${networkLabel(network)}`,
			requests: listRequests(result, burst),
			...result.measured,
			notes: [],
		};
	}, network);
}

// ————— Wootric Trigger: static data over a day —————

/** How a day of polls is set up: records a second, Wait Until Complete, and how long to go. */
interface TriggerDayPlan {
	name: string;
	recordsPerSecond: number;
	waitUntilComplete: boolean;
	/** Simulated hours of polls, one a minute. */
	hours: number;
	/** Stop after the first whole hour past this much wall time (the hours reached are reported). */
	wallBudgetMs?: number;
}

/** What a day of polls kept and cost. */
interface TriggerDay {
	name: string;
	recordsPerSecond: number;
	waitUntilComplete: boolean;
	hoursPlanned: number;
	/**
	 * Polls measured, one per simulated minute (the first, which only sets the cursors, not counted).
	 */
	polls: number;
	records: {
		responses: number;
		declines: number;
		commentedLater: number;
		neverCommented: number;
		deletedFromFake: number;
	};
	/** Items emitted, each record exactly once (checked). */
	emitted: number;
	/** The largest JSON size of the static data, over the measured polls and per simulated hour. */
	staticDataBytes: { most: number; perHour: number[] };
	/** The most entries a cursor's lists held after a poll. */
	most: { recentResponses: number; recentDeclines: number; waiting: number; told: number };
	requestsPerPoll: { median: number; max: number };
	signIns: number;
	pollMs: { median: number; max: number };
	wallMs: number;
	notes: string[];
}

/** The ids of the records created in one minute (up to `until`), deleted from the fake together. */
interface StoredMinute {
	until: number;
	responses: number[];
	declines: number[];
}

/**
 * Every fifth record is a decline; 30 % of responses are stored without a comment, half of those
 * commented 1–4 minutes later.
 */
const DECLINE_EVERY = 5;
const WITHOUT_COMMENT = 0.3;
const COMMENTED_LATER = 0.5;
/** Treat as Complete After, in minutes. */
const COMPLETE_AFTER_MINUTES = 5;
/**
 * Records settled this long (seconds since created) are deleted from the fake, to keep its memory
 * flat.
 */
const DROP_AFTER_SECONDS = 15 * 60;

/**
 * Polls every simulated minute for `hours`, the fake's clock set 60 s on before each poll (no real
 * waiting), with records created evenly at `recordsPerSecond` in the minute before it, each at its
 * own second (updated_at = created_at), readable at once. After each poll: the static data's JSON
 * size and list lengths, the poll's requests, and that every record is emitted exactly once, when
 * due — a complete record by the first poll after it, one held by Wait Until Complete by the first
 * poll after its comment or after Treat as Complete After. A few polls with nothing new end the
 * run, so the last held responses are emitted and checked too (not measured). Records settled for
 * 15 minutes are deleted from the fake.
 */
async function triggerDay(plan: TriggerDayPlan): Promise<TriggerDay> {
	return await withFake(async (fake) => {
		const random = seededRandom(20_240_310);
		const user = createEndUser(fake.account, fake.store, 'day@example.com');
		const options = plan.waitUntilComplete
			? { waitUntilComplete: true, completeAfterMinutes: COMPLETE_AFTER_MINUTES }
			: {};
		const session = new TriggerSession(fake, { events: ['response', 'decline'], options });
		fake.clock.set(Math.floor(fake.clock.now() / 60) * 60 + 60);
		await session.poll(); // Sets the cursors at the service's now: records created from it on are new.
		// Simulated time starts at the later cursor's `complete`: records arrive from the second after
		// it.
		const start = Math.max(
			cursorOf(session.staticData, 'responses').complete,
			cursorOf(session.staticData, 'declines').complete,
		);

		const waitSeconds = plan.waitUntilComplete ? COMPLETE_AFTER_MINUTES * 60 : undefined;
		/** Records not emitted yet: id → the second by which a poll must have emitted it. */
		const pending = new Map<number, number>();
		/** Comments to add: second → response ids. */
		const comments = new Map<number, number[]>();
		/** Ids created in each minute, oldest first, to delete from the fake once settled. */
		const stored: StoredMinute[] = [];
		const records = {
			responses: 0,
			declines: 0,
			commentedLater: 0,
			neverCommented: 0,
			deletedFromFake: 0,
		};
		let created = 0;
		let emitted = 0;

		/** The records of one second, noted in the minute they arrive in. */
		const arrive = (second: number, minute: StoredMinute) => {
			for (let index = 0; index < plan.recordsPerSecond; index++, created++) {
				if (created % DECLINE_EVERY === DECLINE_EVERY - 1) {
					const decline = addDecline(fake.account, fake.store, {
						endUserId: user.id,
						createdAt: second,
					});
					pending.set(decline.id, second);
					minute.declines.push(decline.id);
					records.declines++;
					continue;
				}
				records.responses++;
				const withComment = !random.chance(WITHOUT_COMMENT);
				const response = addResponse(fake.account, fake.store, {
					endUserId: user.id,
					score: created % 11,
					text: withComment ? 'Works well for us' : null,
					completed: withComment,
					createdAt: second,
				});
				minute.responses.push(response.id);
				let due = second;
				if (!withComment) {
					const commentAt = random.chance(COMMENTED_LATER)
						? second + random.int(60, 240)
						: undefined;
					if (commentAt === undefined) records.neverCommented++;
					else {
						records.commentedLater++;
						comments.set(commentAt, [...(comments.get(commentAt) ?? []), response.id]);
					}
					if (waitSeconds !== undefined)
						due = Math.min(commentAt ?? Infinity, second + waitSeconds);
				}
				pending.set(response.id, due);
			}
		};

		/**
		 * Records settled long ago leave the fake: emitted (checked by then), no comment to come, never
		 * read again.
		 */
		const dropSettled = (now: number) => {
			while (stored.length > 0 && stored[0].until < now - DROP_AFTER_SECONDS) {
				const minute = stored.shift()!;
				for (const id of minute.responses) fake.account.responses.delete(id);
				for (const id of minute.declines) fake.account.declines.delete(id);
				records.deletedFromFake += minute.responses.length + minute.declines.length;
			}
		};

		const measured = {
			polls: 0,
			bytes: 0,
			perHour: [] as number[],
			requests: [] as number[],
			pollMs: [] as number[],
			signIns: 0,
		};
		const most = { recentResponses: 0, recentDeclines: 0, waiting: 0, told: 0 };
		// After the measured polls, polls with nothing new until the last held response is due.
		const tailPolls = waitSeconds === undefined ? 1 : Math.ceil(waitSeconds / 60) + 1;
		const began = performance.now();
		let arriving = true;
		let tail = 0;
		for (let poll = 1; arriving || tail++ < tailPolls; poll++) {
			const now = start + poll * 60;
			// The minute since the last poll: new records (while arriving), comments due, then the clock
			// moves on.
			const minute: StoredMinute = { until: now, responses: [], declines: [] };
			for (let second = now - 59; second <= now; second++) {
				if (arriving) arrive(second, minute);
				for (const id of comments.get(second) ?? [])
					changeResponse(
						fake.account,
						fake.store,
						id,
						{ text: 'Export fixed, thanks', completed: true },
						second,
					);
				comments.delete(second);
			}
			stored.push(minute);
			fake.clock.set(now);

			fake.requests.length = 0;
			const { ms, result: run } = await time(() => session.poll());
			// Neither the harness's record of what was shown nor the session's list of items is needed
			// here.
			shownToUsers.length = 0;
			session.emitted.length = 0;
			if (run.error) throw new Error(`Poll ${poll} failed: ${run.error.message}`);
			for (const item of run.items) {
				const id = Number(item.id);
				if (item.event !== 'response' && item.event !== 'decline')
					throw new Error(`Poll ${poll} emitted ${String(item.event)}: ${JSON.stringify(item)}`);
				if (!pending.delete(id))
					throw new Error(
						`Poll ${poll} emitted ${String(item.event)} ${id} again, or one never created`,
					);
				emitted++;
			}
			// Every record due by this poll's time was emitted by it.
			for (const [id, due] of pending)
				if (due <= now)
					throw new Error(
						`Poll ${poll} (t = ${now - start} s) did not emit record ${id}, due at t = ${due - start} s`,
					);
			dropSettled(now);
			if (!arriving) continue;

			const responses = cursorOf(session.staticData, 'responses');
			const declines = cursorOf(session.staticData, 'declines');
			const bytes = Buffer.byteLength(JSON.stringify(session.staticData));
			const hour = Math.floor((poll - 1) / 60);
			measured.polls = poll;
			measured.bytes = Math.max(measured.bytes, bytes);
			measured.perHour[hour] = Math.max(measured.perHour[hour] ?? 0, bytes);
			measured.requests.push(
				fake.requests.filter((request) => request.path !== '/oauth/token').length,
			);
			measured.signIns += fake.requests.filter((request) => request.path === '/oauth/token').length;
			measured.pollMs.push(ms);
			most.recentResponses = Math.max(most.recentResponses, responses.recent.length);
			most.recentDeclines = Math.max(most.recentDeclines, declines.recent.length);
			most.waiting = Math.max(most.waiting, responses.waiting?.length ?? 0);
			most.told = Math.max(most.told, (responses.told?.length ?? 0) + (declines.told?.length ?? 0));
			if (poll % 60 === 0) {
				const hours = poll / 60;
				const elapsed = performance.now() - began;
				process.stderr.write(
					`  hour ${hours}: ${formatMs(elapsed)}, static data up to ${formatCount(measured.perHour[hour])} bytes\n`,
				);
				// Another hour only if, at the pace so far, it ends within the budget.
				arriving =
					hours < plan.hours &&
					(plan.wallBudgetMs === undefined || elapsed + elapsed / hours <= plan.wallBudgetMs);
			}
		}
		const wallMs = performance.now() - began;
		expectCount('Records never emitted', pending.size, 0);
		expectCount('Items emitted', emitted, records.responses + records.declines);
		const hours = measured.polls / 60;
		return {
			name: plan.name,
			recordsPerSecond: plan.recordsPerSecond,
			waitUntilComplete: plan.waitUntilComplete,
			hoursPlanned: plan.hours,
			polls: measured.polls,
			records,
			emitted,
			staticDataBytes: { most: measured.bytes, perHour: measured.perHour },
			most,
			requestsPerPoll: { median: median(measured.requests), max: Math.max(...measured.requests) },
			signIns: measured.signIns,
			pollMs: { median: median(measured.pollMs), max: Math.max(...measured.pollMs) },
			wallMs,
			notes:
				hours < plan.hours
					? [
							`${hours} of ${plan.hours} simulated hours: as many as fit in about ${Math.round((plan.wallBudgetMs ?? 0) / 60_000)} min of wall time ` +
								`(the whole day would take about ${Math.round(((wallMs / hours) * plan.hours) / 60_000)} min); the size per hour shows it flat`,
						]
					: [],
		};
	});
}

function triggerDayTable(days: TriggerDay[]): string {
	const lines = [
		`Wootric Trigger, Response Created and Decline Created, a poll every simulated minute; records arrive evenly, every ${DECLINE_EVERY}th a decline; ` +
			`${WITHOUT_COMMENT * 100} % of responses stored without a comment, ${COMMENTED_LATER * 100} % of those commented 1–4 minutes later (Wait Until Complete: Treat as Complete After ${COMPLETE_AFTER_MINUTES} minutes):`,
		'',
		'| Run | Simulated time (polls) | Records: responses / declines | Emitted, each once | Static data, largest | Most `recent`: responses / declines | Most `waiting` | Requests per poll: median / max | Poll: median / max | Wall time | Notes |',
		'|---|---|---|---|---|---|---|---|---|---|---|',
	];
	for (const day of days) {
		lines.push(
			`| ${day.recordsPerSecond} record${day.recordsPerSecond === 1 ? '' : 's'}/s${day.waitUntilComplete ? ', Wait Until Complete' : ''} | ${day.polls / 60} h (${formatCount(day.polls)}) | ` +
				`${formatCount(day.records.responses)} / ${formatCount(day.records.declines)} | ${formatCount(day.emitted)} ✓ | ${formatCount(day.staticDataBytes.most)} bytes | ` +
				`${formatCount(day.most.recentResponses)} / ${formatCount(day.most.recentDeclines)} | ${day.waitUntilComplete ? formatCount(day.most.waiting) : '–'} | ` +
				`${day.requestsPerPoll.median} / ${day.requestsPerPoll.max} | ${formatMs(day.pollMs.median)} / ${formatMs(day.pollMs.max)} | ${formatMs(day.wallMs)} | ${day.notes.join('; ')} |`,
		);
	}
	lines.push('', 'Largest static data in each simulated hour (bytes):', '');
	for (const day of days) {
		lines.push(`- ${day.name}: ${day.staticDataBytes.perHour.map(formatCount).join(', ')}`);
	}
	return lines.join('\n');
}

// ————— Email surveys —————

const SURVEY_BATCH = 100;

/**
 * Email Survey → Send to 1,000 addresses, new ones in every run (so every run creates end users):
 * from 1,000 items with Combine Items and the address mapped (`{{ $json.email }}`, which n8n
 * evaluates once per item), or all in one item's Email Addresses, which tells the per-item part of
 * the node's time apart.
 */
async function emailSend(items: number, repeats: number, from: 'items' | 'oneItem'): Promise<Row> {
	return await withFake(async (fake) => {
		const wootric = wootricNode(fake);
		const addresses = (tag: string) =>
			Array.from({ length: items }, (_, index) => `${tag}-${index}@example.com`);
		// Every run starts from an account without end users, so all runs do the same work at the fake.
		const forget = () => fake.account.endUsers.clear();
		const result = await sideBySide(
			fake,
			repeats,
			async (run) => {
				forget();
				const emails = addresses(`node${run}`);
				const work =
					from === 'items'
						? await wootric(
								{
									resource: 'emailSurvey',
									operation: 'send',
									emails: '={{ $json.email }}',
									combineItems: true,
								},
								{ inputItems: emails.map((email) => ({ json: { email } })) },
							)
						: await wootric({
								resource: 'emailSurvey',
								operation: 'send',
								emails: emails.join(','),
								combineItems: true,
							});
				expectCount('Send output items', work.run.items.length, Math.ceil(items / SURVEY_BATCH));
				return work;
			},
			async (floor, tag) => {
				forget();
				const all = addresses(tag);
				const { requests } = await counting(fake, async () => {
					for (let from = 0; from < all.length; from += SURVEY_BATCH) {
						const form = all
							.slice(from, from + SURVEY_BATCH)
							.map((email) => `emails[]=${encodeURIComponent(email)}`)
							.join('&');
						await floor.postForm('/v1/email_survey', form);
					}
				});
				return requests;
			},
		);
		const evaluationMs =
			from === 'items' ? await mappingEvaluationMs(addresses('evaluation'), repeats) : undefined;
		return {
			benchmark: `Email Survey → Send, ${formatCount(items)} addresses ${from === 'items' ? 'from as many items, combined' : 'in one item'}`,
			requests: exactRequests(result, Math.ceil(items / SURVEY_BATCH)),
			...result.measured,
			evaluationMs,
			pathGoal: from === 'items' ? 1.15 : undefined,
			notes: [],
		};
	});
}

/**
 * n8n evaluating Send's `{{ $json.email }}` for every item, alone: the median of `repeats` timed
 * passes after one that is not.
 */
async function mappingEvaluationMs(emails: string[], repeats: number): Promise<number> {
	const parameters = {
		resource: 'emailSurvey',
		operation: 'send',
		emails: '={{ $json.email }}',
		combineItems: true,
	};
	const evaluate = await parameterEvaluation({
		nodeType: 'wootric',
		parameters,
		inputItems: emails.map((email) => ({ email })),
	});
	const pass = async () => emails.map((_, itemIndex) => evaluate('emails', itemIndex));
	const evaluated = await pass();
	expectCount(
		'Addresses evaluated as mapped',
		evaluated.filter((email, itemIndex) => email === emails[itemIndex]).length,
		emails.length,
	);
	const runs = [];
	for (let run = 0; run < repeats; run++) runs.push((await time(pass)).ms);
	return median(runs);
}

const CSV_CHUNK = 5000;
const CSV_HEADER = 'email,___context:first_name,plan';

function surveyCsv(rows: number, prefix: string): string {
	const lines = Array.from(
		{ length: rows },
		(_, index) => `${prefix}-${index}@example.com,P${index},${index % 2 ? 'pro' : 'free'}`,
	);
	return [CSV_HEADER, ...lines].join('\n') + '\n';
}

/** Email Survey → Send From CSV with a 20,000-row binary file: new addresses in every run. */
async function emailCsv(rows: number, repeats: number): Promise<Row> {
	return await withFake(async (fake) => {
		const wootric = wootricNode(fake);
		const parameters = {
			resource: 'emailSurvey',
			operation: 'sendCsv',
			source: 'binary',
			subject: 'Hi {{first_name}}',
		};
		const result = await sideBySide(
			fake,
			repeats,
			async (run) => {
				const content = surveyCsv(rows, `node${run}`);
				const work = await wootric(parameters, {
					inputItems: [
						{
							json: {},
							binary: { data: { content, fileName: 'people.csv', mimeType: 'text/csv' } },
						},
					],
				});
				expectCount(
					'Send From CSV output items',
					work.run.items.length,
					Math.ceil(rows / CSV_CHUNK),
				);
				return work;
			},
			async (floor, tag) => {
				// The floor sends the same chunks: the header and 5,000 lines each (the file has no quoted
				// line breaks).
				const [header, ...lines] = surveyCsv(rows, tag).trimEnd().split('\n');
				const { requests } = await counting(fake, async () => {
					for (let from = 0; from < lines.length; from += CSV_CHUNK) {
						const chunk = [header, ...lines.slice(from, from + CSV_CHUNK)].join('\r\n');
						await floor.postCsv('/v1/email_survey_csv', chunk, 'surveys.csv', {
							subject: parameters.subject,
						});
					}
				});
				return requests;
			},
		);
		const check = timeCsvCheck(surveyCsv(rows, 'check'), 5);
		const goal = Math.ceil(rows / CSV_CHUNK);
		return {
			benchmark: `Email Survey → Send From CSV, ${formatCount(rows)} rows`,
			requests: exactRequests(result, goal),
			...result.measured,
			notes: [
				`of the node's time: reading and checking the CSV ${formatMs(check.parseMs)}, cutting it into ${goal} files ${formatMs(check.chunkMs)}`,
			],
			samples: { ...result.measured.samples, csvCheckMs: check },
		};
	});
}

// ————— A job under a rate limit —————

/**
 * End User → Get for 250 items under 100 requests per window on GET /v1/end_users/:id. The bound is
 * the earliest the limit allows: the last window can open when the one before it resets (the fake's
 * X-Rate-Limit-Reset), and then takes what the node's last window took.
 */
async function rateLimited(items: number, limit: number, windowSeconds: number): Promise<Row> {
	return await withFake(async (fake) => {
		const users = Array.from({ length: items }, (_, index) =>
			createEndUser(fake.account, fake.store, `limited${index}@example.com`),
		);
		const wootric = wootricNode(fake);
		const lookUp = {
			resource: 'endUser',
			operation: 'get',
			lookUpBy: 'id',
			endUserId: '={{ $json.id }}',
		};
		await wootric(lookUp, { inputItems: [{ json: { id: users[0].id } }] }); // Fetches the token before the limit is set.

		fake.rateLimits.set('GET /v1/end_users/:id', limit, windowSeconds);
		const counted: Array<{ at: number; reset: number }> = [];
		const consume = fake.rateLimits.consume.bind(fake.rateLimits);
		fake.rateLimits.consume = (route, accountToken) => {
			const headers = consume(route, accountToken);
			counted.push({ at: Date.now(), reset: Number(headers['X-Rate-Limit-Reset']) * 1000 });
			return headers;
		};
		const from = fake.requests.length;
		const start = Date.now();
		const { run, requests } = await wootric(lookUp, {
			inputItems: users.map((user) => ({ json: { id: user.id } })),
			continueOnFail: true,
		});
		const end = Date.now();

		const failed =
			run.items.filter((item) => item.json.error !== undefined).length + (run.error ? items : 0);
		const refused = fake.requests.slice(from).filter((request) => request.status === 429).length;
		const resets = [...new Set(counted.map((request) => request.reset))];
		const lastWindowOpened = Math.min(
			...counted
				.filter((request) => request.reset === resets[resets.length - 1])
				.map((request) => request.at),
		);
		const earliestLastWindow = resets.length > 1 ? resets[resets.length - 2] : start;
		const bound = earliestLastWindow - start + (end - lastWindowOpened);
		const total = end - start;
		return {
			benchmark: `${formatCount(items)} × End User → Get, limit ${limit} per ${windowSeconds} s`,
			requests: {
				node: requests,
				goal: `= ${items}; ${refused} answered 429`,
				met: requests === items && refused === 0,
			},
			nodeMs: total,
			reference: { kind: 'bound', ms: bound },
			ratio: { value: total / bound, goal: 1.05, met: total / bound <= 1.05 },
			notes: [
				`failed items ${failed} (goal 0) ${failed === 0 ? '✓' : '✗'}`,
				`${resets.length} windows; the last opened ${lastWindowOpened - earliestLastWindow} ms after the reset before it`,
			],
			samples: {
				items,
				limit,
				windowSeconds,
				failed,
				refused,
				start,
				end,
				resets,
				lastWindowOpened,
				bound,
			},
		};
	});
}

// ————— The table —————

function tableOf(facts: MachineFacts, rows: Row[]): string {
	const mark = (met: boolean) => (met ? '✓' : '✗');
	const lines = [
		`Machine: ${facts.cpu}, ${facts.cores} cores, ${facts.memoryGiB} GiB, ${facts.os}; Node ${facts.node}; ${facts.date.slice(0, 10)}`,
		'',
		'| Benchmark | Requests: node / floor (goal) | Node | Floor or bound | Ratio (goal) | n8n request path alone (× floor) [+ n8n evaluating the mapping alone] | Node / n8n path [+ evaluation] | Peak growth, node: heap / RSS (floor) | Notes |',
		'|---|---|---|---|---|---|---|---|---|',
	];
	for (const row of rows) {
		const requests = `${formatCount(row.requests.node)}${row.requests.floor === undefined ? '' : ` / ${formatCount(row.requests.floor)}`} (${row.requests.goal}) ${mark(row.requests.met)}`;
		const reference = `${formatMs(row.reference.ms)}${row.reference.kind === 'bound' ? ' bound' : ''}`;
		const ratio = `${row.ratio.value.toFixed(2)}× (≤ ${row.ratio.goal}×) ${mark(row.ratio.met)}`;
		const memory = row.memory
			? `${formatMiB(row.memory.node.heapMiB)} / ${formatMiB(row.memory.node.rssMiB)} (${formatMiB(row.memory.floor.heapMiB)} / ${formatMiB(row.memory.floor.rssMiB)})`
			: '';
		const evaluation = row.evaluationMs === undefined ? '' : ` + ${formatMs(row.evaluationMs)}`;
		const n8nPath =
			row.n8nPathMs === undefined
				? ''
				: `${formatMs(row.n8nPathMs)} (${(row.n8nPathMs / row.reference.ms).toFixed(2)}×)${evaluation}`;
		const overPathValue =
			row.n8nPathMs === undefined
				? undefined
				: row.nodeMs / (row.n8nPathMs + (row.evaluationMs ?? 0));
		const overPath =
			overPathValue === undefined
				? ''
				: `${overPathValue.toFixed(2)}×${row.pathGoal === undefined ? '' : ` (≤ ${row.pathGoal}×) ${mark(overPathValue <= row.pathGoal)}`}`;
		const node = `${formatMs(row.nodeMs)}${row.wholeRunMs === undefined ? '' : ` (run ${formatMs(row.wholeRunMs)})`}`;
		lines.push(
			`| ${row.benchmark} | ${requests} | ${node} | ${reference} | ${ratio} | ${n8nPath} | ${overPath} | ${memory} | ${row.notes.join('; ')} |`,
		);
	}
	return lines.join('\n');
}

const logIndented = (line: string) => process.stderr.write(`  ${line}\n`);

interface WebhookFigures {
	memory?: WebhookMemoryFigures;
	/** Every side with n8n's defaults. */
	defaults?: SideBySide;
	/** Again with n8n taking an isolate only for an expression that needs one. */
	lazyIsolates?: SideBySide;
	/** Again with a pool of four isolates instead of one. */
	poolOfFour?: SideBySide;
	/** Queue mode: ours posted to the main alone, and half to an `n8n webhook` process. */
	webhookProcess?: SideBySide;
	/** Ours and theirs with n8n's legacy expression engine, which uses no isolates: what they cost. */
	withoutIsolates?: SideBySide;
}

/** What each run is compared for, and against which goal. */
const COMPARISONS: Record<
	'defaults' | 'lazyIsolates' | 'poolOfFour' | 'webhookProcess' | 'withoutIsolates',
	Array<[Side, Side, number?]>
> = {
	defaults: [
		['ours', 'floor', FLOOR_GOAL],
		['oursV1', 'floor'],
		['floorKept', 'floor'],
		['ours', 'theirs'],
	],
	lazyIsolates: [
		['ours', 'theirs', WEBHOOK_NODE_GOAL],
		['oursV1', 'theirs'],
		['ours', 'floor'],
		['floorKept', 'floor'],
	],
	poolOfFour: [
		['ours', 'floor'],
		['ours', 'theirs'],
	],
	webhookProcess: [['oursSplit', 'ours']],
	withoutIsolates: [['ours', 'theirs']],
};

/** The webhook figures as printed: the trigger's memory, each comparison and each run. */
function webhookReport(webhooks: WebhookFigures): string {
	const parts: string[] = [];
	const { memory } = webhooks;
	if (memory) {
		const goalMiB = (WEBHOOK_MEMORY_GOAL_MB * 1e6) / 2 ** 20;
		const { p50, p95 } = memory.webhookMicroseconds;
		parts.push(
			`Webhook Trigger, ${formatCount(memory.deliveries)} distinct deliveries through webhook() without n8n: ` +
				`keeps ${formatMiB(memory.retainedMiB)} (goal ≤ ${WEBHOOK_MEMORY_GOAL_MB} MB = ${goalMiB.toFixed(1)} MiB) ${memory.retainedMiB <= goalMiB ? '✓' : '✗'}; ` +
				`${formatCount(memory.started)} started the workflow; webhook() p50 ${p50.toFixed(0)} µs, p95 ${p95.toFixed(0)} µs`,
		);
	}
	for (const name of [
		'defaults',
		'lazyIsolates',
		'poolOfFour',
		'webhookProcess',
		'withoutIsolates',
	] as const) {
		const result = webhooks[name];
		if (!result) continue;
		for (const [side, against, goal] of COMPARISONS[name])
			parts.push(comparisonTable(result, side, against, goal));
		const sides = Object.keys(result.medians) as Side[];
		parts.push(
			`Medians of ${WEBHOOK_ROUNDS} runs a side, each side alone (only its workflow published), in the order ${result.runs.map((run) => run.side).join(', ')}; ` +
				`${sides.map((side) => `${side}: ${SIDE_NAMES[side]}`).join('; ')}. Each run:\n${result.runs.map((run) => `- ${runLine(run)}`).join('\n')}`,
		);
	}
	return parts.join('\n\n');
}

/**
 * `npm run bench [pattern]`: every benchmark, or those whose name (as printed while running) the
 * regular expression matches.
 */
async function main(): Promise<void> {
	const tls = trustedTls(RESULTS);
	if (tls === 'ran in a child') return;
	const only = process.argv[2] === undefined ? undefined : new RegExp(process.argv[2], 'i');
	const facts = machineFacts();
	const rows: Row[] = [];
	const curves: string[] = [];
	const days: TriggerDay[] = [];
	const chosen = (name: string) => {
		if (only && !only.test(name)) return false;
		process.stderr.write(`${name}…\n`);
		return true;
	};
	const run = async (name: string, benchmark: () => Promise<Row>) => {
		if (!chosen(name)) return undefined;
		const row = await benchmark();
		rows.push(row);
		return row;
	};
	const runDay = async (name: string, plan: Omit<TriggerDayPlan, 'name'>) => {
		if (chosen(name)) days.push(await triggerDay({ name, ...plan }));
	};
	const over = (latencyMs: number): Network => ({ tls, latencyMs });
	await run('Return All, 1,000', () => returnAll(1_000, 5));
	await run('Return All, 10,000', () => returnAll(10_000, 3));
	await run('Return All, 50,000', () => returnAll(50_000, 3));
	await run('Return All, 10,000, answers 20 ms late (about 30 s)', () =>
		returnAll(10_000, 3, { latencyMs: 20 }),
	);
	await run('Return All, 10,000, HTTPS, answers 20 ms late (about 40 s)', () =>
		returnAll(10_000, 3, over(20)),
	);
	const slow = await run(
		'Return All, 10,000, HTTPS, answers 80 ms late, and the read-ahead curve (about 3 min)',
		() => returnAll(10_000, 3, over(80), 0.5),
	);
	if (slow)
		curves.push(
			curveTable(
				10_000,
				over(80),
				slow.reference.ms,
				await readAheadCurve(10_000, 1, over(80), slow.reference.ms),
			),
		);
	await run('Trigger, idle polls', () => triggerIdle(20));
	await run('Trigger, burst of 5,000', () => triggerBurst(5_000, 3));
	await run('Trigger, burst of 5,000, HTTPS, answers 20 ms late (about 20 s)', () =>
		triggerBurst(5_000, 3, over(20)),
	);
	await run('Trigger, burst of 5,000, HTTPS, answers 80 ms late (about 1 min)', () =>
		triggerBurst(5_000, 3, over(80)),
	);
	const longest: LongestPoll[] = [];
	if (
		chosen(
			"Trigger, the longest polls against n8n's time for a poll, HTTPS, answers 80 ms late (about 3 min)",
		)
	)
		longest.push(...(await longestPolls(over(80))));
	const dayBudget = 5 * 60_000;
	await runDay('Trigger static data, a day of polls every minute, 1 record/s', {
		recordsPerSecond: 1,
		waitUntilComplete: false,
		hours: 24,
	});
	await runDay(
		'Trigger static data, polls every minute, 100 records/s (the hours that fit in about 5 min)',
		{
			recordsPerSecond: 100,
			waitUntilComplete: false,
			hours: 24,
			wallBudgetMs: dayBudget,
		},
	);
	await runDay(
		'Trigger static data, Wait Until Complete, a day of polls every minute, 1 record/s',
		{ recordsPerSecond: 1, waitUntilComplete: true, hours: 24 },
	);
	await runDay(
		'Trigger static data, Wait Until Complete, polls every minute, 100 records/s (the hours that fit in about 5 min)',
		{
			recordsPerSecond: 100,
			waitUntilComplete: true,
			hours: 24,
			wallBudgetMs: dayBudget,
		},
	);
	await run('Email Survey → Send, 1,000 items', () => emailSend(1_000, 40, 'items'));
	await run('Email Survey → Send, 1,000 addresses in one item', () =>
		emailSend(1_000, 40, 'oneItem'),
	);
	await run('Email Survey → Send From CSV, 20,000 rows', () => emailCsv(20_000, 3));
	let csvReaders: CsvReaderFigures | undefined;
	if (
		chosen(
			'CSV readers side by side: ours and papaparse, a 5,000-row survey and 50 MB (about 1 min)',
		)
	)
		csvReaders = csvReaderFigures();
	await run('Rate-limited job (about 20 s)', () => rateLimited(250, 100, 10));
	const webhooks: WebhookFigures = {};
	if (chosen('Webhook Trigger memory, 100,000 distinct deliveries (a few seconds)'))
		webhooks.memory = await webhookMemory(100_000);
	if (
		chosen(
			"Webhooks side by side in a real n8n with its defaults: ours (1.1 and 1), the floor, the floor keeping its secret, n8n's Webhook node; 500 over 100 connections and 100 one at a time (about 12 min)",
		)
	)
		webhooks.defaults = await webhookSideBySide(
			['ours', 'oursV1', 'floor', 'floorKept', 'theirs'],
			WEBHOOK_ROUNDS,
			logIndented,
		);
	if (
		chosen(
			'Webhooks side by side, the same with isolates taken only when an expression needs one (about 8 min)',
		)
	)
		webhooks.lazyIsolates = await webhookSideBySide(
			['ours', 'oursV1', 'floor', 'floorKept', 'theirs'],
			WEBHOOK_ROUNDS,
			logIndented,
			{ N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
		);
	if (chosen('Webhooks side by side, the same with a pool of four isolates (about 6 min)'))
		webhooks.poolOfFour = await webhookSideBySide(
			['ours', 'floor', 'theirs'],
			WEBHOOK_ROUNDS,
			logIndented,
			{ N8N_EXPRESSION_ENGINE_POOL_SIZE: '4' },
		);
	if (
		chosen(
			'Webhooks side by side in queue mode, two workers: ours posted to the main alone, and half to an `n8n webhook` process (about 8 min)',
		)
	)
		webhooks.webhookProcess = await webhookSideBySide(
			['ours', 'oursSplit'],
			WEBHOOK_ROUNDS,
			logIndented,
			{},
			'queue mode',
		);
	if (
		chosen(
			"Webhooks side by side, where the time goes: ours and n8n's Webhook node with its legacy expression engine, no isolates (about 3 min)",
		)
	)
		webhooks.withoutIsolates = await webhookSideBySide(
			['ours', 'theirs'],
			WEBHOOK_ROUNDS,
			logIndented,
			{ N8N_EXPRESSION_ENGINE: 'legacy' },
		);

	const table = rows.length > 0 ? tableOf(facts, rows) : '';
	if (table) {
		console.log(`\n${table}\n`);
		console.log(
			"Node: the action node's step in its workflow run through n8n-core (from n8n's hooks before and after it, what n8n's execution view times); " +
				'(run …): the whole run, with the engine passing the input items, less the harness recording the output for the test suite (n8n does not). ' +
				'A trigger poll is its own run. ' +
				'Times are medians, of runs not preceded by a forced collection; memory is the peak growth in one more run of each, after a full collection. Floor: a plain undici loop, same fake, same requests, one kept-alive connection. ' +
				"n8n request path alone: the floor's requests through n8n-core's OutboundHttp (where httpRequestWithAuthentication ends: a new connection, and over HTTPS a new TLS handshake, per request), no node or engine; + n8n evaluating the mapping alone: n8n-core's getNodeParameter for the mapped {{ $json.email }} of every item (same node, same items), no request or engine. " +
				'HTTPS: the fake serves a self-signed certificate that NODE_EXTRA_CA_CERTS makes trusted, as a user would for a private CA.',
		);
	}
	for (const curve of curves) console.log(`\n${curve}`);
	const dayTable = days.length > 0 ? triggerDayTable(days) : '';
	if (dayTable) console.log(`\n${dayTable}`);
	const longestTable = longest.length > 0 ? longestPollTable(longest) : '';
	if (longestTable) console.log(`\n${longestTable}`);
	const csvReadersTable = csvReaders ? csvReaderTable(csvReaders) : '';
	if (csvReadersTable) console.log(`\n${csvReadersTable}`);
	const webhookTables = webhookReport(webhooks);
	if (webhookTables) console.log(`\n${webhookTables}`);
	mkdirSync(RESULTS, { recursive: true });
	if (Object.keys(webhooks).length > 0)
		writeFileSync(
			path.join(RESULTS, 'webhooks.json'),
			`${JSON.stringify({ machine: facts, ...webhooks, report: webhookTables }, null, '\t')}\n`,
		);
	writeFileSync(
		path.join(RESULTS, 'bench.json'),
		`${JSON.stringify({ machine: facts, rows, curves, table, triggerDays: days, dayTable, longestPolls: longest, longestTable, csvReaders, csvReadersTable }, null, '\t')}\n`,
	);
	console.log(
		`\nWrote ${path.relative(process.cwd(), path.join(RESULTS, 'bench.json')) || 'bench-results/bench.json'}`,
	);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
