import { join } from 'node:path';

import type { N8nInstance } from '../../scripts/e2e/n8n-instance';
import {
	N8N_DATABASE_FILE,
	startN8nWithPackage,
	type N8nWithPackage,
} from '../../scripts/e2e/n8n-with-package';
import { runCommand } from '../../scripts/e2e/processes';
import { startQueueCluster, type QueueCluster } from '../../scripts/e2e/queue-cluster';
import { psqlQuery } from '../../scripts/e2e/queue-services';
import type { N8nRestClient } from '../../scripts/e2e/rest-client';
import type { N8nRuntime } from '../../scripts/e2e/runtime';
import type { CredentialForImport, WorkflowFile } from '../../scripts/e2e/workflow-files';
import type { E2eServices } from '../e2e/suite';

/**
 * n8n's durable poller (2.36 and later): its scheduler runs the polls on the main, and the node's
 * static data becomes its cursor in the `poller_state` table, committed with the execution it
 * starts. All four must be on: without the first three the cursor stays in the workflow's static
 * data; without the fourth a poll that returns nothing loses what it stored.
 */
export const DURABLE_POLLER: Record<string, string> = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

/** n8n's own poller, as before the settings: crons in the main's memory, static data in the workflow. */
export const OWN_POLLER: Record<string, string> = {
	N8N_SCHEDULER_ENABLED: 'false',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'false',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'false',
};

const OWNER = { email: 'durable-owner@example.com', password: 'Durable-owner-password-1' };

/** One n8n process on SQLite, or queue mode (PostgreSQL, Redis, the main and a worker). */
export interface Deployment {
	rest: N8nRestClient;
	/**
	 * Restarts the polling process with this environment (the poller's settings), doing `whileDown`
	 * while it is stopped, and logs in again.
	 */
	restartMain: (env: Record<string, string>, whileDown?: () => void) => Promise<void>;
	/** Rows of a query on n8n's database, as objects by column name. */
	query: (sql: string) => Promise<Array<Record<string, unknown>>>;
	stop: () => Promise<void>;
	logTails: () => string;
	/** In queue mode, its processes and services. */
	cluster?: QueueCluster;
}

export type DeploymentName = 'one process' | 'queue mode';

export async function startDeployment(
	name: DeploymentName,
	services: E2eServices,
	workflows: WorkflowFile[],
	env: Record<string, string>,
	credentials: CredentialForImport[] = [],
): Promise<Deployment> {
	const options = { ...services.n8nOptions, owner: OWNER, workflows, env, credentials };
	if (name === 'one process') {
		const started = await startN8nWithPackage(options);
		const database = join(services.n8nOptions.workFolder, N8N_DATABASE_FILE);
		return withMain(started, {
			query: async (sql) => await sqliteRows(started.runtime, database, sql),
			stop: async () => await started.n8n.stop(),
			processes: () => [['n8n', started.n8n]],
		});
	}
	const cluster: QueueCluster = await startQueueCluster({
		...options,
		workers: 1,
		webhookProcesses: 0,
	});
	return withMain(cluster, {
		cluster,
		query: async (sql) => await postgresRows(cluster.services.env, sql),
		stop: async () => await cluster.stop(),
		processes: () => [
			['main', cluster.n8n],
			...cluster.workers.map((worker, index) => [`worker ${index + 1}`, worker] as const),
		],
	});
}

function withMain(
	started: N8nWithPackage,
	parts: {
		cluster?: QueueCluster;
		query: Deployment['query'];
		stop: Deployment['stop'];
		processes: () => ReadonlyArray<readonly [string, N8nInstance]>;
	},
): Deployment {
	return {
		rest: started.rest,
		restartMain: async (env, whileDown) => {
			await started.n8n.stop();
			whileDown?.();
			await started.n8n.start(undefined, env);
			await started.rest.login(OWNER.email, OWNER.password);
		},
		query: parts.query,
		stop: parts.stop,
		cluster: parts.cluster,
		logTails: () =>
			parts
				.processes()
				.map(([label, n8n]) => `--- ${label} (${n8n.logFile}) ---\n${n8n.logTail(25)}`)
				.join('\n'),
	};
}

/** SQLite through Node 24's node:sqlite (the runtime that runs n8n), read-only beside n8n. */
async function sqliteRows(
	runtime: N8nRuntime,
	database: string,
	sql: string,
): Promise<Array<Record<string, unknown>>> {
	const script = `const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1], { readOnly: true });
process.stdout.write(JSON.stringify(db.prepare(process.argv[2]).all()));`;
	const { stdout } = await runCommand(runtime.node, ['--no-warnings', '-e', script, database, sql]);
	return JSON.parse(stdout) as Array<Record<string, unknown>>;
}

async function postgresRows(
	env: Record<string, string>,
	sql: string,
): Promise<Array<Record<string, unknown>>> {
	return JSON.parse(
		await psqlQuery(env, `SELECT coalesce(json_agg(row), '[]') FROM (${sql}) row`),
	) as Array<Record<string, unknown>>;
}

/** A time n8n's database holds: ISO 8601 from PostgreSQL, `YYYY-MM-DD HH:MM:SS.SSS` UTC from SQLite. */
export function databaseTimeMs(value: unknown): number | undefined {
	if (typeof value !== 'string') return undefined;
	return Date.parse(
		/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/.test(value) ? `${value.replace(' ', 'T')}Z` : value,
	);
}

/** A JSON column: an object from PostgreSQL's json_agg, text from SQLite. */
export function jsonColumn(value: unknown): unknown {
	return typeof value === 'string' ? JSON.parse(value) : value;
}
