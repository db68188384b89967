import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { N8nInstance } from './n8n-instance';
import {
	startN8nWithPackage,
	type N8nWithPackage,
	type N8nWithPackageOptions,
} from './n8n-with-package';
import { installAsCommunityPackage } from './package-tarball';
import { freePort } from './processes';
import { startQueueServices, type QueueServices } from './queue-services';

export interface QueueCluster extends N8nWithPackage {
	services: QueueServices;
	workers: N8nInstance[];
	/** Stops the workers, the main, then PostgreSQL and Redis; safe to call after a failed start. */
	stop: () => Promise<void>;
}

/**
 * n8n's queue mode as a team runs it at scale, on this machine: PostgreSQL and Redis
 * (queue-services), one main (`n8n start`: editor, REST, webhooks, triggers and pollers) and
 * `workers` workers (`n8n worker`: the executions), each process with its own user folder and this
 * package installed there as a community package, all with the same encryption key.
 */
export async function startQueueCluster(
	options: N8nWithPackageOptions & { workers: number },
): Promise<QueueCluster> {
	const log = options.log ?? (() => {});
	const services = await startQueueServices(join(options.workFolder, 'services'), log);
	const workers: N8nInstance[] = [];
	let main: N8nWithPackage | undefined;
	const stop = async () => {
		await Promise.all(workers.map(async (worker) => await worker.stop()));
		await main?.n8n.stop();
		await services.stop();
	};
	try {
		main = await startN8nWithPackage({ ...options, env: { ...services.env, ...options.env } });
		for (let index = 1; index <= options.workers; index++) {
			const userFolder = join(options.workFolder, `worker-${index}`);
			mkdirSync(userFolder, { recursive: true });
			await installAsCommunityPackage(main.runtime, userFolder, main.tarball);
			const worker = new N8nInstance({
				runtime: main.runtime,
				userFolder,
				port: await freePort(),
				owner: main.n8n.owner,
				env: { ...services.env, ...options.env },
				role: 'worker',
			});
			workers.push(worker);
			log(`Starting worker ${index} (health check on ${worker.baseUrl})…`);
			await worker.start();
		}
		return { ...main, services, workers, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
