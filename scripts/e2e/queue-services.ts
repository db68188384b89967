import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
	chownSync,
	closeSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

import { REPO_ROOT } from './paths';
import { freePort, runCommand, tail, waitFor } from './processes';

/**
 * How n8n reaches the database and the queue: the environment of every n8n process in queue mode.
 */
export interface QueueServices {
	env: Record<string, string>;
	/** Stops both servers (also when a test failed); safe to call twice. */
	stop: () => Promise<void>;
}

/** A server process of ours, in its own process group, its output in a log file. */
class OwnedServer {
	private readonly exited: Promise<unknown>;

	constructor(
		readonly name: string,
		private readonly child: ChildProcess,
		readonly logFile: string,
	) {
		this.exited = once(child, 'exit');
	}

	get running(): boolean {
		return this.child.exitCode === null && this.child.signalCode === null;
	}

	/**
	 * A signal to the whole group (runuser and the server it started, and the server's own children).
	 */
	signal(signal: NodeJS.Signals): void {
		try {
			process.kill(-this.child.pid!, signal);
		} catch {
			// Already gone.
		}
	}

	async stop(signal: NodeJS.Signals): Promise<void> {
		if (!this.running) return;
		this.signal(signal);
		const forceKill = setTimeout(() => this.signal('SIGKILL'), 15_000);
		await this.exited;
		clearTimeout(forceKill);
	}

	logTail(): string {
		return tail(readFileSync(this.logFile, 'utf8'));
	}
}

function startServer(name: string, command: string, args: string[], logFile: string): OwnedServer {
	const log = openSync(logFile, 'a');
	const child = spawn(command, args, { stdio: ['ignore', log, log], detached: true });
	closeSync(log);
	return new OwnedServer(name, child, logFile);
}

/**
 * PostgreSQL refuses to run as root: then its programs run as the `postgres` user the package made.
 */
function asServerUser(program: string, args: string[]): [string, string[]] {
	return userInfo().uid === 0
		? ['runuser', ['-u', 'postgres', '--', program, ...args]]
		: [program, args];
}

/**
 * A PostgreSQL and a Redis server for n8n's queue mode, from Debian's packages (installed when
 * missing), as processes of this run: in `folder`, listening on 127.0.0.1 at free ports, stopped by
 * `stop()`.
 */
export async function startQueueServices(
	folder: string,
	log: (line: string) => void = () => {},
): Promise<QueueServices> {
	const { stdout } = await runCommand(
		'bash',
		[join(REPO_ROOT, 'scripts', 'e2e', 'queue-services.sh')],
		{ timeoutMs: 600_000 },
	);
	const pgBin = stdout.trim();
	const servers: OwnedServer[] = [];
	const cleanUp: Array<() => void> = [];
	const stop = async () => {
		// PostgreSQL's fast shutdown is SIGINT; Redis saves nothing (--save '') and stops on SIGTERM.
		await Promise.all(
			servers.map((server) => server.stop(server.name === 'postgres' ? 'SIGINT' : 'SIGTERM')),
		);
		for (const step of cleanUp.splice(0)) step();
	};
	try {
		mkdirSync(folder, { recursive: true });
		// A folder of its own in the temporary folder: the `postgres` user cannot enter the run's (mode
		// 700).
		const dataFolder = mkdtempSync(join(tmpdir(), 'n8n-wootric-postgres-'));
		cleanUp.push(() => rmSync(dataFolder, { recursive: true, force: true }));
		if (userInfo().uid === 0) {
			const { stdout: ids } = await runCommand('id', ['-u', 'postgres']);
			const { stdout: group } = await runCommand('id', ['-g', 'postgres']);
			chownSync(dataFolder, Number(ids.trim()), Number(group.trim()));
		}
		log(`PostgreSQL: initdb in ${dataFolder}`);
		await runCommand(
			...asServerUser(join(pgBin, 'initdb'), [
				'-D',
				dataFolder,
				'-U',
				'n8n',
				'-A',
				'trust',
				'--no-sync',
			]),
			{ timeoutMs: 120_000 },
		);
		const pgPort = await freePort();
		const postgres = startServer(
			'postgres',
			...asServerUser(join(pgBin, 'postgres'), [
				'-D',
				dataFolder,
				'-p',
				String(pgPort),
				'-c',
				'listen_addresses=127.0.0.1',
				'-c',
				`unix_socket_directories=${dataFolder}`,
				'-c',
				'fsync=off',
				'-c',
				'max_connections=200',
			]),
			join(folder, 'postgres.log'),
		);
		servers.push(postgres);
		await waitFor(
			`PostgreSQL on 127.0.0.1:${pgPort}`,
			async () => {
				if (!postgres.running) throw new Error('PostgreSQL exited');
				await runCommand(join(pgBin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(pgPort)]);
				return true;
			},
			{ timeoutMs: 60_000, describe: () => postgres.logTail() },
		);
		await runCommand(join(pgBin, 'createdb'), [
			'-h',
			'127.0.0.1',
			'-p',
			String(pgPort),
			'-U',
			'n8n',
			'n8n',
		]);

		const redisPort = await freePort();
		const redis = startServer(
			'redis',
			'redis-server',
			[
				'--port',
				String(redisPort),
				'--bind',
				'127.0.0.1',
				'--save',
				'',
				'--appendonly',
				'no',
				'--dir',
				folder,
			],
			join(folder, 'redis.log'),
		);
		servers.push(redis);
		await waitFor(
			`Redis on 127.0.0.1:${redisPort}`,
			async () => {
				if (!redis.running) throw new Error('Redis exited');
				const { stdout: pong } = await runCommand('redis-cli', [
					'-h',
					'127.0.0.1',
					'-p',
					String(redisPort),
					'ping',
				]);
				return pong.trim() === 'PONG' ? true : undefined;
			},
			{ timeoutMs: 30_000, describe: () => redis.logTail() },
		);
		log(`PostgreSQL on 127.0.0.1:${pgPort}, Redis on 127.0.0.1:${redisPort}`);
		return {
			env: {
				EXECUTIONS_MODE: 'queue',
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_HOST: '127.0.0.1',
				DB_POSTGRESDB_PORT: String(pgPort),
				DB_POSTGRESDB_DATABASE: 'n8n',
				DB_POSTGRESDB_USER: 'n8n',
				DB_POSTGRESDB_PASSWORD: 'n8n',
				QUEUE_BULL_REDIS_HOST: '127.0.0.1',
				QUEUE_BULL_REDIS_PORT: String(redisPort),
			},
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

/**
 * One query with psql against n8n's database in queue mode (`env`: QueueServices' env): its output,
 * unaligned and without headers; `options` add psql's (e.g. a field separator).
 */
export async function psqlQuery(
	env: Record<string, string>,
	query: string,
	options: string[] = [],
): Promise<string> {
	const { stdout } = await runCommand('psql', [
		'-h',
		env.DB_POSTGRESDB_HOST,
		'-p',
		env.DB_POSTGRESDB_PORT,
		'-U',
		env.DB_POSTGRESDB_USER,
		'-d',
		env.DB_POSTGRESDB_DATABASE,
		'-At',
		...options,
		'-c',
		query,
	]);
	return stdout;
}
