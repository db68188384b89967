import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A clone is all `npm ci && npm test`, .ci/run and the publish workflow need: no tracked file names
 * the material beside the repository (the API spec, the API facts, the n8n guide), by its folder or
 * by its files' names, so nothing can read it, in a test, a script, a workflow or a config.
 */
const REPO_ROOT = join(__dirname, '..', '..');
const OUTSIDE = [
	'../shared',
	'shared/spec',
	'shared/API-FACTS',
	'shared/N8N-GUIDE',
	'nps-service-api.md',
	'API-FACTS.md',
	'N8N-GUIDE.md',
];

const trackedFiles = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' })
	.split('\0')
	.filter((file) => file !== '' && !/^(node_modules|dist)\//.test(file));

describe('the repository', () => {
	it('is read from git: every tracked file', () => {
		expect(trackedFiles).toEqual(
			expect.arrayContaining(['package.json', '.github/workflows/publish.yml', '.npmrc']),
		);
	});

	it('names nothing outside itself that a check would read', () => {
		const thisFile = relative(REPO_ROOT, __filename);
		const pointing = trackedFiles
			.filter((file) => file !== thisFile)
			.flatMap((file) => {
				const text = readFileSync(join(REPO_ROOT, file), 'utf8');
				return OUTSIDE.filter((name) => text.includes(name)).map((name) => `${file}: ${name}`);
			});
		expect(pointing).toEqual([]);
	});
});
