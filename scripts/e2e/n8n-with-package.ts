import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { N8nInstance } from './n8n-instance';
import { installIntoN8n, packFolder, packThisPackage } from './package-tarball';
import { N8nRestClient } from './rest-client';
import { bcryptHash, isN8n1, provisionRuntime, requireFromN8n, type N8nRuntime } from './runtime';
import {
	writeCredentialsForImport,
	writeWorkflowsForImport,
	type CredentialForImport,
	type SandboxLogin,
	type WorkflowFile,
} from './workflow-files';

/** n8n's SQLite database inside a work folder: there once n8n has run in it. */
export const N8N_DATABASE_FILE = join('n8n-user', '.n8n', 'database.sqlite');

/** The node and credential types the package must add to n8n. */
export const PACKAGE_NODE_TYPES = [
	'n8n-nodes-wootric.wootric',
	'n8n-nodes-wootric.wootricTrigger',
	'n8n-nodes-wootric.wootricWebhookTrigger',
];
export const PACKAGE_CREDENTIAL_TYPES = ['wootricApi'];

export interface N8nWithPackageOptions {
	/**
	 * A fresh folder for this run: the tarball, the n8n user folder and the import files go in it.
	 */
	workFolder: string;
	port: number;
	owner: { email: string; password: string };
	/** The Wootric API the imported credential points at (the sandbox), and its login. */
	wootric: { baseUrl: string; login: SandboxLogin };
	ticketUrl: string;
	/** Folders of other community packages to install beside this one (the bench's floor trigger). */
	otherPackages?: string[];
	/** Credentials of other types the workflows use, imported with the sandbox's. */
	credentials?: CredentialForImport[];
	workflows: WorkflowFile[];
	adaptWorkflow?: (workflow: WorkflowFile) => WorkflowFile;
	env?: Record<string, string>;
	log?: (line: string) => void;
}

export interface N8nWithPackage {
	runtime: N8nRuntime;
	n8n: N8nInstance;
	/** Logged in as the owner. */
	rest: N8nRestClient;
	/** Where the tarball was installed: <user folder>/.n8n/nodes/node_modules/n8n-nodes-wootric. */
	packageFolder: string;
	/** The packed package, for other n8n processes (queue-mode workers) to install too. */
	tarball: string;
}

/**
 * A real n8n with this package installed the way users install it: provision Node 24 + n8n
 * (cached), pack a fresh build, install the tarball into a fresh user folder's .n8n/nodes, import
 * the sandbox credential and the workflows with n8n's CLI, start n8n headless on 127.0.0.1 and log
 * in as the owner.
 */
export async function startN8nWithPackage(options: N8nWithPackageOptions): Promise<N8nWithPackage> {
	const log = options.log ?? (() => {});
	log(
		`Provisioning Node 24 and n8n ${process.env.E2E_N8N_VERSION ?? '(the pinned version)'} (cached after the first run, about 5 minutes cold)…`,
	);
	const runtime = await provisionRuntime(log);
	log(`n8n ${runtime.n8nVersion}`);

	log('Building and packing the package…');
	const tarball = await packThisPackage(join(options.workFolder, 'pack'));
	const userFolder = join(options.workFolder, 'n8n-user');
	mkdirSync(userFolder, { recursive: true });
	log(`Installing ${tarball} into ${join(userFolder, '.n8n', 'nodes')}…`);
	const others = await Promise.all(
		(options.otherPackages ?? []).map(
			async (folder) => await packFolder(folder, join(options.workFolder, 'pack-others')),
		),
	);
	const packageFolder = await installIntoN8n(
		join(userFolder, '.n8n'),
		[tarball, ...others],
		runtime.nodeBinFolder,
	);

	const n8n = new N8nInstance({
		runtime,
		userFolder,
		port: options.port,
		owner: { ...options.owner, passwordHash: await bcryptHash(runtime, options.owner.password) },
		env: options.env,
	});
	log(
		`Importing the sandbox credential${options.workflows.length > 0 ? ' and the workflows' : ''}…`,
	);
	const credentialFile = join(options.workFolder, 'credentials.json');
	writeCredentialsForImport(
		credentialFile,
		options.wootric.baseUrl,
		options.wootric.login,
		options.credentials,
	);
	await n8n.importCredentials(credentialFile);
	if (options.workflows.length > 0) {
		const workflowFolder = join(options.workFolder, 'workflows');
		writeWorkflowsForImport(options.workflows, workflowFolder, {
			ticketUrl: options.ticketUrl,
			adapt: options.adaptWorkflow,
		});
		await n8n.importWorkflows(workflowFolder);
	}

	log(`Starting n8n on ${n8n.baseUrl}…`);
	const rest = await startWithPackageLoaded(runtime, n8n, options.owner);
	return { runtime, n8n, rest, packageFolder, tarball };
}

/**
 * Starts n8n, logs in as the owner (set up first on n8n 1.x) and checks that n8n offers the
 * package's node types, as the editor's nodes panel asks for them; stops n8n when any of it fails.
 * Returns the logged-in client.
 */
export async function startWithPackageLoaded(
	runtime: N8nRuntime,
	n8n: N8nInstance,
	owner: { email: string; password: string },
): Promise<N8nRestClient> {
	await n8n.start();
	try {
		const rest = new N8nRestClient(
			n8n.baseUrl,
			requireFromN8n<{ parse: (text: string) => unknown }>(runtime, 'flatted').parse,
		);
		if (isN8n1(runtime)) await rest.setUpOwnerOnce(owner);
		await rest.login(owner.email, owner.password);
		const nodeTypes = await rest.nodeTypeNames();
		const missing = PACKAGE_NODE_TYPES.filter((type) => !nodeTypes.includes(type));
		if (missing.length > 0)
			throw new Error(
				`n8n started but did not load ${missing.join(', ')} from the installed package.\nn8n log:\n${n8n.logTail()}`,
			);
		return rest;
	} catch (error) {
		await n8n.stop();
		throw error;
	}
}
