import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repository root: the folder whose package.json is this package's. Found by walking up, so it
 * is the same from scripts/e2e (ts-jest) and from build-test/scripts/e2e (`npm run dev`).
 */
function findRepoRoot(from: string): string {
	for (let folder = from; ; folder = dirname(folder)) {
		const manifest = join(folder, 'package.json');
		if (
			existsSync(manifest) &&
			(JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'n8n-nodes-wootric'
		)
			return folder;
		if (dirname(folder) === folder)
			throw new Error(`No n8n-nodes-wootric package.json above ${from}`);
	}
}

export const REPO_ROOT = findRepoRoot(__dirname);
export const PROVISION_SCRIPT = join(REPO_ROOT, 'scripts', 'e2e', 'provision.sh');
export const EXAMPLES_FOLDER = join(REPO_ROOT, 'examples');
/**
 * Plain JavaScript preloaded into n8n, so it is read from the sources even when this file runs from
 * build-test/.
 */
export const OUTBOUND_GUARD = join(REPO_ROOT, 'scripts', 'e2e', 'outbound-guard.js');
