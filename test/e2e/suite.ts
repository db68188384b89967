import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { N8nWithPackageOptions } from '../../scripts/e2e/n8n-with-package';
import { freePort } from '../../scripts/e2e/processes';
import { TicketServer } from '../../scripts/e2e/ticket-server';
import { stepRuns, type E2eSuiteName } from '../../scripts/e2e/version-checks';
import { FakeWootric, seedDemoData } from '../fake';

/**
 * What an e2e suite's n8n works with: the fake Wootric API with the demo data and the ticket
 * endpoint.
 */
export interface E2eServices {
	fake: FakeWootric;
	tickets: TicketServer;
	/**
	 * The options every suite starts n8n with: the work folder, a free port, the fake as the
	 * credential's API, the ticket endpoint, the log.
	 */
	n8nOptions: Pick<N8nWithPackageOptions, 'workFolder' | 'port' | 'wootric' | 'ticketUrl' | 'log'>;
}

export interface E2eSuiteSetup {
	/**
	 * Names the work folder, prefixes the log lines, and is the suite's name in
	 * scripts/e2e/version-checks.json.
	 */
	label: E2eSuiteName;
	/** Starts n8n (one process or a cluster) for the services; runs once, in beforeAll. */
	start: (services: E2eServices) => Promise<void>;
	/** Stops what `start` started, also after a start that failed part way. */
	stop: () => Promise<void>;
	/** The end of n8n's logs, for a failing step's message; undefined before n8n started. */
	logTails: () => string | undefined;
	stopTimeoutMs: number;
}

/** A step's time unless it says otherwise (jest.e2e.config.js's testTimeout). */
const STEP_TIMEOUT_MS = 120_000;

/**
 * Registers the start-up and tear-down every e2e suite shares: beforeAll makes a work folder,
 * starts the fake Wootric API seeded with the demo data and the ticket endpoint, then `start`s n8n;
 * afterAll stops them all and removes the work folder, unless a step or the start failed (then it
 * is kept for a look). Returns `step`: it(), but a failure also shows the end of n8n's logs, what
 * the step started is told to stop when it ends, and a step outside E2E_SCOPE is skipped
 * (scripts/e2e/version-checks.ts).
 */
export function e2eSuite(setup: E2eSuiteSetup) {
	let workFolder: string | undefined;
	let fake: FakeWootric | undefined;
	let tickets: TicketServer | undefined;
	let failed = false;
	const log = (line: string) => process.stderr.write(`[${setup.label}] ${line}\n`);

	beforeAll(async () => {
		workFolder = mkdtempSync(join(tmpdir(), `n8n-wootric-${setup.label}-`));
		fake = await new FakeWootric().listen();
		seedDemoData(fake.store, fake.account);
		tickets = await new TicketServer().listen();
		try {
			const port = await freePort();
			await setup.start({
				fake,
				tickets,
				n8nOptions: {
					workFolder,
					port,
					wootric: { baseUrl: fake.baseUrl, login: fake.credentials },
					ticketUrl: tickets.url,
					log,
				},
			});
		} catch (error) {
			failed = true;
			throw error;
		}
	}, 20 * 60_000);

	afterAll(async () => {
		await setup.stop();
		await fake?.close();
		await tickets?.close();
		if (!workFolder) return;
		if (failed) log(`Kept the work folder for a look: ${workFolder}`);
		else rmSync(workFolder, { recursive: true, force: true });
	}, setup.stopTimeoutMs);

	function step(
		name: string,
		body: (stopped: AbortSignal) => Promise<void>,
		timeoutMs = STEP_TIMEOUT_MS,
	): void {
		(stepRuns(setup.label, name) ? it : it.skip)(
			name,
			async () => {
				// What a step started stops with it: `stopped` aborts when it ends, and a second before
				// jest would give up on it (jest leaves a timed-out body running), so that a step that
				// failed leaves the next one a machine not still busy with its load.
				const stop = new AbortController();
				const timer = setTimeout(
					() => stop.abort(new Error(`The step ran out of its ${timeoutMs / 1000} s`)),
					timeoutMs - 1_000,
				);
				try {
					await body(stop.signal);
				} catch (error) {
					failed = true;
					// jest prints the message of any error it is given, with its diff and code frame.
					const logTails = setup.logTails();
					if (error instanceof Error && logTails) error.message += `\n\n${logTails}`;
					throw error;
				} finally {
					clearTimeout(timer);
					stop.abort();
				}
			},
			timeoutMs,
		);
	}

	return { step };
}
