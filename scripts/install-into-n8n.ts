/**
 * `npm run install-into-n8n -- [n8n folder]`: installs this package, built from this clone, into an
 * n8n of one's own, before a release or for a version the npm registry does not have (the README's
 * *Install in n8n*). Builds, packs into n8n-nodes-wootric.tgz in the clone, and installs that tarball
 * into `<n8n folder>/nodes` as the README's command line installs the released package. The n8n folder
 * is n8n's data folder, by default where n8n itself looks: $N8N_USER_FOLDER/.n8n, else ~/.n8n.
 *
 * `npm run pack-for-n8n` (`--pack-only`) builds and packs only, for an n8n in Docker: the README copies
 * the tarball into the container and installs it there.
 */
import { chmodSync, existsSync, readFileSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

import { buildAndPack, installIntoN8n, PACKAGE_NAME } from './e2e/package-tarball';
import { REPO_ROOT } from './e2e/paths';

/** Where both commands leave the packed package: one name whatever the version, for the README's. */
export const CLONE_TARBALL = join(REPO_ROOT, `${PACKAGE_NAME}.tgz`);

export const PACK_ONLY = '--pack-only';

/**
 * The n8n folder the command installs into, from its arguments and environment: the folder given
 * (relative to where `npm run` was typed, INIT_CWD: npm runs scripts in the package's folder), else
 * where n8n looks: `.n8n` in N8N_USER_FOLDER, else in HOME. A folder given that does not exist is
 * refused (a typo: installed there, the package would be where n8n never looks), and so is one with a
 * `.n8n` folder in it, an N8N_USER_FOLDER, naming the one meant.
 */
export function n8nFolderFrom(args: string[], env: NodeJS.ProcessEnv): string {
	if (args.length > 1 || args[0]?.startsWith('-'))
		throw new Error('Usage: npm run install-into-n8n -- [n8n folder, default ~/.n8n]');
	if (args.length === 0) return join(env.N8N_USER_FOLDER || env.HOME || homedir(), '.n8n');
	const folder = resolve(env.INIT_CWD ?? process.cwd(), args[0]);
	if (!existsSync(folder))
		throw new Error(
			`${folder} does not exist. n8n's data folder is the one n8n makes on its first start, holding its config file and database.sqlite: by default ~/.n8n ($N8N_USER_FOLDER/.n8n when that is set).`,
		);
	if (existsSync(join(folder, '.n8n')))
		throw new Error(
			`${folder} holds n8n's data folder, ${join(folder, '.n8n')}: give that one (npm run install-into-n8n -- ${join(folder, '.n8n')})`,
		);
	return folder;
}

async function main(args: string[]): Promise<void> {
	const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
		version: string;
	};
	const packOnly = args.length === 1 && args[0] === PACK_ONLY;
	const n8nFolder = packOnly ? undefined : n8nFolderFrom(args, process.env);
	console.log(`Building and packing ${PACKAGE_NAME} ${version}…`);
	// npm pack names the tarball by the version: the README's commands name one file for every version.
	renameSync(await buildAndPack(REPO_ROOT), CLONE_TARBALL);
	// Readable by all: `docker cp` keeps the mode, and the image's npm runs as the user node.
	chmodSync(CLONE_TARBALL, 0o644);
	if (!n8nFolder) {
		console.log(`Packed into ${CLONE_TARBALL}.`);
		return;
	}
	const nodesFolder = join(n8nFolder, 'nodes');
	console.log(`Installing it into ${nodesFolder}…`);
	await installIntoN8n(n8nFolder, [CLONE_TARBALL]);
	console.log(
		`Installed ${PACKAGE_NAME} ${version} into ${nodesFolder}.\n` +
			'Restart n8n to load it: the nodes panel then offers Wootric, Wootric Trigger and Wootric Webhook Trigger.',
	);
}

if (require.main === module)
	main(process.argv.slice(2)).catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	});
