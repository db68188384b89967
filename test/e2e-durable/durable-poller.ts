/**
 * The Wootric Trigger on n8n's durable poller (n8n 2.36 and later; 1.x has none), in one process
 * or in queue mode: a workflow published on n8n's own poller keeps its cursor when the durable one
 * is turned on and off again; each event is emitted once throughout (new, changed, declined, held
 * until complete); n8n backs off for the cause the trigger declares, for as long as it says; two
 * pollers racing for one node emit once (n8n's fence). Every workflow's items go to a ticket
 * endpoint with their idempotency_key: the oracle is the POSTs it received, each event's key once.
 */
import type { StreamCursor } from '../../nodes/Wootric/polling/cursor';
import { waitFor } from '../../scripts/e2e/processes';
import { TicketServer } from '../../scripts/e2e/ticket-server';
import { sandboxCredentialData, type CredentialForImport } from '../../scripts/e2e/workflow-files';
import { outputOf } from '../e2e/helpers';
import { e2eSuite } from '../e2e/suite';
import { runTriggerAcrossCrashes } from '../e2e-queue/trigger-across-crashes';
import { TRIGGER_NAME, triggerToTickets } from '../e2e-queue/workflows';
import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	startFakeWootric,
	type FakeRequest,
	type FakeWootric,
} from '../fake';
import {
	databaseTimeMs,
	DURABLE_POLLER,
	jsonColumn,
	OWN_POLLER,
	startDeployment,
	type Deployment,
	type DeploymentName,
} from './deployments';

const EVERY_5_SECONDS = Array.from({ length: 12 }, (_, index) => 5 * index);
/** Two polls every 5 s, and the scheduler's lateness (its executor looks every 5 s, with jitter). */
const TWO_POLLS_MS = 12_000;

/**
 * n8n's poll times under short leases, so that a poll held past its lease is run again by another
 * claim while it is still running: the race the fence settles.
 */
const SHORT_LEASES = {
	N8N_SCHEDULER_LEASE_DURATION: '10',
	N8N_SCHEDULER_POLL_TIMEOUT: '60',
	N8N_SCHEDULER_REAPER_INTERVAL: '1',
};

/** A Wootric event's idempotency_key (the trigger's promise to a ticket system). */
const keyOf = {
	response: (id: number) => `response:${id}`,
	decline: (id: number) => `decline:${id}`,
	responseUpdated: (id: number, updatedAt: number) =>
		`responseUpdated:${id}:${new Date(updatedAt * 1000).toISOString().replace('.000Z', 'Z')}`,
};

export function durablePollerSuite(deploymentName: DeploymentName): void {
	let fake: FakeWootric;
	let tickets: TicketServer;
	/** The tickets of the workflows published anew on the durable poller, one server each. */
	let freshTickets: TicketServer;
	let minuteTickets: TicketServer;
	/** Queue mode: the account the bursts go to, and their tickets. */
	let burstFake: FakeWootric | undefined;
	let burstTickets: TicketServer | undefined;
	let log: (line: string) => void = () => {};
	let deployment: Deployment;
	/** Every key the main workflow must emit by the end, each once. */
	const expectedKeys = new Set<string>();
	const startedAt = new Date();
	/** poller_state keys a cursor by workflow and node id. */
	const triggerNodeIds = new Map<string, string>();

	const TICKETS = 'durableTickets';
	const FRESH = 'durableFresh';
	const MINUTE = 'durableMinute';
	const BURSTS = 'durableBursts';
	const BURST_CREDENTIAL = { id: 'wootricBursts01', name: 'Wootric bursts account' };

	const { step } = e2eSuite({
		label: 'durable',
		start: async (services) => {
			({ fake, tickets } = services);
			log = services.n8nOptions.log ?? log;
			freshTickets = await new TicketServer().listen();
			minuteTickets = await new TicketServer().listen();
			const workflows = [
				triggerToTickets(tickets.url, {
					id: TICKETS,
					name: 'durable: every event → ticket',
					pollSeconds: EVERY_5_SECONDS,
					events: ['response', 'responseUpdated', 'decline'],
					options: { waitUntilComplete: true },
				}),
				triggerToTickets(freshTickets.url, {
					id: FRESH,
					name: 'durable: published anew, with Start From',
					pollSeconds: EVERY_5_SECONDS,
					options: { startFrom: startedAt.toISOString() },
				}),
				// One poll a minute, at second 0: one scheduled task, so that a second poller is n8n's
				// re-run of it.
				triggerToTickets(minuteTickets.url, {
					id: MINUTE,
					name: 'durable: one poll a minute',
					pollSeconds: [0],
				}),
			];
			// In queue mode, bursts in an account of their own, so that the other workflows never read
			// them.
			const credentials: CredentialForImport[] = [];
			if (deploymentName === 'queue mode') {
				burstFake = await startFakeWootric();
				burstTickets = await new TicketServer().listen();
				credentials.push({
					...BURST_CREDENTIAL,
					type: 'wootricApi',
					data: sandboxCredentialData(burstFake.baseUrl, burstFake.credentials),
				});
				workflows.push(
					triggerToTickets(burstTickets.url, {
						id: BURSTS,
						name: 'durable: bursts → tickets',
						pollSeconds: [0, 15, 30, 45],
						credential: BURST_CREDENTIAL,
					}),
				);
			}
			for (const workflow of workflows)
				triggerNodeIds.set(
					workflow.id,
					(workflow.nodes.find((node) => node.name === TRIGGER_NAME) as { id: string }).id,
				);
			deployment = await startDeployment(
				deploymentName,
				services,
				workflows,
				OWN_POLLER,
				credentials,
			);
		},
		stop: async () => {
			await deployment?.stop();
			await freshTickets?.close();
			await minuteTickets?.close();
			await burstFake?.close();
			await burstTickets?.close();
		},
		logTails: () => deployment?.logTails(),
		stopTimeoutMs: 120_000,
	});

	const endUser = (name: string) => createEndUser(fake.account, fake.store, `${name}@example.com`);
	/** A complete detractor response, and the key its Response Created must have. */
	const detractor = (name: string) => {
		const response = addResponse(fake.account, fake.store, {
			endUserId: endUser(name).id,
			score: 2,
			text: `${name} is unhappy`,
		});
		expectedKeys.add(keyOf.response(response.id));
		return response;
	};

	/** How often each key was POSTed to a ticket server. */
	const postsByKey = (server: TicketServer) => {
		const counts = new Map<string, number>();
		for (const request of server.requests)
			if (request.method === 'POST' && request.idempotencyKey)
				counts.set(request.idempotencyKey, (counts.get(request.idempotencyKey) ?? 0) + 1);
		return counts;
	};
	const waitForKeys = async (keys: string[], server = tickets, timeoutMs = 60_000) =>
		await waitFor(
			`${keys.join(', ')} to be emitted`,
			() => (keys.every((key) => postsByKey(server).has(key)) ? true : undefined),
			{
				timeoutMs,
				intervalMs: 500,
				describe: () => `POSTed so far: ${JSON.stringify([...postsByKey(server)])}`,
			},
		);
	/** After two more polls: these keys were POSTed once each, and no key of the server twice. */
	const expectEachOnce = async (keys: string[], server = tickets) => {
		await new Promise((resolve) => setTimeout(resolve, TWO_POLLS_MS));
		const counts = postsByKey(server);
		expect(keys.map((key) => [key, counts.get(key) ?? 0])).toEqual(keys.map((key) => [key, 1]));
		expect([...counts].filter(([, count]) => count > 1)).toEqual([]);
	};

	/** The trigger's row in n8n's poller_state, if it has one. */
	const pollerState = async (workflowId = TICKETS) => {
		const [row] = await deployment.query(
			`SELECT cursor, "consecutiveErrors", "backoffUntil" FROM poller_state WHERE "workflowId" = '${workflowId}' AND "nodeId" = '${triggerNodeIds.get(workflowId)}'`,
		);
		if (!row) return undefined;
		return {
			responses: (jsonColumn(row.cursor) as { responses?: StreamCursor }).responses,
			consecutiveErrors: Number(row.consecutiveErrors),
			backoffUntilMs: databaseTimeMs(row.backoffUntil),
		};
	};
	/** The trigger's row once n8n backs off after a failed poll; then, that it polls normally again. */
	const backedOff = async (timeoutMs: number) =>
		await waitFor(
			'n8n to back off',
			async () => {
				const current = await pollerState();
				return current?.backoffUntilMs ? current : undefined;
			},
			{ timeoutMs, intervalMs: 500 },
		);
	const expectBackOffOver = async () =>
		expect(await pollerState()).toMatchObject({ consecutiveErrors: 0, backoffUntilMs: undefined });
	/** The trigger's cursor on /v1/responses in the workflow's static data, if any. */
	const staticDataCursor = async () => {
		const [row] = await deployment.query(
			`SELECT "staticData" FROM workflow_entity WHERE id = '${TICKETS}'`,
		);
		const staticData = jsonColumn(row?.staticData ?? null) as Record<
			string,
			{ responses?: StreamCursor }
		> | null;
		return staticData?.[`node:${TRIGGER_NAME}`]?.responses;
	};
	/** When each request to the fake arrived (n8n's clock is this machine's). */
	const arrivals = new Map<FakeRequest, number>();
	const responseReads = () => fake.requestsTo('/v1/responses', 'GET');

	step(
		"published on n8n's own poller, it keeps its cursor in the workflow's static data and emits a new response once",
		async () => {
			fake.arrivalHooks.push((request) => arrivals.set(request, Date.now()));
			await deployment.rest.activate(TICKETS);
			await waitFor(
				"the first poll to store its cursor in the workflow's static data",
				async () => ((await staticDataCursor()) ? true : undefined),
				{ timeoutMs: 60_000, intervalMs: 1_000 },
			);
			const first = detractor('ada');
			await waitForKeys([keyOf.response(first.id)]);
			await expectEachOnce([keyOf.response(first.id)]);
			expect(await pollerState()).toBeUndefined();
		},
	);

	step(
		'restarted on the durable poller, it takes its cursor over: what came while n8n was down and after is emitted once, nothing from before again',
		async () => {
			const before = (await staticDataCursor())!;
			let whileDown = { id: 0 };
			await deployment.restartMain(DURABLE_POLLER, () => (whileDown = detractor('bea')));
			const after = detractor('cy');
			const migrated = await waitFor(
				'the cursor in poller_state',
				async () => (await pollerState())?.responses,
				{ timeoutMs: 60_000, intervalMs: 1_000 },
			);
			expect(migrated.complete).toBeGreaterThanOrEqual(before.complete);
			const keys = [keyOf.response(whileDown.id), keyOf.response(after.id)];
			await waitForKeys(keys);
			await expectEachOnce(keys);
		},
		3 * 60_000,
	);

	step(
		'on the durable poller, a change, a decline and a response held until complete are each emitted once',
		async () => {
			const dee = endUser('dee');
			const held = addResponse(fake.account, fake.store, {
				endUserId: dee.id,
				score: 4,
				completed: false,
			});
			const decline = addDecline(fake.account, fake.store, { endUserId: dee.id });
			const commented = detractor('eli');
			await waitForKeys([keyOf.response(commented.id)]);
			const changed = changeResponse(fake.account, fake.store, commented.id, {
				text: 'Still unhappy, a day later',
			});
			const changes = [
				keyOf.decline(decline.id),
				keyOf.responseUpdated(changed.id, changed.updatedAt),
			];
			await waitForKeys(changes);
			expect(postsByKey(tickets).has(keyOf.response(held.id))).toBe(false);

			const completed = changeResponse(fake.account, fake.store, held.id, {
				text: 'Took a while to say',
				completed: true,
			});
			const completion = [
				keyOf.response(held.id),
				keyOf.responseUpdated(held.id, completed.updatedAt),
			];
			await waitForKeys(completion);
			const keys = [keyOf.response(commented.id), ...changes, ...completion];
			for (const key of keys) expectedKeys.add(key);
			await expectEachOnce(keys);
		},
		3 * 60_000,
	);

	step(
		"a 429 whose reset is past the poll's time: n8n waits until the service's reset, not its own back-off, then the next poll emits what came meanwhile",
		async () => {
			const resetInSeconds = 45;
			fake.faults.inject({
				method: 'GET',
				path: '/v1/responses',
				fault: { kind: 'rateLimited', resetInSeconds },
			});
			const limited = await waitFor(
				'a poll to meet the 429',
				() => responseReads().find((request) => request.status === 429),
				{ timeoutMs: TWO_POLLS_MS, intervalMs: 200 },
			);
			const limitedAt = arrivals.get(limited)!;
			const state = await backedOff(30_000);
			expect(state.consecutiveErrors).toBe(1);
			// n8n's own back-off after a first failure is 5 s; the reset is 45 s away.
			expect(state.backoffUntilMs! - limitedAt).toBeGreaterThan((resetInSeconds - 3) * 1000);
			expect(state.backoffUntilMs! - limitedAt).toBeLessThan((resetInSeconds + 5) * 1000);

			const meanwhile = detractor('fay');
			await waitForKeys([keyOf.response(meanwhile.id)], tickets, 90_000);
			const readsWhileWaiting = responseReads().filter((request) => {
				const at = arrivals.get(request) ?? 0;
				return at > limitedAt + 1_000 && at < state.backoffUntilMs! - 1_000;
			});
			expect(readsWhileWaiting).toEqual([]);
			await expectEachOnce([keyOf.response(meanwhile.id)]);
			await expectBackOffOver();
		},
		3 * 60_000,
	);

	step(
		'a sign-in refused again after renewal: n8n waits 30 minutes for the credential to be fixed; published again, it polls at once and misses nothing',
		async () => {
			fake.faults.inject({
				method: 'GET',
				path: '/v1/responses',
				times: 2,
				fault: { kind: 'unauthorized' },
			});
			const refusedAt = Date.now();
			const state = await backedOff(60_000);
			expect(state.backoffUntilMs! - refusedAt).toBeGreaterThan(29 * 60_000);
			expect(state.backoffUntilMs! - refusedAt).toBeLessThan(31 * 60_000);

			const meanwhile = detractor('gus');
			await deployment.rest.deactivate(TICKETS);
			await deployment.rest.activate(TICKETS);
			await waitForKeys([keyOf.response(meanwhile.id)]);
			await expectEachOnce([keyOf.response(meanwhile.id)]);
			await expectBackOffOver();
		},
		3 * 60_000,
	);

	if (deploymentName === 'queue mode')
		step(
			'in queue mode, three bursts (1,000 each; 300 in CI, 100 in the version checks) across a main restart and a killed worker: each response emitted by one execution and ticketed; the cursor in poller_state only moves on',
			async () => {
				const { cluster } = deployment;
				if (!cluster || !burstFake || !burstTickets) throw new Error('not in queue mode');
				log(
					await runTriggerAcrossCrashes({
						cluster,
						fake: burstFake,
						tickets: burstTickets,
						workflowId: BURSTS,
						restartMain: async (recovery, whileDown) =>
							await deployment.restartMain({ ...DURABLE_POLLER, ...recovery }, whileDown),
						cursor: async () => (await pollerState(BURSTS))?.responses,
						cursorPlace: 'PostgreSQL poller_state',
					}),
				);
			},
			25 * 60_000,
		);

	step(
		'published anew on the durable poller with Start From, it emits what comes right after publishing once',
		async () => {
			await deployment.rest.activate(FRESH);
			const rightAfter = detractor('hal');
			await waitForKeys([keyOf.response(rightAfter.id)], freshTickets);
			await expectEachOnce([keyOf.response(rightAfter.id)], freshTickets);
			await deployment.rest.deactivate(FRESH);
		},
		3 * 60_000,
	);

	step(
		'published anew on the durable poller without Start From, what comes before its first scheduled poll is not emitted: n8n keeps nothing the poll at publishing stores',
		async () => {
			// From here on the one-a-minute workflow is the only one that reads (see the next step), on
			// n8n's scheduler under short leases.
			await deployment.rest.deactivate(TICKETS);
			await deployment.restartMain({ ...DURABLE_POLLER, ...SHORT_LEASES });
			// Published well before its poll at second 0, so that what comes right after is seconds
			// older than that poll's start.
			const second = new Date().getUTCSeconds();
			if (second < 5 || second > 40)
				await new Promise((resolve) => setTimeout(resolve, ((65 - second) % 60) * 1000));
			await deployment.rest.activate(MINUTE);
			const beforeFirstPoll = detractor('ike');
			await waitFor(
				'the first scheduled poll to store its cursor',
				async () => (await pollerState(MINUTE))?.responses,
				{ timeoutMs: 90_000, intervalMs: 1_000 },
			);
			await new Promise((resolve) => setTimeout(resolve, 3_000));
			expect(postsByKey(minuteTickets).has(keyOf.response(beforeFirstPoll.id))).toBe(false);
		},
		4 * 60_000,
	);

	step(
		"two pollers for one node: a poll held past its lease is run again by n8n; the held one's late result is fenced off, the response emitted once",
		async () => {
			let release = () => {};
			const released = new Promise<void>((resolve) => (release = resolve));
			fake.faults.inject({
				method: 'GET',
				path: '/v1/responses',
				fault: { kind: 'held', released },
			});
			try {
				const raced = detractor('ivy');
				await waitFor(
					'the next scheduled poll to be held',
					() => (fake.faults.pending() === 0 ? true : undefined),
					{ timeoutMs: 90_000, intervalMs: 500 },
				);
				const readsWhenHeld = responseReads().length;
				await waitForKeys([keyOf.response(raced.id)], minuteTickets);
				// The response came from a second poller, which read while the first was held.
				expect(responseReads().length).toBeGreaterThan(readsWhenHeld);
				release();
				await expectEachOnce([keyOf.response(raced.id)], minuteTickets);
			} finally {
				release();
				await deployment.rest.deactivate(MINUTE);
			}
		},
		4 * 60_000,
	);

	step(
		"restarted on n8n's own poller again, it goes on from poller_state: nothing skipped, and nothing emitted again but by a poll that started before the run of the one before it ended",
		async () => {
			await deployment.restartMain(OWN_POLLER, () => detractor('jo'));
			await deployment.rest.activate(TICKETS);
			detractor('kim');
			await waitForKeys([...expectedKeys]);
			await new Promise((resolve) => setTimeout(resolve, TWO_POLLS_MS));
			const counts = postsByKey(tickets);
			expect([...expectedKeys].filter((key) => !counts.has(key))).toEqual([]);
			// n8n's own poller keeps reading the cursor from poller_state once it moved there, but saves
			// it when a poll's run has ended: a poll that starts before reads the one before it (2.40.7,
			// one process: the poll at publishing and a Poll Time 0.3 s later emitted the same three).
			const repeated = [...counts].filter(([, count]) => count > 1).map(([key]) => key);
			const successes = (await deployment.rest.newestExecutions(TICKETS)).filter(
				(summary) => summary.status === 'success',
			);
			const runs = await Promise.all(
				successes.map(async ({ id }) => {
					const { startedAt, stoppedAt } = await deployment.rest.executionSummary(id);
					const items = outputOf(await deployment.rest.finishedExecution(id), TRIGGER_NAME);
					return {
						startedAt: Date.parse(startedAt ?? ''),
						stoppedAt: Date.parse(stoppedAt ?? ''),
						keys: items.map((item) => String(item.idempotency_key)),
					};
				}),
			);
			// n8n's runs emitted every expected event too (what the ticket endpoint got came from them).
			expect(
				[...expectedKeys].filter((key) => !runs.some((run) => run.keys.includes(key))),
			).toEqual([]);
			for (const key of repeated) {
				const [first, again, ...more] = runs
					.filter((run) => run.keys.includes(key))
					.sort((a, b) => a.startedAt - b.startedAt);
				// The repeat's poll read the cursor before its run started: it started before the first
				// run ended if its run started within a poll's time (well under 2 s here) of that end.
				// (Seen: the second run started 10 ms after the first ended.)
				expect({
					key,
					more: more.length,
					pollStartedBeforeTheFirstRunEnded: again?.startedAt < first?.stoppedAt + 2_000,
				}).toEqual({
					key,
					more: 0,
					pollStartedBeforeTheFirstRunEnded: true,
				});
			}
		},
		3 * 60_000,
	);
}
