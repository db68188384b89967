/**
 * `npm run dev`: the whole demo on this machine, no Wootric account needed. Starts the seeded fake
 * Wootric API (the sandbox), a tiny ticket endpoint, and a real n8n with this package installed, a
 * ready "Wootric sandbox" credential and the example workflows; the sandbox sends its outgoing
 * webhooks to the instant example's Production URL; prints the editor URL and login;
 * stops everything on Ctrl+C. Ports: SANDBOX_PORT (4010), TICKET_PORT (4020), N8N_DEV_PORT (5678).
 * n8n's data is thrown away on Ctrl+C, unless N8N_DEV_FOLDER names a folder to keep it in: a later
 * run with the same folder keeps its workflows (the examples are imported only into a new one).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { FakeWootric, seedDemoData } from '../../test/fake';
import { DemoWatch, publishStep } from './demo-watch';
import { devBanner, ticketChangeLine } from './dev-banner';
import { N8N_DATABASE_FILE, startN8nWithPackage, type N8nWithPackage } from './n8n-with-package';
import { EXAMPLES_FOLDER } from './paths';
import { isN8n1 } from './runtime';
import { TicketServer } from './ticket-server';
import {
	DEMO_EXAMPLES,
	readWorkflows,
	SANDBOX_CREDENTIAL,
	webhookTriggerUrl,
} from './workflow-files';

const OWNER = { email: 'demo@example.com', password: 'Wootric-demo-1' };

const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const say = (line: string) => console.log(`[dev] ${line}`);

async function main(): Promise<void> {
	const keptFolder = process.env.N8N_DEV_FOLDER ? resolve(process.env.N8N_DEV_FOLDER) : undefined;
	if (keptFolder) mkdirSync(keptFolder, { recursive: true });
	const workFolder = keptFolder ?? mkdtempSync(join(tmpdir(), 'n8n-wootric-dev-'));
	const firstRun = !existsSync(join(workFolder, N8N_DATABASE_FILE));
	const sandbox = await new FakeWootric().listen(port('SANDBOX_PORT', 4010));
	seedDemoData(sandbox.store, sandbox.account);
	const tickets = await new TicketServer((change) => say(ticketChangeLine(change))).listen(
		port('TICKET_PORT', 4020),
	);
	let demo: N8nWithPackage | undefined;
	let stopWatching = () => {};

	let stopping = false;
	const stop = async (exitCode: number) => {
		if (stopping) return;
		stopping = true;
		say('Stopping n8n, the sandbox and the ticket endpoint…');
		stopWatching();
		await demo?.n8n.stop();
		await Promise.all([sandbox.close(), tickets.close()]);
		if (!keptFolder) rmSync(workFolder, { recursive: true, force: true });
		process.exit(exitCode);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));

	try {
		demo = await startN8nWithPackage({
			workFolder,
			port: port('N8N_DEV_PORT', 5678),
			owner: OWNER,
			wootric: { baseUrl: sandbox.baseUrl, login: sandbox.credentials },
			ticketUrl: tickets.url,
			workflows: firstRun ? readWorkflows(EXAMPLES_FOLDER) : [],
			log: say,
		});
	} catch (error) {
		console.error(
			`[dev] Could not start the demo: ${error instanceof Error ? error.message : String(error)}`,
		);
		await stop(1);
		return;
	}

	const n8n = demo.n8n;
	// As the account owner would on Wootric's Outgoing Webhooks page: the instant example's Production
	// URL, which answers once that workflow is published.
	const examples = readWorkflows(EXAMPLES_FOLDER);
	const instant = examples.find((workflow) => workflow.id === DEMO_EXAMPLES.instant);
	if (instant) sandbox.outgoingWebhooks.register({ url: webhookTriggerUrl(n8n.baseUrl, instant) });
	// What the terminal would otherwise not show: a webhook n8n did not take, a refused sign-in, a
	// failed execution.
	const watch = new DemoWatch(say, {
		n8nUrl: n8n.baseUrl,
		n8nLogFile: n8n.logFile,
		publish: publishStep(isN8n1(demo.runtime)),
		instantWorkflow: instant?.name ?? '',
		safetyNetWorkflow: examples.find(({ id }) => id === DEMO_EXAMPLES.safetyNet)?.name ?? '',
		credential: SANDBOX_CREDENTIAL.name,
		webhookSecret: sandbox.credentials.webhookSecret,
	});
	watch.watchSandbox(sandbox);
	stopWatching = watch.watchExecutions(demo.rest);
	process.on('exit', () => n8n.kill('SIGKILL'));
	void n8n.whenExited().then((reason) => {
		if (stopping) return;
		console.error(
			`[dev] n8n stopped unexpectedly (${reason}). Its log ends with:\n${n8n.logTail()}`,
		);
		void stop(1);
	});

	console.log(
		devBanner({
			n8nUrl: n8n.baseUrl,
			owner: OWNER,
			sandbox: { ...sandbox.credentials, baseUrl: sandbox.baseUrl },
			endUsers: [...sandbox.account.endUsers.values()],
			ticketsUrl: tickets.url,
			n8nLogFile: n8n.logFile,
			keptFolder,
		}),
	);
}

void main();
