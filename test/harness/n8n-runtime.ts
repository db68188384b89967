import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const USER_FOLDER_PREFIX = 'n8n-nodes-wootric-harness-';

let runtimeReady: Promise<void> | undefined;

/**
 * Sets up, once per module registry (jest: per test file), the process-wide services n8n-core takes
 * from its DI container, the way n8n's CLI does at startup:
 * - n8n's user folder (its `config` file with the instance's encryption key, and stored binary
 *   data) is a throwaway folder per process instead of `~/.n8n`;
 * - binary data is stored like a default n8n 2.x install does ('filesystem' mode: a file per binary
 *   property, the item keeping only its id), so `getBinaryDataBuffer` runs its real code path;
 * - logging is off unless N8N_LOG_LEVEL says otherwise (e.g. `N8N_LOG_LEVEL=debug npx jest`): n8n
 *   logs every node error it records, and tests assert errors from the run results instead. Must
 *   run before anything asks the container for a Logger or InstanceSettings: they read these
 *   variables when first built.
 */
export async function prepareN8nRuntime(): Promise<void> {
	runtimeReady ??= (async () => {
		prepareN8nEnvironment();
		await Container.get(BinaryDataService).init();
	})();
	await runtimeReady;
}

let environmentReady = false;

/**
 * The environment part of `prepareN8nRuntime`, for harness code that must take a service from the
 * container synchronously (e.g. `mapOrigins`, which takes n8n's OutboundHttp, built with a Logger).
 */
export function prepareN8nEnvironment(): void {
	if (environmentReady) return;
	environmentReady = true;
	process.env.N8N_USER_FOLDER = userFolderOfThisProcess();
	process.env.N8N_LOG_LEVEL ??= 'silent';
}

/**
 * Jest gives test files a `process` whose 'exit' listeners never run, so a process cannot remove
 * its own folder: each one removes the folders of processes that have ended instead.
 */
function userFolderOfThisProcess(): string {
	for (const entry of readdirSync(tmpdir())) {
		const pid = entry.startsWith(USER_FOLDER_PREFIX)
			? Number(entry.slice(USER_FOLDER_PREFIX.length))
			: NaN;
		if (Number.isInteger(pid) && !isRunning(pid))
			rmSync(join(tmpdir(), entry), { recursive: true, force: true });
	}
	const folder = join(tmpdir(), `${USER_FOLDER_PREFIX}${process.pid}`);
	mkdirSync(folder, { recursive: true });
	return folder;
}

function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: the process exists but belongs to another user.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}
