/**
 * `npm run dev`: the whole demo on this machine, no Wootric account needed. Starts the seeded fake Wootric
 * API (the sandbox), a tiny ticket endpoint, and a real n8n with this package installed, a ready
 * "Wootric sandbox" credential and the example workflows; prints the editor URL and login; stops
 * everything on Ctrl+C. Ports: SANDBOX_PORT (4010), TICKET_PORT (4020), N8N_DEV_PORT (5678).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { FakeWootric, seedDemoData } from '../../test/fake';
import { startN8nWithPackage, type N8nWithPackage } from './n8n-with-package';
import { EXAMPLES_FOLDER } from './paths';
import { TicketServer } from './ticket-server';
import { readWorkflows } from './workflow-files';

const OWNER = { email: 'demo@example.com', password: 'Wootric-demo-1' };

const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const say = (line: string) => console.log(`[dev] ${line}`);

async function main(): Promise<void> {
	const workFolder = mkdtempSync(join(tmpdir(), 'n8n-wootric-dev-'));
	const sandbox = await new FakeWootric().listen(port('SANDBOX_PORT', 4010));
	seedDemoData(sandbox.store, sandbox.account);
	const tickets = await new TicketServer((ticket) => say(`ticket #${ticket.id} opened: ${JSON.stringify(ticket.fields)}`)).listen(port('TICKET_PORT', 4020));
	let demo: N8nWithPackage | undefined;

	let stopping = false;
	const stop = async (exitCode: number) => {
		if (stopping) return;
		stopping = true;
		say('Stopping n8n, the sandbox and the ticket endpoint…');
		await demo?.n8n.stop();
		await Promise.all([sandbox.close(), tickets.close()]);
		rmSync(workFolder, { recursive: true, force: true });
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
			workflows: readWorkflows(EXAMPLES_FOLDER),
			log: say,
		});
	} catch (error) {
		console.error(`[dev] Could not start the demo: ${error instanceof Error ? error.message : String(error)}`);
		await stop(1);
		return;
	}

	const n8n = demo.n8n;
	process.on('exit', () => n8n.kill('SIGKILL'));
	void n8n.whenExited().then((reason) => {
		if (stopping) return;
		console.error(`[dev] n8n stopped unexpectedly (${reason}). Its log ends with:\n${n8n.logTail()}`);
		void stop(1);
	});

	const { email, password, clientId, clientSecret } = sandbox.credentials;
	console.log(`
n8n is ready: ${demo.n8n.baseUrl}
  Log in as ${OWNER.email} / ${OWNER.password}

The example workflows are imported (Overview → Workflows), using the credential "Wootric sandbox".
  Fake Wootric API (sandbox) ${sandbox.baseUrl}, with demo data
    password grant: ${email} / ${password}; client credentials: ${clientId} / ${clientSecret}
  Ticket endpoint ${tickets.url} (tickets are printed here as they arrive)
  n8n's log: ${demo.n8n.logFile}

Press Ctrl+C to stop everything.`);
}

void main();
