import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PROVISION_SCRIPT } from './paths';
import { runCommand } from './processes';

/** Node 24 and n8n, as provision.sh lays them out in its cache folder. */
export interface N8nRuntime {
	folder: string;
	/** The n8n version provisioned: E2E_N8N_VERSION, else the pinned one of n8n-versions.json. */
	n8nVersion: string;
	/** The Node 24 binary that runs n8n, and its folder (first on n8n's PATH). */
	node: string;
	nodeBinFolder: string;
	/** n8n's command-line entry point, run with `node`. */
	n8nCli: string;
	/**
	 * n8n's node_modules: helpers (bcryptjs, flatted) are loaded from here by path, never added to
	 * package.json.
	 */
	nodeModules: string;
}

/**
 * Provisions Node 24 and n8n into the cache folder (about 5 minutes the first time, instant
 * afterwards) and returns where they are. `log` gets the script's progress lines.
 */
export async function provisionRuntime(
	log: (line: string) => void = () => {},
): Promise<N8nRuntime> {
	const { stdout } = await runCommand('bash', [PROVISION_SCRIPT], {
		// Cold it takes about 5 minutes; a hung download must not hold the caller (or CI) forever.
		timeoutMs: 15 * 60_000,
		onStderrLine: (line) => {
			if (line.startsWith('[provision]')) log(line);
		},
	});
	const folder = stdout.trim().split('\n').pop() ?? '';
	const nodeBinFolder = join(folder, 'runtime', 'node_modules', 'node', 'bin');
	const nodeModules = join(folder, 'n8n', 'node_modules');
	const { version: n8nVersion } = JSON.parse(
		readFileSync(join(nodeModules, 'n8n', 'package.json'), 'utf8'),
	) as { version: string };
	return {
		folder,
		n8nVersion,
		node: join(nodeBinFolder, 'node'),
		nodeBinFolder,
		n8nCli: join(nodeModules, 'n8n', 'bin', 'n8n'),
		nodeModules,
	};
}

/** The last 1.x line (1.123): what differs from 2.x is guarded by this, in the harness only. */
export function isN8n1(runtime: N8nRuntime): boolean {
	return runtime.n8nVersion.startsWith('1.');
}

/**
 * A module from n8n's node_modules (pure JS ones only: this process runs on the machine's Node).
 */
export function requireFromN8n<T>(runtime: N8nRuntime, name: string): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- a module of the n8n install, at a path known at run time
	return require(join(runtime.nodeModules, name)) as T;
}

/**
 * A bcrypt hash of `password` for N8N_INSTANCE_OWNER_PASSWORD_HASH, made by n8n's own bcryptjs on
 * the provisioned Node.
 */
export async function bcryptHash(runtime: N8nRuntime, password: string): Promise<string> {
	const script =
		'process.stdout.write(require(process.env.BCRYPTJS).hashSync(process.env.PASSWORD, 10))';
	const { stdout } = await runCommand(runtime.node, ['-e', script], {
		env: { ...process.env, BCRYPTJS: join(runtime.nodeModules, 'bcryptjs'), PASSWORD: password },
	});
	return stdout.trim();
}
