import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from './paths';
import { runCommand } from './processes';
import type { N8nRuntime } from './runtime';

const PACKAGE_NAME = 'n8n-nodes-wootric';

/**
 * Builds this package from scratch (an old dist/ could hide a file the build no longer makes) and
 * packs it with `npm pack`, exactly what the registry would get. Returns the tarball's path: the one
 * E2E_PACKAGE_TARBALL names where it is set (CI packs once for every suite, as a release does).
 */
export async function packThisPackage(destination: string): Promise<string> {
	const packed = process.env.E2E_PACKAGE_TARBALL;
	if (packed) return packed;
	rmSync(join(REPO_ROOT, 'dist'), { recursive: true, force: true });
	await runCommand('npm', ['run', 'build'], { cwd: REPO_ROOT });
	return await packFolder(REPO_ROOT, destination);
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
 * Installs the tarball into `<userFolder>/.n8n/nodes` as a community package: a folder with a tiny
 * package.json and `npm install <tgz>`, with `others` (tarballs of other community packages) beside
 * it. Returns the installed package's folder.
 */
export async function installAsCommunityPackage(
	runtime: N8nRuntime,
	userFolder: string,
	tarball: string,
	others: string[] = [],
): Promise<string> {
	const nodesFolder = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesFolder, { recursive: true });
	writeFileSync(
		join(nodesFolder, 'package.json'),
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
			tarball,
			...others,
		],
		{
			cwd: nodesFolder,
			env: { ...process.env, PATH: `${runtime.nodeBinFolder}:${process.env.PATH ?? ''}` },
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
