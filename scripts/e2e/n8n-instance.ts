import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { OUTBOUND_GUARD } from './paths';
import { freePort, runCommand, tail, waitFor } from './processes';
import { isN8n1, type N8nRuntime } from './runtime';

export interface InstanceOwner {
	email: string;
	password: string;
	passwordHash: string;
}

export interface N8nInstanceOptions {
	runtime: N8nRuntime;
	/** N8N_USER_FOLDER: n8n keeps its database, settings and community packages in <it>/.n8n. */
	userFolder: string;
	port: number;
	owner: InstanceOwner;
	/** Extra environment, e.g. GENERIC_TIMEZONE. */
	env?: Record<string, string>;
	/**
	 * `n8n start` (default), or a process of queue mode: `n8n worker` runs executions taken from the
	 * queue and serves only its health check, on `port`; `n8n webhook` serves production webhooks on
	 * `port` and queues their executions.
	 */
	role?: 'main' | 'worker' | 'webhook';
}

/** What `n8n execute --rawOutput` prints after its log lines: the execution, as n8n's IRun. */
export interface CliExecution {
	status: string;
	data: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			error?: { message: string; description?: string; httpCode?: string; node?: { name: string } };
		};
	};
}

export interface NodeRun {
	executionStatus?: string;
	data?: {
		main: Array<Array<{ json: Record<string, unknown>; binary?: Record<string, unknown> }> | null>;
	};
	error?: { message: string; description?: string };
}

/**
 * One n8n: its environment (headless, 127.0.0.1 only, no outbound calls, an owner from env), its
 * CLI commands, and `n8n start` as a child process stopped by PID. Everything it prints goes to
 * n8n.log in the user folder, whose tail error messages show.
 */
export class N8nInstance {
	readonly baseUrl: string;
	readonly logFile: string;
	/** Connections n8n opened to other hosts (see outbound-guard.js): one JSON line each. */
	readonly outboundLogFile: string;
	private server?: ChildProcess;
	private exitReason?: Promise<string>;

	constructor(private readonly options: N8nInstanceOptions) {
		this.baseUrl = `http://127.0.0.1:${options.port}`;
		this.logFile = join(options.userFolder, 'n8n.log');
		this.outboundLogFile = join(options.userFolder, 'outbound-connections.log');
	}

	get owner(): InstanceOwner {
		return this.options.owner;
	}

	get pid(): number | undefined {
		return this.server?.pid;
	}

	/**
	 * The environment of every n8n process; `brokerPort` must differ per process (each starts a task
	 * broker).
	 */
	private environment(
		brokerPort: number,
		startEnv: Record<string, string> = {},
	): NodeJS.ProcessEnv {
		const { runtime, userFolder, port, owner } = this.options;
		return {
			PATH: `${runtime.nodeBinFolder}:${process.env.PATH ?? ''}`,
			HOME: process.env.HOME,
			TMPDIR: process.env.TMPDIR,
			N8N_USER_FOLDER: userFolder,
			// Fixed, so the CLI imports and the server read the same encrypted credentials.
			N8N_ENCRYPTION_KEY: 'n8n-nodes-wootric-e2e-encryption-key',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PORT: String(port),
			N8N_PROTOCOL: 'http',
			N8N_EDITOR_BASE_URL: this.baseUrl,
			// Plain http on 127.0.0.1: a secure cookie would never come back.
			N8N_SECURE_COOKIE: 'false',
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			// No outbound calls: telemetry, version checks, templates, banners, AI, license renewal, MCP
			// registry.
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_DYNAMIC_BANNERS_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_AI_ENABLED: 'false',
			N8N_PYTHON_ENABLED: 'false',
			N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
			// n8n 1.x has no such module, and refuses to start when told to disable one it does not know.
			...(isN8n1(runtime) ? {} : { N8N_DISABLED_MODULES: 'mcp-registry' }),
			// The package is installed by hand in .n8n/nodes: never fetch or reinstall packages from a
			// registry.
			N8N_REINSTALL_MISSING_PACKAGES: 'false',
			N8N_VERIFIED_PACKAGES_ENABLED: 'false',
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: owner.email,
			N8N_INSTANCE_OWNER_PASSWORD_HASH: owner.passwordHash,
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
			N8N_LOG_LEVEL: 'info',
			...(this.options.role === 'worker'
				? {
						QUEUE_HEALTH_CHECK_ACTIVE: 'true',
						QUEUE_HEALTH_CHECK_PORT: String(port),
						N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
					}
				: {}),
			NODE_OPTIONS: `--require "${OUTBOUND_GUARD}"`,
			OUTBOUND_GUARD_LOG: this.outboundLogFile,
			...this.options.env,
			...startEnv,
		};
	}

	/**
	 * Runs an n8n CLI command (`import:workflow`, `execute`, …) to completion against this user
	 * folder.
	 */
	async cli(args: string[], timeoutMs = 90_000) {
		return await runCommand(this.options.runtime.node, [this.options.runtime.n8nCli, ...args], {
			cwd: this.options.userFolder,
			env: this.environment(await freePort()),
			timeoutMs,
		});
	}

	async importCredentials(file: string): Promise<void> {
		await this.cli(['import:credentials', `--input=${file}`]);
	}

	async importWorkflows(folder: string): Promise<void> {
		await this.cli(['import:workflow', '--separate', `--input=${folder}`]);
	}

	/**
	 * `n8n execute --id=<id> --rawOutput`: runs the workflow from its Manual Trigger in a separate
	 * n8n process and returns the execution. A failed run throws a CliExecutionError with n8n's error
	 * message. A run n8n printed as successful is returned even when the process then exited with an
	 * error (seen once with 2.40.7, the run stored as a success): the run is what the steps test, and
	 * the exit is reported on stderr with the command's last lines.
	 */
	async execute(workflowId: string): Promise<CliExecution> {
		const command = `n8n execute --id=${workflowId}`;
		let stdout: string;
		try {
			({ stdout } = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput']));
		} catch (error) {
			const printed = (error as { stdout?: string }).stdout ?? '';
			const execution = printedExecution(printed);
			if (!execution) throw error;
			if (execution.data.resultData.error) throw new CliExecutionError(command, execution);
			process.stderr.write(`[e2e] the run succeeded, then ${(error as Error).message}\n`);
			return execution;
		}
		const execution = printedExecution(stdout);
		if (!execution) throw new Error(`${command} printed no execution:\n${tail(stdout)}`);
		return execution;
	}

	/**
	 * Starts `n8n start` (or `n8n worker`, `n8n webhook`) in its own process group (so its task
	 * runner stops with it) and waits until it serves. `env`: more environment for this start only.
	 */
	async start(timeoutMs = 120_000, env: Record<string, string> = {}): Promise<void> {
		const log = openSync(this.logFile, 'a');
		const role = this.options.role ?? 'main';
		const command = {
			main: ['start'],
			worker: ['worker', '--concurrency=10'],
			webhook: ['webhook'],
		}[role];
		const server = spawn(this.options.runtime.node, [this.options.runtime.n8nCli, ...command], {
			cwd: this.options.userFolder,
			env: this.environment(await freePort(), env),
			stdio: ['ignore', log, log],
			detached: true,
		});
		closeSync(log);
		this.server = server;
		server.once('error', (error) => (exited = `could not start: ${error.message}`));
		let exited: string | undefined;
		this.exitReason = new Promise((resolve) =>
			server.once('exit', (code, signal) => resolve((exited = signal ?? `exit code ${code}`))),
		);
		// n8n 1.x says it is ready before its REST API is mounted: a main waits for that too.
		const readinessPaths =
			role === 'main' ? ['/healthz/readiness', '/rest/settings'] : ['/healthz/readiness'];
		await waitFor(
			`n8n to be ready on ${this.baseUrl}`,
			async () => {
				if (exited) throw new Error(`n8n stopped while starting (${exited})`);
				for (const path of readinessPaths) {
					const answer = await fetch(`${this.baseUrl}${path}`).catch(() => undefined);
					if (!answer?.ok) return undefined;
				}
				return true;
			},
			{
				timeoutMs,
				intervalMs: 300,
				describe: () => `${exited ? `n8n exited (${exited}). ` : ''}Log tail:\n${this.logTail()}`,
			},
		).catch((error: Error) => {
			this.kill('SIGKILL');
			throw error;
		});
	}

	/** Resolves when `n8n start` has exited, with the signal or exit code. */
	async whenExited(): Promise<string> {
		if (!this.exitReason) throw new Error('n8n was not started');
		return await this.exitReason;
	}

	/**
	 * Stops n8n and its task runner (SIGTERM to the process group, SIGKILL after `graceMs`), and
	 * waits for the exit.
	 */
	async stop(graceMs = 15_000): Promise<void> {
		const server = this.server;
		if (!server || server.exitCode !== null || server.signalCode !== null) return;
		const exit = once(server, 'exit');
		this.kill('SIGTERM');
		// A plain timer, cleared on exit: a pending one would keep the test process alive for graceMs.
		const forceKill = setTimeout(() => this.kill('SIGKILL'), graceMs);
		await exit;
		clearTimeout(forceKill);
		// The task runner is in the same group and may outlive n8n by a moment.
		await waitFor(
			'the n8n process group to end',
			() => (processGroupAlive(server.pid!) ? undefined : true),
			{ timeoutMs: graceMs },
		).catch(() => this.kill('SIGKILL'));
	}

	/** Signals n8n's process group by its id (the group n8n was started in), never by name. */
	kill(signal: NodeJS.Signals): void {
		const pid = this.server?.pid;
		if (pid === undefined) return;
		try {
			process.kill(-pid, signal);
		} catch {
			// Already gone.
		}
	}

	logTail(lines = 60): string {
		return existsSync(this.logFile)
			? tail(readFileSync(this.logFile, 'utf8'), lines)
			: '(no n8n log yet)';
	}

	/** Connections n8n made to hosts other than this machine (empty when none). */
	outboundConnections(): Array<{ host: string; port: number; stack: string[] }> {
		if (!existsSync(this.outboundLogFile)) return [];
		return readFileSync(this.outboundLogFile, 'utf8')
			.split('\n')
			.filter(Boolean)
			.map((line) => JSON.parse(line) as { host: string; port: number; stack: string[] });
	}
}

/**
 * A run that `n8n execute` reported as failed: its message is n8n's error message and description.
 */
export class CliExecutionError extends Error {
	constructor(
		command: string,
		readonly execution: CliExecution,
	) {
		const error = execution.data.resultData.error;
		super(
			`${command} failed: ${error?.message ?? 'no error message'}${error?.description ? `\n${error.description}` : ''}`,
		);
	}
}

/**
 * The execution `n8n execute` prints between its log lines: pretty-printed JSON from a line that is
 * "{" to the next line that is "}" (log lines may come before and after it).
 */
function printedExecution(stdout: string): CliExecution | undefined {
	const match = /^\{\n[\s\S]*?\n\}$/m.exec(stdout);
	return match ? (JSON.parse(match[0]) as CliExecution) : undefined;
}

function processGroupAlive(groupId: number): boolean {
	try {
		process.kill(-groupId, 0);
		return true;
	} catch {
		return false;
	}
}
