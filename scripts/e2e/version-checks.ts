import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from './paths';

export type E2eSuiteName = 'e2e' | 'queue' | 'browser' | 'durable' | 'tickets';

/** A step that also runs on the n8n versions other than the pinned one, and why. */
export interface VersionCheck {
	suite: E2eSuiteName;
	/** The start of the step's name, as the test file writes it. */
	step: string;
	why: string;
}

export const VERSION_CHECKS_FILE = join(REPO_ROOT, 'scripts', 'e2e', 'version-checks.json');

export const readVersionChecks = (): VersionCheck[] =>
	(JSON.parse(readFileSync(VERSION_CHECKS_FILE, 'utf8')) as { checks: VersionCheck[] }).checks;

/**
 * Whether a step runs: every step does, unless E2E_SCOPE is `version-checks` (matrix.sh sets it for
 * the versions other than the pinned one, which CI runs whole): then only the steps of
 * version-checks.json, those whose outcome can differ by n8n version.
 */
export function stepRuns(suite: E2eSuiteName, step: string): boolean {
	return (
		!inVersionChecks() ||
		readVersionChecks().some((check) => check.suite === suite && step.startsWith(check.step))
	);
}

function inVersionChecks(): boolean {
	const scope = process.env.E2E_SCOPE ?? 'all';
	if (scope !== 'all' && scope !== 'version-checks')
		throw new Error(`E2E_SCOPE is '${scope}': 'all' (the default) or 'version-checks'`);
	return scope === 'version-checks';
}

/**
 * How many records a burst makes at once (signed webhooks, or responses for the polling trigger): 1,000
 * in a whole run (docs/maintainers/performance.md gives its figures); wherever E2E_BURST_SIZE says so
 * (.ci/run: 300 on the pinned version, three for each of the webhook sender's 100 connections, which keeps n8n as busy
 * in the ways a burst can fail, in a third of the time); 100 in the version checks: one for each
 * connection, all at once, which is what can differ by version (how n8n takes in and answers concurrent
 * deliveries); how many it takes before it answers 503 is a figure, not a check.
 */
export function burstSize(): number {
	const size = process.env.E2E_BURST_SIZE;
	if (size === undefined) return inVersionChecks() ? 100 : 1_000;
	if (!/^[1-9]\d*$/.test(size)) throw new Error(`E2E_BURST_SIZE is '${size}': a whole number`);
	return Number(size);
}
