import type { FakeWootric } from '../../test/fake';
import type { FakeRequest } from '../../test/fake/http';
import type { WebhookDelivery } from '../../test/fake/outgoing-webhooks';
import type { N8nRestClient } from './rest-client';

/** What the hints name: the demo's n8n, its instant workflow and its credential. */
export interface DemoFacts {
	n8nUrl: string;
	n8nLogFile: string;
	/** The example workflow the sandbox sends its webhooks to. */
	instantWorkflow: string;
	credential: string;
}

/** What the watch reads of n8n's executions. */
type ExecutionsList = Pick<N8nRestClient, 'newestFailedExecutions' | 'finishedExecution'>;

/** How often the watch looks at n8n's executions list. */
const EXECUTIONS_EVERY_MS = 5_000;

/**
 * What `npm run dev` says when the demo does not go as its banner says, one line each with what to
 * do: a webhook n8n did not take (a 404: the instant workflow is not published), a sign-in the
 * sandbox refused (the credential no longer matches it), an execution that failed (a credential
 * left unset, among others), which otherwise show only in the fake's log, n8n's log file or its
 * executions list.
 *
 * State: the webhook and sign-in causes told since the last success of their kind (a handful of
 * strings: a cause is told once, not at each delivery or poll, and again once it came back after a
 * success); the newest failed execution seen (one id), so that each is told once.
 */
export class DemoWatch {
	private readonly told = new Set<string>();
	private newestFailedSeen?: number;

	constructor(
		private readonly say: (line: string) => void,
		private readonly facts: DemoFacts,
	) {}

	/**
	 * Watches the sandbox's webhook deliveries and the sign-ins it answers, until the function
	 * returned is called.
	 */
	watchSandbox(sandbox: FakeWootric): () => void {
		const delivered = (delivery: WebhookDelivery) => this.delivered(delivery);
		const answered = (request: FakeRequest) => this.signInAnswered(request);
		sandbox.outgoingWebhooks.answeredListeners.push(delivered);
		sandbox.answeredHooks.push(answered);
		return () => {
			const { answeredListeners } = sandbox.outgoingWebhooks;
			answeredListeners.splice(answeredListeners.indexOf(delivered), 1);
			sandbox.answeredHooks.splice(sandbox.answeredHooks.indexOf(answered), 1);
		};
	}

	/**
	 * Looks at n8n's executions list every few seconds, until the function returned is called; what
	 * failed before the first look is not told.
	 */
	watchExecutions(rest: ExecutionsList, everyMs = EXECUTIONS_EVERY_MS): () => void {
		const look = () => this.lookAtExecutions(rest).catch(() => undefined);
		void look();
		const timer = setInterval(() => void look(), everyMs);
		timer.unref();
		return () => clearInterval(timer);
	}

	private delivered(delivery: WebhookDelivery): void {
		const { instantWorkflow, n8nUrl, n8nLogFile } = this.facts;
		if (delivery.status !== undefined && delivery.status < 300) return this.wentRight('webhook');
		const what = `The sandbox sent a webhook (${delivery.event} of ${delivery.recordId}) to "${instantWorkflow}"`;
		if (delivery.status === 404)
			return this.tell(
				'webhook',
				'404',
				`${what} and n8n answered 404: the workflow is not published. Open it in ${n8nUrl}, click Publish, then run "Record a detractor" again.`,
			);
		const answer =
			delivery.status === undefined ? `no answer (${delivery.error})` : delivery.status;
		this.tell(
			'webhook',
			String(answer),
			`${what} and got ${answer}: is n8n still running? Its log: ${n8nLogFile}.`,
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
			`The sandbox refused a sign-in (${request.status}): check the credential "${credential}" against the login printed above under "Fake Wootric API (sandbox)", and that the workflow's Wootric nodes use it.`,
		);
	}

	private async lookAtExecutions(rest: ExecutionsList): Promise<void> {
		const failed = await rest.newestFailedExecutions();
		const newest = Math.max(0, ...failed.map(({ id }) => Number(id)));
		const seen = this.newestFailedSeen;
		this.newestFailedSeen = Math.max(seen ?? 0, newest);
		if (seen === undefined) return;
		for (const { id, workflowId, workflowName } of failed
			.filter((execution) => Number(execution.id) > seen)
			.reverse()) {
			const { error } = (await rest.finishedExecution(id)).data.resultData;
			this.say(
				`"${workflowName}" failed${error ? `: ${error.message.replace(/\.$/, '')}` : ''}. See which node and why: ${this.facts.n8nUrl}/workflow/${workflowId}/executions/${id}`,
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
