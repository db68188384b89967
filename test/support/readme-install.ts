import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from '../../scripts/e2e/paths';

/**
 * The shell blocks of the README's *Install in n8n*, a line a command: what a newcomer types to
 * install the package from a clone into an n8n installed with npm, and into one in Docker.
 */
export function readmeInstallCommands(): { npmInstalled: string[]; docker: string[] } {
	const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
	const section = readme.split(/^## /m).find((part) => part.startsWith('Install in n8n\n'));
	if (!section) throw new Error('README.md has no section "Install in n8n"');
	const blocks = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((block) =>
		block[1].trimEnd().split('\n'),
	);
	if (blocks.length !== 2)
		throw new Error(
			`README.md's Install in n8n has ${blocks.length} shell blocks, not two (n8n installed with npm, then in Docker)`,
		);
	const [npmInstalled, docker] = blocks;
	return { npmInstalled, docker };
}

/**
 * A README command without its leading `npm ci && `, for a test in this clone, whose dependencies
 * the test itself runs on.
 */
export function afterNpmCi(command: string): string {
	const prefix = 'npm ci && ';
	if (!command.startsWith(prefix))
		throw new Error(`The README's command does not start with "${prefix}": ${command}`);
	return command.slice(prefix.length);
}
