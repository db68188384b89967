import { spawn, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

export interface CommandResult {
	stdout: string;
	stderr: string;
}

/** The last `lines` lines of a text, for error messages. */
export function tail(text: string, lines = 40): string {
	return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Runs a command to completion and returns its output; a non-zero exit throws an error that shows
 * the command and the tail of what it printed. Async (not execFileSync), so jest's timeouts keep
 * working. With `timeoutMs` the command runs in its own process group, which is killed (by its id)
 * when time is up, children included: nothing outlives a hung command.
 */
export async function runCommand(
	command: string,
	args: string[],
	options: SpawnOptions & { onStderrLine?: (line: string) => void; timeoutMs?: number } = {},
): Promise<CommandResult> {
	const { onStderrLine, timeoutMs, ...spawnOptions } = options;
	const child = spawn(command, args, {
		...spawnOptions,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: timeoutMs !== undefined,
	});
	let timedOut = false;
	const timer =
		timeoutMs === undefined
			? undefined
			: setTimeout(() => {
					timedOut = true;
					try {
						process.kill(-child.pid!, 'SIGKILL');
					} catch {
						// Already gone.
					}
				}, timeoutMs);
	let stdout = '';
	let stderr = '';
	let partialLine = '';
	child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
	child.stderr!.on('data', (chunk: Buffer) => {
		const text = chunk.toString('utf8');
		stderr += text;
		if (!onStderrLine) return;
		const lines = (partialLine + text).split('\n');
		partialLine = lines.pop() ?? '';
		for (const line of lines) onStderrLine(line);
	});
	const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
	clearTimeout(timer);
	if (code !== 0) {
		const why = timedOut
			? `killed after ${Math.round(timeoutMs! / 1000)} s`
			: (signal ?? `exit code ${code}`);
		const error = new Error(
			`\`${[command, ...args].join(' ')}\` failed (${why}):\n${tail(`${stdout}\n${stderr}`)}`,
		) as Error & CommandResult;
		error.stdout = stdout;
		error.stderr = stderr;
		throw error;
	}
	return { stdout, stderr };
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export async function freePort(): Promise<number> {
	const server = createServer();
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	server.close();
	await once(server, 'close');
	return port;
}

export const delay = (milliseconds: number) =>
	new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/**
 * Calls `probe` until it returns a value other than undefined, or throws when `timeoutMs` has
 * passed (the message says what was awaited and, from `describe`, what was seen last).
 */
export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined> | T | undefined,
	options: {
		timeoutMs: number;
		intervalMs?: number;
		describe?: () => string;
		/** Gives up, with its reason, once this aborts. */
		stopped?: AbortSignal;
	},
): Promise<T> {
	const deadline = Date.now() + options.timeoutMs;
	let lastError: unknown;
	for (;;) {
		options.stopped?.throwIfAborted();
		try {
			const value = await probe();
			if (value !== undefined) return value;
		} catch (error) {
			lastError = error;
		}
		if (Date.now() > deadline) {
			const seen = options.describe
				? `\n${options.describe()}`
				: lastError
					? `\nLast error: ${String(lastError)}`
					: '';
			throw new Error(
				`Timed out after ${Math.round(options.timeoutMs / 1000)} s waiting for ${what}.${seen}`,
			);
		}
		await delay(options.intervalMs ?? 250);
	}
}
