import type { FakeWootric } from '../../test/fake';
import type { FakeRequest } from '../../test/fake/http';
import type { WebhookDelivery } from '../../test/fake/outgoing-webhooks';
import type { N8nRestClient } from './rest-client';

/** What the hints name: the demo's n8n, its instant workflow and its credential. */
export interface DemoFacts {
	n8nUrl: string;
	n8nLogFile: string;
	/** How this n8n's editor publishes a workflow (publishStep). */
	publish: string;
	/** The example workflow the sandbox sends its webhooks to. */
	instantWorkflow: string;
	/** The instant flow on the polling trigger: it brings what the webhooks missed. */
	safetyNetWorkflow: string;
	credential: string;
	/** The sandbox's secret for its webhooks: the credential's Webhook Secret Token checks with it. */
	webhookSecret: string;
}

/** How the editor publishes a workflow: n8n 2.x's Publish button, 1.x's Active toggle. */
export const publishStep = (n8n1: boolean): string =>
	n8n1 ? 'switch it to Active' : 'click Publish';

/** What the watch reads of n8n's executions. */
type ExecutionsList = Pick<N8nRestClient, 'newestExecutions' | 'finishedExecution'>;

/** How often the watch looks at n8n's executions list. */
const EXECUTIONS_EVERY_MS = 5_000;

/** The statuses of an execution that ended: a failure is told, a success clears its workflow's. */
const ENDED = ['success', 'error', 'crashed'];

/** n8n's messages mostly end with a full stop, some do not. */
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * What `npm run dev` says when the demo does not go as its banner says, one line each with what to
 * do: a webhook n8n did not take (a 404: the instant workflow is not published; a 401: the
 * credential's Webhook Secret Token is not the sandbox's), a sign-in the sandbox refused (the
 * credential no longer matches it), an execution that failed (a credential left unset, among
 * others), which otherwise show only in the fake's log, n8n's log file or its executions list.
 *
 * State: the causes told since the last success of their kind (a handful of strings: a cause is
 * told once, not at each delivery, retry or failed poll, and again once it came back after a
 * success); the ids on the executions list's first page at the last look (at most 100), so that
 * each execution is looked at once, also one that ends after a newer one.
 */
export class DemoWatch {
	private readonly told = new Set<string>();
	private listedBefore?: Set<string>;

	constructor(
		private readonly say: (line: string) => void,
		private readonly facts: DemoFacts,
	) {}

	/** Watches the sandbox's webhook deliveries and the sign-ins it answers. */
	watchSandbox(sandbox: FakeWootric): void {
		sandbox.outgoingWebhooks.answeredListeners.push((delivery) => this.delivered(delivery));
		sandbox.answeredHooks.push((request) => this.signInAnswered(request));
	}

	/**
	 * Looks at n8n's executions list every few seconds, one look at a time, until the function
	 * returned is called; what ended before the first look is not told.
	 */
	watchExecutions(rest: ExecutionsList, everyMs = EXECUTIONS_EVERY_MS): () => void {
		let stopped = false;
		let next: NodeJS.Timeout | undefined;
		const look = async () => {
			await this.lookAtExecutions(rest).catch(() => undefined);
			if (!stopped) next = setTimeout(() => void look(), everyMs).unref();
		};
		void look();
		return () => {
			stopped = true;
			clearTimeout(next);
		};
	}

	private delivered(delivery: WebhookDelivery): void {
		const {
			instantWorkflow,
			safetyNetWorkflow,
			n8nUrl,
			n8nLogFile,
			publish,
			credential,
			webhookSecret,
		} = this.facts;
		const { status } = delivery;
		if (status !== undefined && status < 300) return this.wentRight('webhook');
		const what = `The sandbox sent a webhook (${delivery.event} of ${delivery.recordId}) to "${instantWorkflow}"`;
		const again = 'then run "Record a detractor" again.';
		if (status === undefined)
			return this.tell(
				'webhook',
				'no answer',
				`${what} and got no answer (${delivery.error}): is n8n still running? Its log: ${n8nLogFile}.`,
			);
		if (status === 404)
			return this.tell(
				'webhook',
				'404',
				`${what} and n8n answered 404: the workflow is not published. Open it in ${n8nUrl}, ${publish}, ${again} ` +
					// The webhook is not sent again: what was recorded meanwhile only a poll brings.
					`A detractor recorded while it was not published gets no ticket from its webhook: "${safetyNetWorkflow}" brings it within a minute if it was published then; if not, set its Wootric Trigger's Start From (Options) to a time before the detractor, then ${publish}.`,
			);
		// The Wootric Webhook Trigger's answer to a signature its credential's secret does not check.
		if (status === 401)
			return this.tell(
				'webhook',
				'401',
				`${what} and n8n answered 401: the Webhook Secret Token of its trigger's credential ("${credential}") is not the sandbox's. Set it to ${webhookSecret}, ${again}`,
			);
		this.tell(
			'webhook',
			String(status),
			`${what} and n8n answered ${status}. See its executions, ${n8nUrl}/home/executions, and its log: ${n8nLogFile}.`,
		);
	}

	/** A refused refresh is no news: the node signs in again with the credential's own login. */
	private signInAnswered(request: FakeRequest): void {
		if (request.path !== '/oauth/token' || request.body.grant_type === 'refresh_token') return;
		const { credential } = this.facts;
		if (request.status !== undefined && request.status < 300) return this.wentRight('sign-in');
		this.tell(
			'sign-in',
			String(request.status),
			`The sandbox refused a sign-in (${request.status}): the credential "${credential}" no longer matches it. Set it back to the login printed below "Fake Wootric API (sandbox)", or choose "${credential}" in the workflow's Wootric nodes.`,
		);
	}

	private async lookAtExecutions(rest: ExecutionsList): Promise<void> {
		const listed = await rest.newestExecutions(undefined, ENDED);
		const before = this.listedBefore;
		this.listedBefore = new Set(listed.map(({ id }) => id));
		if (before === undefined) return;
		for (const { id, workflowId, workflowName, status } of listed
			.filter((execution) => !before.has(execution.id))
			.reverse()) {
			const kind = `execution ${workflowId}`;
			if (status === 'success') {
				this.wentRight(kind);
				continue;
			}
			const message = (await rest.finishedExecution(id)).data.resultData.error?.message ?? '';
			this.tell(
				kind,
				message,
				`"${workflowName}" failed${message ? `: ${sentence(message)}` : '.'} See which node and why: ${this.facts.n8nUrl}/workflow/${workflowId}/executions/${id}`,
			);
		}
	}

	private tell(kind: string, cause: string, line: string): void {
		const key = `${kind} ${cause}`;
		if (this.told.has(key)) return;
		this.told.add(key);
		this.say(line);
	}

	private wentRight(kind: string): void {
		for (const key of this.told) if (key.startsWith(`${kind} `)) this.told.delete(key);
	}
}
