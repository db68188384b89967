import { readFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../harness';

const readJson = (file: string) => JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8'));

/** The major version of Node a `>=` range starts at; undefined for any other range. */
const leastNodeMajor = (range: string | undefined) =>
	range === undefined ? undefined : Number(/^>=\s*v?(\d+)/.exec(range)?.[1] ?? NaN) || undefined;

/**
 * `npm ci` on the oldest Node the package supports warns EBADENGINE for every locked package that
 * needs a newer one; a newcomer meets these first, so the README names each of them.
 */
describe("what `npm ci` warns of on the package's oldest Node", () => {
	const oldestMajor = leastNodeMajor(readJson('package.json').engines.node)!;
	const lock = readJson('package-lock.json') as {
		packages: Record<string, { engines?: { node?: string } }>;
	};
	const needingNewer = [
		...new Set(
			Object.entries(lock.packages)
				.filter(([, entry]) => (leastNodeMajor(entry.engines?.node) ?? 0) > oldestMajor)
				.map(([where]) => where.split('node_modules/').pop()!),
		),
	];

	it('finds the one package that needs a newer Node', () => {
		expect(needingNewer).toEqual(['isolated-vm']);
	});

	it('is named in the README, with why it is harmless', () => {
		const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
		for (const name of needingNewer) expect(readme).toMatch(new RegExp(`EBADENGINE[^]*${name}`));
	});
});
