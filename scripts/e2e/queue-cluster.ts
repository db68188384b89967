import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { N8nInstance } from './n8n-instance';
import {
	startN8nWithPackage,
	type N8nWithPackage,
	type N8nWithPackageOptions,
} from './n8n-with-package';
import { installIntoN8n } from './package-tarball';
import { freePort } from './processes';
import { startQueueServices, type QueueServices } from './queue-services';

export interface QueueCluster extends N8nWithPackage {
	services: QueueServices;
	workers: N8nInstance[];
	/** The `n8n webhook` processes: each receives production webhooks, as the main does. */
	webhookProcesses: N8nInstance[];
	/**
	 * Stops the workers and webhook processes, the main, then PostgreSQL and Redis; safe to call
	 * after a failed start.
	 */
	stop: () => Promise<void>;
}

/**
 * n8n's queue mode as a team runs it at scale, on this machine: PostgreSQL and Redis
 * (queue-services), one main (`n8n start`: editor, REST, webhooks, triggers and pollers),
 * `workers` workers (`n8n worker`: the executions) and `webhookProcesses` more webhook receivers
 * (`n8n webhook`, which a load balancer would put beside the main), each process with its own user
 * folder and this package installed there as a community package, all with the same encryption key.
 */
export async function startQueueCluster(
	options: N8nWithPackageOptions & {
		workers: number;
		webhookProcesses: number;
		/** Started already (a test that needs Redis's address first); stopped with the cluster. */
		services?: QueueServices;
	},
): Promise<QueueCluster> {
	const log = options.log ?? (() => {});
	const services =
		options.services ?? (await startQueueServices(join(options.workFolder, 'services'), log));
	const workers: N8nInstance[] = [];
	const webhookProcesses: N8nInstance[] = [];
	let main: N8nWithPackage | undefined;
	const stop = async () => {
		// A start that failed part way may leave places empty.
		await Promise.all(
			[...workers, ...webhookProcesses]
				.filter((instance) => instance !== undefined)
				.map(async (instance) => await instance.stop()),
		);
		await main?.n8n.stop();
		await services.stop();
	};
	/** Installs the package for one more process and makes it, in `started` at its place. */
	const newProcess = async (
		role: 'worker' | 'webhook',
		index: number,
		started: N8nInstance[],
	): Promise<void> => {
		const userFolder = join(options.workFolder, `${role}-${index}`);
		mkdirSync(userFolder, { recursive: true });
		await installIntoN8n(join(userFolder, '.n8n'), [main!.tarball], main!.runtime.nodeBinFolder);
		const instance = new N8nInstance({
			runtime: main!.runtime,
			userFolder,
			port: await freePort(),
			owner: main!.n8n.owner,
			env: { ...services.env, ...options.env },
			role,
		});
		started[index - 1] = instance;
		log(`Starting ${role} ${index} (on ${instance.baseUrl})…`);
		await instance.start();
	};
	const indexes = (count: number) => Array.from({ length: count }, (_, index) => index + 1);
	try {
		main = await startN8nWithPackage({ ...options, env: { ...services.env, ...options.env } });
		// The workers and webhook processes start side by side: each waits only for the main's
		// database and Redis, which are up.
		await Promise.all([
			...indexes(options.workers).map(async (index) => await newProcess('worker', index, workers)),
			...indexes(options.webhookProcesses).map(
				async (index) => await newProcess('webhook', index, webhookProcesses),
			),
		]);
		return { ...main, services, workers, webhookProcesses, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
