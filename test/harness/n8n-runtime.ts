import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let runtimeReady: Promise<void> | undefined;

/**
 * Sets up, once per module registry (jest: per test file), the process-wide services n8n-core takes
 * from its DI container, the way n8n's CLI does at startup:
 * - n8n's user folder (its `config` file with the instance's encryption key, and stored binary data)
 *   lives in a throwaway folder per process instead of `~/.n8n`;
 * - binary data is stored like a default n8n 2.x install does ('filesystem' mode: a file per binary
 *   property, the item keeping only its id), so `getBinaryDataBuffer` runs its real code path.
 * Must run before anything asks the container for a Logger or InstanceSettings: they read
 * N8N_USER_FOLDER when first built.
 */
export async function prepareN8nRuntime(): Promise<void> {
	runtimeReady ??= (async () => {
		process.env.N8N_USER_FOLDER = throwawayUserFolder();
		await Container.get(BinaryDataService).init();
	})();
	await runtimeReady;
}

function throwawayUserFolder(): string {
	const folder = join(tmpdir(), `n8n-nodes-wootric-harness-${process.pid}`);
	if (!existsSync(folder)) {
		mkdirSync(folder);
		process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
	}
	return folder;
}
