import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from './paths';
import { runCommand } from './processes';

export const PACKAGE_NAME = 'n8n-nodes-wootric';

/**
 * Builds this package from scratch (an old dist/ could hide a file the build no longer makes) and
 * packs it with `npm pack` into `destination`, exactly what the registry would get. Returns the
 * tarball's path.
 */
export async function buildAndPack(destination: string): Promise<string> {
	rmSync(join(REPO_ROOT, 'dist'), { recursive: true, force: true });
	await runCommand('npm', ['run', 'build'], { cwd: REPO_ROOT });
	return await packFolder(REPO_ROOT, destination);
}

/**
 * The tarball the e2e suites install: the one E2E_PACKAGE_TARBALL names where it is set (CI packs
 * once for every suite, as a release does), else a fresh buildAndPack.
 */
export async function packThisPackage(destination: string): Promise<string> {
	return process.env.E2E_PACKAGE_TARBALL ?? (await buildAndPack(destination));
}

/** `npm pack` of a package's folder into `destination`; returns the tarball's path. */
export async function packFolder(folder: string, destination: string): Promise<string> {
	mkdirSync(destination, { recursive: true });
	const { stdout } = await runCommand(
		'npm',
		['pack', '--json', '--pack-destination', destination],
		{ cwd: folder },
	);
	const [{ filename }] = JSON.parse(stdout) as Array<{ filename: string }>;
	return join(destination, filename);
}

/**
 * Installs tarballs (this package's first, then any other community packages) into
 * `<n8nFolder>/nodes`, n8n's community packages folder, as the README's command line does: `npm
 * install --legacy-peer-deps` there. `n8nFolder` is n8n's data folder, `<N8N_USER_FOLDER>/.n8n`.
 * `nodeBinFolder` goes first on npm's PATH: the Node that runs n8n. Returns the installed package's
 * folder.
 */
export async function installIntoN8n(
	n8nFolder: string,
	tarballs: string[],
	nodeBinFolder?: string,
): Promise<string> {
	const nodesFolder = join(n8nFolder, 'nodes');
	mkdirSync(nodesFolder, { recursive: true });
	// n8n keeps the list of the packages it installed in this package.json: kept where there is one.
	// Without one npm would install into a node_modules further up, where n8n never looks.
	const manifest = join(nodesFolder, 'package.json');
	if (!existsSync(manifest))
		writeFileSync(
			manifest,
			`${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2)}\n`,
		);
	// --legacy-peer-deps: n8n's own installer deletes peerDependencies before installing (its
	// community packages service); npm would otherwise add a second n8n-workflow next to n8n's.
	await runCommand(
		'npm',
		[
			'install',
			'--no-audit',
			'--no-fund',
			'--ignore-scripts',
			'--legacy-peer-deps',
			'--package-lock=false',
			...tarballs,
		],
		{
			cwd: nodesFolder,
			env: nodeBinFolder
				? { ...process.env, PATH: `${nodeBinFolder}:${process.env.PATH ?? ''}` }
				: process.env,
		},
	);
	const installed = join(nodesFolder, 'node_modules', PACKAGE_NAME);
	checkManifest(installed);
	return installed;
}

/**
 * Fails early, with a readable message, when the package.json `n8n` manifest names files the
 * tarball lacks.
 */
function checkManifest(packageFolder: string): void {
	const manifest = JSON.parse(readFileSync(join(packageFolder, 'package.json'), 'utf8')) as {
		n8n?: { nodes?: string[]; credentials?: string[] };
	};
	const listed = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	if (listed.length === 0)
		throw new Error(
			`The packed package.json has no n8n.nodes / n8n.credentials manifest (${packageFolder})`,
		);
	const missing = listed.filter((file) => !existsSync(join(packageFolder, file)));
	if (missing.length > 0)
		throw new Error(`The packed package lacks files its n8n manifest lists: ${missing.join(', ')}`);
}
