import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { readVersionChecks, stepRuns, type E2eSuiteName } from '../../scripts/e2e/version-checks';

const SUITE_FILES: Record<E2eSuiteName, string> = {
	e2e: 'test/e2e/real-n8n.test.ts',
	queue: 'test/e2e-queue/queue-mode.test.ts',
	browser: 'test/e2e-browser/editor.test.ts',
	durable: 'test/e2e-durable/durable-poller.ts',
	tickets: 'test/e2e-tickets/tickets.test.ts',
};

/** The names of a suite file's steps: the first string argument of each step( call. */
function stepNames(suite: E2eSuiteName): string[] {
	const source = readFileSync(join(__dirname, '..', '..', SUITE_FILES[suite]), 'utf8');
	return [...source.matchAll(/\bstep\(\s*(['"`])((?:\\.|(?!\1).)*)\1/gs)].map((match) =>
		match[2].replace(/\\(.)/g, '$1'),
	);
}

/** Runs `body` with E2E_SCOPE set to `scope`, then puts the environment back. */
function withScope<T>(scope: string | undefined, body: () => T): T {
	const before = process.env.E2E_SCOPE;
	if (scope === undefined) delete process.env.E2E_SCOPE;
	else process.env.E2E_SCOPE = scope;
	try {
		return body();
	} finally {
		if (before === undefined) delete process.env.E2E_SCOPE;
		else process.env.E2E_SCOPE = before;
	}
}

describe('scripts/e2e/version-checks.json: the e2e steps run on every n8n version', () => {
	const checks = readVersionChecks();

	it('finds the steps of each suite file', () => {
		for (const suite of Object.keys(SUITE_FILES) as E2eSuiteName[])
			expect(stepNames(suite).length).toBeGreaterThan(5);
	});

	it.each(checks.map((check) => [`${check.suite}: ${check.step || '(every step)'}`, check]))(
		'%s: names a step of its suite, and says why',
		(_name, check) => {
			expect(check.why.length).toBeGreaterThan(10);
			expect(stepNames(check.suite).filter((name) => name.startsWith(check.step))).not.toEqual([]);
		},
	);

	it('leaves steps out on the other versions, but not the first of each suite (n8n is up)', () => {
		withScope('version-checks', () => {
			for (const suite of Object.keys(SUITE_FILES) as E2eSuiteName[])
				expect(stepRuns(suite, stepNames(suite)[0])).toBe(true);
			const skipped = stepNames('e2e').filter((name) => !stepRuns('e2e', name));
			expect(skipped).toContain(
				'published, 100 webhooks with a bad signature (none, another secret, a changed body, sha256) are answered 401 and start nothing',
			);
		});
	});

	it('runs every step by default, and refuses a scope it does not know', () => {
		withScope(undefined, () => {
			expect(stepNames('queue').every((name) => stepRuns('queue', name))).toBe(true);
		});
		withScope('some', () => {
			expect(() => stepRuns('e2e', 'x')).toThrow(/E2E_SCOPE is 'some'/);
		});
	});
});
