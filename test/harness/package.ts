import { PackageDirectoryLoader } from 'n8n-core';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { prepareN8nRuntime } from './n8n-runtime';
import type { LoadedCredentialTypes, LoadedNodeTypes } from './type-registries';
import { CredentialTypeRegistry } from './type-registries';

/**
 * The nearest folder above this file holding a package.json: the repository, from the sources or
 * from build-test/.
 */
export const REPO_ROOT = findPackageRoot(__dirname);

/** A community package as n8n loads it from its `package.json` `n8n` manifest. */
export interface LoadedPackage {
	name: string;
	directory: string;
	/**
	 * Keyed by full node type name, `<package name>.<node name>`, as in a real n8n; `sourcePath` is
	 * the manifest entry.
	 */
	nodeTypes: LoadedNodeTypes;
	/** Keyed by credential type name; `sourcePath` is the manifest entry. */
	credentialTypes: LoadedCredentialTypes;
	credentialTypeRegistry: CredentialTypeRegistry;
}

const loadedPackages = new Map<string, Promise<LoadedPackage>>();

/**
 * Loads a package's built files (run the build first) through n8n-core's PackageDirectoryLoader;
 * memoized per directory.
 */
export async function loadPackage(directory: string = REPO_ROOT): Promise<LoadedPackage> {
	const packageDirectory = resolve(directory);
	let loaded = loadedPackages.get(packageDirectory);
	if (!loaded) {
		loaded = readPackage(packageDirectory);
		loadedPackages.set(packageDirectory, loaded);
	}
	return await loaded;
}

async function readPackage(directory: string): Promise<LoadedPackage> {
	await prepareN8nRuntime();
	const loader = new PackageDirectoryLoader(directory);
	await loader.loadAll();
	const name = loader.packageName;
	// The loader keys nodes by their short name; n8n's node type registry prefixes the package name.
	const nodeTypes: LoadedNodeTypes = Object.fromEntries(
		Object.entries(loader.nodeTypes).map(([nodeName, loadedNode]) => [
			`${name}.${nodeName}`,
			loadedNode,
		]),
	);
	const credentialTypes: LoadedCredentialTypes = { ...loader.credentialTypes };
	return {
		name,
		directory: loader.directory,
		nodeTypes,
		credentialTypes,
		credentialTypeRegistry: new CredentialTypeRegistry(name, credentialTypes),
	};
}

/**
 * A built module of this package (dist/, as n8n runs it; build first), by its path from the
 * repository root or an absolute one; typed as its source: `typeof import('../nodes/…')`.
 */
export function requireBuilt<Module>(builtPath: string): Module {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- built JavaScript at a path known at run time
	return require(resolve(REPO_ROOT, builtPath)) as Module;
}

function findPackageRoot(start: string): string {
	for (let folder = start; folder !== dirname(folder); folder = dirname(folder)) {
		if (existsSync(join(folder, 'package.json'))) return folder;
	}
	throw new Error(`No package.json above ${start}`);
}
