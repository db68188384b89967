import type { FakeCredentials } from '../../test/fake';
import type { EndUser } from '../../test/fake/store';

export interface DevBannerFacts {
	n8nUrl: string;
	owner: { email: string; password: string };
	sandbox: FakeCredentials & { baseUrl: string };
	/** The sandbox's end users, for the operations that ask for an End User ID or email. */
	endUsers: Array<Pick<EndUser, 'id' | 'email' | 'externalId'>>;
	ticketsUrl: string;
	n8nLogFile: string;
	/**
	 * Where n8n's data stays between runs (N8N_DEV_FOLDER), or undefined when it is thrown away on
	 * Ctrl+C.
	 */
	keptFolder?: string;
}

/**
 * What `npm run dev` prints once everything runs: where to log in, what the sandbox holds, what to
 * try first.
 */
export function devBanner(facts: DevBannerFacts): string {
	const { sandbox } = facts;
	const endUsers = facts.endUsers.map((user) =>
		`    ${String(user.id).padEnd(8)} ${user.email.padEnd(24)} ${user.externalId ?? ''}`.trimEnd(),
	);
	const keeping = facts.keptFolder
		? `n8n's workflows, executions and settings are kept in ${facts.keptFolder} for the next run.`
		: "n8n's workflows and executions are thrown away on Ctrl+C; to keep them, run it as N8N_DEV_FOLDER=<folder> npm run dev.";
	return `
n8n is ready: ${facts.n8nUrl}
  Log in as ${facts.owner.email} / ${facts.owner.password}

The example workflows are imported (Overview → Workflows), using the credential "Wootric sandbox".
Try the headline flow: open "New detractor → ticket (instant)" and publish it; run "Record a detractor";
the ticket is printed here at once: the sandbox sends its webhooks to that workflow's Production URL.
Or publish "New detractor → ticket", which polls instead: the ticket comes within a minute. Publish one of
the two, not both, or each detractor opens two tickets.

  Fake Wootric API (sandbox) ${sandbox.baseUrl}, with demo data
    password grant: ${sandbox.email} / ${sandbox.password}; client credentials: ${sandbox.clientId} / ${sandbox.clientSecret}
    end users (End User ID, email, external ID):
${endUsers.join('\n')}
  Ticket endpoint ${facts.ticketsUrl} (tickets are printed here as they arrive)
  n8n's log: ${facts.n8nLogFile}

${keeping}
Press Ctrl+C to stop everything.`;
}
