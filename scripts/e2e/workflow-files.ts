import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPORTS_PATH } from './ticket-server';

/** The credential the example workflows reference by id and name; the import creates it. */
export const SANDBOX_CREDENTIAL = {
	id: 'wootricSandbox01',
	name: 'Wootric sandbox',
	type: 'wootricApi',
} as const;

/** Where the examples post tickets: the demo's ticket server on its default port. */
export const EXAMPLE_TICKET_URL = 'http://127.0.0.1:4020/tickets';

/**
 * Where the examples post reports: a placeholder the user replaces with their own endpoint (the
 * README says so), so `https://reports.example.com/<name>` stays in the files.
 */
export const EXAMPLE_REPORTS_ORIGIN = 'https://reports.example.com';

/** A workflow as n8n exports it (only what the harness reads or changes). */
export interface WorkflowFile {
	id: string;
	name: string;
	nodes: Array<{
		id: string;
		name: string;
		type: string;
		position: [number, number];
		parameters: Record<string, unknown>;
		credentials?: Record<string, { id: string; name: string }>;
		/** A webhook node's part of its URL path, which n8n gives it when it is added. */
		webhookId?: string;
	}>;
	[key: string]: unknown;
}

export interface SandboxLogin {
	email: string;
	password: string;
	/** The account's secret token for outgoing webhooks (the Webhook Trigger checks with it). */
	webhookSecret: string;
}

/** The credential's data: the password grant against the sandbox (Region "Custom Base URL"). */
export function sandboxCredentialData(
	baseUrl: string,
	login: SandboxLogin,
): Record<string, unknown> {
	return {
		grantType: 'password',
		email: login.email,
		password: login.password,
		region: 'custom',
		baseUrl,
		webhookSecret: login.webhookSecret,
	};
}

/** A credential as `n8n import:credentials` reads it: plain `data`, which the import encrypts. */
export interface CredentialForImport {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/** Writes the file `n8n import:credentials` reads: the sandbox credential, then `others`. */
export function writeCredentialsForImport(
	file: string,
	baseUrl: string,
	login: SandboxLogin,
	others: CredentialForImport[] = [],
): void {
	const sandbox = { ...SANDBOX_CREDENTIAL, data: sandboxCredentialData(baseUrl, login) };
	writeFileSync(file, `${JSON.stringify([sandbox, ...others], null, 2)}\n`);
}

export function readWorkflows(folder: string): WorkflowFile[] {
	return readdirSync(folder)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(readFileSync(join(folder, file), 'utf8')) as WorkflowFile);
}

/**
 * Copies workflows into `target` for `n8n import:workflow --separate`, pointing them at this run's
 * ticket endpoint, and their reports at the same stand-in (`<name>` → its `/reports/<name>`);
 * `adapt` may change a workflow further (the tests shorten a poll interval).
 */
export function writeWorkflowsForImport(
	workflows: WorkflowFile[],
	target: string,
	options: { ticketUrl: string; adapt?: (workflow: WorkflowFile) => WorkflowFile },
): void {
	mkdirSync(target, { recursive: true });
	const reportsUrl = new URL(REPORTS_PATH, options.ticketUrl).href;
	for (const workflow of workflows) {
		const pointed = JSON.parse(
			JSON.stringify(workflow)
				.split(EXAMPLE_TICKET_URL)
				.join(options.ticketUrl)
				.split(EXAMPLE_REPORTS_ORIGIN)
				.join(reportsUrl),
		) as WorkflowFile;
		const adapted = options.adapt ? options.adapt(pointed) : pointed;
		writeFileSync(join(target, `${workflow.id}.json`), `${JSON.stringify(adapted, null, 2)}\n`);
	}
}

export const WEBHOOK_TRIGGER_TYPE = 'n8n-nodes-wootric.wootricWebhookTrigger';

/**
 * The examples `npm run dev` sends the sandbox's webhooks to (the instant one) and watches beside it
 * (the safety net), by id: the ticket examples for Zendesk, Jira and Slack have a Webhook Trigger
 * too, and need the tools' own accounts.
 */
export const DEMO_EXAMPLES = { instant: 'exDetractorNow', safetyNet: 'exDetractorNet' } as const;

/**
 * Where Wootric must send its webhooks for a workflow's Wootric Webhook Trigger: the node's
 * Production URL (`<n8n>/webhook/<webhookId>/webhook`), or its Test URL while listening for a test
 * event.
 */
export function webhookTriggerUrl(
	n8nBaseUrl: string,
	workflow: WorkflowFile,
	kind: 'production' | 'test' = 'production',
): string {
	const trigger = workflow.nodes.find((node) => node.type === WEBHOOK_TRIGGER_TYPE);
	if (!trigger?.webhookId)
		throw new Error(`Workflow "${workflow.name}" has no Wootric Webhook Trigger with a webhookId`);
	return `${n8nBaseUrl}/${kind === 'production' ? 'webhook' : 'webhook-test'}/${trigger.webhookId}/webhook`;
}
