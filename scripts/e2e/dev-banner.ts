import type { FakeCredentials } from '../../test/fake';
import type { EndUser } from '../../test/fake/store';
import type { TicketChange } from './ticket-server';

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
A comment the end user writes later goes to the same ticket, printed as an update. Write one:
  curl -X POST ${sandbox.baseUrl}/_fake/responses/<wootric_response_id>/answer -H 'content-type: application/json' -d '{"text": "Still slow"}'
Publish "New detractor → ticket (safety net)" beside it: it polls every minute for what the webhooks missed
while n8n was down, and what both send twice the ticket endpoint folds by its Idempotency-Key. Or publish
"New detractor → ticket" alone, which only polls: the ticket comes within a minute, with the comment.

  Fake Wootric API (sandbox) ${sandbox.baseUrl}, with demo data
    password grant: ${sandbox.email} / ${sandbox.password}; client credentials: ${sandbox.clientId} / ${sandbox.clientSecret}
    end users (End User ID, email, external ID):
${endUsers.join('\n')}
  Ticket endpoint ${facts.ticketsUrl} (tickets and their updates are printed here as they come)
  n8n's log: ${facts.n8nLogFile}

${keeping}
Press Ctrl+C to stop everything.`;
}

/** The line `npm run dev` prints as the ticket endpoint opens, updates or folds a ticket. */
export function ticketChangeLine(change: TicketChange): string {
	const { ticket } = change;
	switch (change.kind) {
		case 'opened':
			return `ticket #${ticket.id} opened: ${JSON.stringify(ticket.fields)}`;
		case 'updated':
			return `ticket #${ticket.id} updated: ${JSON.stringify(change.update.fields)}`;
		case 'repeat':
			return `ticket #${ticket.id}: ${change.request.method} with Idempotency-Key ${change.request.idempotencyKey} again, nothing changed`;
	}
}
