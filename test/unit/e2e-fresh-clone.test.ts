import { relativeImportsOf, tsFilesUnder } from '../support/imports';

/**
 * Every e2e suite runs on a fresh clone as the docs give it (`npm ci && npm run test:e2e:tickets`),
 * before anything is built: each suite builds and packs the package itself, so none of its test files
 * may reach, through its imports, test/harness/package.ts, which loads dist/ (`requireBuilt`,
 * `loadPackage`; test/support/wootric.ts calls it as it is imported).
 */
const E2E_SUITES = [
	'test/e2e',
	'test/e2e-browser',
	'test/e2e-queue',
	'test/e2e-durable',
	'test/e2e-tickets',
];
const LOADS_DIST = 'test/harness/package.ts';

/** The files `file` imports, directly or not, each with the chain that brings it in. */
function importChains(file: string): Map<string, string[]> {
	const chains = new Map<string, string[]>([[file, [file]]]);
	const queue = [file];
	for (let from = queue.shift(); from !== undefined; from = queue.shift()) {
		for (const { to } of relativeImportsOf(from)) {
			if (to === undefined || !to.endsWith('.ts') || chains.has(to)) continue;
			chains.set(to, [...(chains.get(from) ?? []), to]);
			queue.push(to);
		}
	}
	return chains;
}

describe('the e2e suites on a fresh clone', () => {
	const testFiles = E2E_SUITES.flatMap(tsFilesUnder).filter((file) => file.endsWith('.test.ts'));

	it('are found', () => {
		expect(testFiles.length).toBeGreaterThanOrEqual(E2E_SUITES.length);
	});

	it.each(testFiles)('%s imports nothing that loads dist/', (file) => {
		expect(importChains(file).get(LOADS_DIST)?.join(' → ')).toBeUndefined();
	});

	it('would see it: a unit test that imports test/support/wootric.ts reaches it', () => {
		expect(importChains('test/integration/trigger-liveness-model.test.ts').has(LOADS_DIST)).toBe(
			true,
		);
	});
});
