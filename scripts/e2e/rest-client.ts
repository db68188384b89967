import { ExecutionStatusList } from 'n8n-workflow';

import { waitFor } from './processes';

/**
 * n8n ties a session to the browser that logged in: every request of a session sends the same id.
 */
const BROWSER_ID = 'n8n-nodes-wootric-e2e';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export interface CredentialToTest {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/** A node or credential type as the editor gets it (only what the tests read). */
export interface TypeDescription {
	name: string;
	iconUrl?: string | { light: string; dark: string };
}

/** An execution as GET /rest/executions/<id> returns it, its `data` decoded. */
export interface RestExecution {
	id: string;
	status: string;
	finished: boolean;
	mode: string;
	data: {
		resultData: {
			runData: Record<
				string,
				Array<{
					data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
					/** A node's error; its run goes on when the node is set to continue on error. */
					error?: { message: string };
				}>
			>;
			error?: { message: string };
		};
	};
}

/** An execution as the executions list shows it (only what the tests read). */
export interface ExecutionSummary {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	/** ISO 8601; null while it waits for its turn. */
	startedAt: string | null;
	stoppedAt?: string | null;
}

/** An execution as the executions list shows it, with its workflow's name. */
export interface ListedExecution extends ExecutionSummary {
	workflowName: string;
}

/**
 * The executions list's query for a workflow's executions of some statuses (every workflow's when
 * undefined). With a status filter every version counts and lists them all (without one, n8n 1.x and
 * 2.40 list the latest only).
 */
function executionsQuery(
	workflowId: string | undefined,
	statuses: readonly string[],
	limit: number,
): string {
	const filter = JSON.stringify({ workflowId, status: statuses });
	return new URLSearchParams({ filter, limit: String(limit) }).toString();
}

export interface PublicationStatus {
	status: 'in_progress' | 'not_published' | 'published' | 'partial' | 'failed';
	triggers: Array<{ nodeId: string; status: string; errorMessage?: string | null }>;
}

export class N8nRestError extends Error {
	constructor(
		readonly status: number,
		readonly body: string,
		what: string,
	) {
		super(`${what} answered ${status}: ${body.slice(0, 500)}`);
	}
}

/**
 * The editor's REST API (/rest), as the editor uses it: a session cookie from POST /rest/login and
 * the browser-id header. Routes as in n8n 2.40's controllers (auth, credentials, workflows,
 * executions), with what 1.123 lacks guarded where it is used (owner setup, manual runs,
 * publication status).
 */
export class N8nRestClient {
	private cookie = '';

	constructor(
		readonly baseUrl: string,
		/** flatted's parse, from n8n's node_modules: execution data comes flatted-encoded. */
		private readonly parseFlatted: (text: string) => unknown,
	) {}

	async login(email: string, password: string): Promise<void> {
		const response = await this.postWithoutSession('/rest/login', {
			emailOrLdapLoginId: email,
			password,
		});
		const authCookie = response.headers
			.getSetCookie()
			.find((cookie) => cookie.startsWith('n8n-auth='));
		if (!authCookie) throw new Error('POST /rest/login set no n8n-auth cookie');
		this.cookie = authCookie.split(';')[0];
	}

	/** A POST before logging in (the login itself, the owner setup); throws unless it succeeded. */
	private async postWithoutSession(path: string, body: unknown): Promise<Response> {
		const response = await fetch(`${this.baseUrl}${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID },
			body: JSON.stringify(body),
		});
		if (!response.ok)
			throw new N8nRestError(response.status, await response.text(), `POST ${path}`);
		return response;
	}

	/**
	 * n8n 1.x has no owner from the environment: the first visitor sets the owner up (POST
	 * /rest/owner/setup), once per database. Does nothing when an owner exists already.
	 */
	async setUpOwnerOnce(owner: { email: string; password: string }): Promise<void> {
		const settings = await this.request<{ userManagement: { showSetupOnFirstLoad?: boolean } }>(
			'GET',
			'/rest/settings',
		);
		if (!settings.userManagement.showSetupOnFirstLoad) return;
		await this.postWithoutSession('/rest/owner/setup', {
			email: owner.email,
			firstName: 'Demo',
			lastName: 'Owner',
			password: owner.password,
		});
	}

	/** A request with the session; returns the body's `data` (n8n wraps every answer in it). */
	async request<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: {
				cookie: this.cookie,
				'browser-id': BROWSER_ID,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new N8nRestError(response.status, text, `${method} ${path}`);
		const parsed = JSON.parse(text) as { data?: T };
		return (parsed.data ?? parsed) as T;
	}

	/** The node types the editor offers (GET /types/nodes.json). */
	async nodeTypes(): Promise<TypeDescription[]> {
		return await this.request<TypeDescription[]>('GET', '/types/nodes.json');
	}

	async nodeTypeNames(): Promise<string[]> {
		return (await this.nodeTypes()).map((type) => type.name);
	}

	async credentialTypes(): Promise<TypeDescription[]> {
		return await this.request<TypeDescription[]>('GET', '/types/credentials.json');
	}

	async credentialTypeNames(): Promise<string[]> {
		return (await this.credentialTypes()).map((type) => type.name);
	}

	/** A dropdown's options from the node's loadOptions method, as the editor asks for them. */
	async loadOptions(request: {
		nodeType: string;
		parameter: string;
		methodName: string;
		currentNodeParameters: Record<string, unknown>;
		credentials: Record<string, { id: string; name: string }>;
	}): Promise<Array<{ name: string; value: string | number; description?: string }>> {
		return await this.request('POST', '/rest/dynamic-node-parameters/options', {
			path: request.parameter,
			nodeTypeAndVersion: { name: request.nodeType, version: 1 },
			currentNodeParameters: request.currentNodeParameters,
			methodName: request.methodName,
			credentials: request.credentials,
		});
	}

	/**
	 * A stored credential as the editor's credential form gets it: secrets (and hidden fields)
	 * redacted.
	 */
	async credentialAsShown(id: string): Promise<CredentialToTest> {
		const { name, type, data } = await this.request<CredentialToTest>(
			'GET',
			`/rest/credentials/${id}?includeData=true`,
		);
		return { id, name, type, data };
	}

	/** The credential form's Save: what is still redacted keeps its stored value. */
	async updateCredential(credential: CredentialToTest): Promise<void> {
		await this.request('PATCH', `/rest/credentials/${credential.id}`, {
			name: credential.name,
			type: credential.type,
			data: credential.data,
		});
	}

	/**
	 * The editor's "Test" button of a stored credential, with the data shown in the form (POST
	 * /rest/credentials/test).
	 */
	async testCredential(credential: CredentialToTest): Promise<CredentialTestResult> {
		return await this.request<CredentialTestResult>('POST', '/rest/credentials/test', {
			credentials: credential,
		});
	}

	/**
	 * The editor's "Execute workflow" from a trigger (POST /rest/workflows/<id>/run): a polling
	 * trigger's run starts at once, a webhook trigger's waits for a request to its Test URL.
	 */
	private async runManually(
		workflowId: string,
		triggerName: string,
	): Promise<{ executionId?: string; waitingForWebhook?: boolean }> {
		// n8n 1.x runs the workflow the editor sends (workflowData); 2.x runs the stored one and drops
		// that field.
		const workflowData = await this.request<Record<string, unknown>>(
			'GET',
			`/rest/workflows/${workflowId}`,
		);
		return await this.request('POST', `/rest/workflows/${workflowId}/run`, {
			workflowData,
			triggerToStartFrom: { name: triggerName },
		});
	}

	/**
	 * Runs a workflow in manual mode from a trigger ("Execute workflow" / "Fetch Test Event");
	 * returns the execution id.
	 */
	async runFromTrigger(workflowId: string, triggerName: string): Promise<string> {
		const result = await this.runManually(workflowId, triggerName);
		if (!result.executionId)
			throw new Error(
				`Running ${workflowId} from "${triggerName}" started no execution: ${JSON.stringify(result)}`,
			);
		return result.executionId;
	}

	/**
	 * A webhook trigger's "Listen for test event": n8n registers the node's Test URL
	 * (/webhook-test/…) until one request has started an execution, or two minutes have passed.
	 */
	async listenForTestEvent(workflowId: string, triggerName: string): Promise<void> {
		const result = await this.runManually(workflowId, triggerName);
		if (result.waitingForWebhook !== true)
			throw new Error(
				`Listening for a test event of "${triggerName}" in ${workflowId} did not wait for a webhook: ${JSON.stringify(result)}`,
			);
	}

	/**
	 * How many executions of a workflow the executions list counts, of any status or of these (its
	 * `count`: exact below 100,000 executions).
	 */
	async executionCount(
		workflowId: string,
		statuses: readonly string[] = ExecutionStatusList,
	): Promise<number> {
		const { count } = await this.request<{ count: number }>(
			'GET',
			`/rest/executions?${executionsQuery(workflowId, statuses, 1)}`,
		);
		return count;
	}

	/**
	 * The newest executions of a workflow (of every workflow when undefined), of any status or of
	 * these: the first page of the executions list, up to 100. Only the first page: n8n 2.41 pages
	 * the list in start order but cuts pages by id, which skips executions that started out of id
	 * order.
	 */
	async newestExecutions(
		workflowId: string | undefined,
		statuses: readonly string[] = ExecutionStatusList,
	): Promise<ListedExecution[]> {
		const { results } = await this.request<{ results: ListedExecution[] }>(
			'GET',
			`/rest/executions?${executionsQuery(workflowId, statuses, 100)}`,
		);
		return results;
	}

	/**
	 * The executions list's Retry (with the execution's own workflow): n8n runs it again from the
	 * node that failed and answers once the retry ended. Throws unless the retry succeeded.
	 */
	async retryExecution(executionId: string): Promise<void> {
		// n8n 1.x answers whether the retry finished; 2.x the retry's execution, with `finished`.
		const answer = await this.request<boolean | { finished: boolean; id: string }>(
			'POST',
			`/rest/executions/${executionId}/retry`,
			{ loadWorkflow: false },
		);
		const finished = typeof answer === 'boolean' ? answer : answer.finished;
		if (!finished)
			throw new Error(`The retry of execution ${executionId} failed: ${JSON.stringify(answer)}`);
	}

	/** One execution as GET /rest/executions/<id> has it, without its data. */
	async executionSummary(executionId: string): Promise<ExecutionSummary> {
		const { id, workflowId, status, mode, startedAt, stoppedAt } =
			await this.request<ExecutionSummary>('GET', `/rest/executions/${executionId}`);
		return { id, workflowId, status, mode, startedAt, stoppedAt };
	}

	/** Waits until an execution has ended and returns it with its data decoded. */
	async finishedExecution(executionId: string, timeoutMs = 60_000): Promise<RestExecution> {
		const raw = await waitFor(
			`execution ${executionId} to end`,
			async () => {
				const execution = await this.request<Omit<RestExecution, 'data'> & { data: string }>(
					'GET',
					`/rest/executions/${executionId}`,
				);
				return ['new', 'running', 'waiting'].includes(execution.status) ? undefined : execution;
			},
			{ timeoutMs, intervalMs: 300 },
		);
		return { ...raw, data: this.parseFlatted(raw.data) as RestExecution['data'] };
	}

	/**
	 * Publishes (activates) the workflow's current version, as the editor's Publish button does in
	 * n8n 2.x, and waits until its triggers are live: n8n 2.40 answers at once and activates through
	 * an outbox, so a trigger that starts "from now" would otherwise start from a moment after the
	 * call returned.
	 */
	async activate(workflowId: string, timeoutMs = 30_000): Promise<void> {
		const { versionId } = await this.request<{ versionId: string }>(
			'GET',
			`/rest/workflows/${workflowId}`,
		);
		await this.request('POST', `/rest/workflows/${workflowId}/activate`, { versionId });
		if (!(await this.hasPublicationStatus(workflowId))) return;
		const settled = await waitFor(
			`workflow ${workflowId} to be published`,
			async () => {
				const publication = await this.publicationStatus(workflowId);
				return publication.status === 'in_progress' || publication.status === 'not_published'
					? undefined
					: publication;
			},
			{ timeoutMs, intervalMs: 200 },
		);
		if (settled.status !== 'published') {
			const reasons = settled.triggers.map((trigger) => trigger.errorMessage).filter(Boolean);
			throw new Error(
				`Publishing workflow ${workflowId} ended "${settled.status}": ${reasons.join('; ') || 'no error message'}`,
			);
		}
	}

	/**
	 * n8n 2.x (de)activates through an outbox and reports it here; 1.x has no such route and answers
	 * once done.
	 */
	private async hasPublicationStatus(workflowId: string): Promise<boolean> {
		return await this.publicationStatus(workflowId).then(
			() => true,
			(error: unknown) => {
				if (error instanceof N8nRestError && error.status === 404) return false;
				throw error;
			},
		);
	}

	/**
	 * GET /rest/workflows/<id>/publication-status: whether the published version's triggers are live.
	 */
	async publicationStatus(workflowId: string): Promise<PublicationStatus> {
		return await this.request<PublicationStatus>(
			'GET',
			`/rest/workflows/${workflowId}/publication-status`,
		);
	}

	/** Unpublishes the workflow and waits until its triggers are stopped. */
	async deactivate(workflowId: string, timeoutMs = 30_000): Promise<void> {
		await this.request('POST', `/rest/workflows/${workflowId}/deactivate`, {});
		if (!(await this.hasPublicationStatus(workflowId))) return;
		await waitFor(
			`workflow ${workflowId} to be unpublished`,
			async () =>
				(await this.publicationStatus(workflowId)).status === 'not_published' ? true : undefined,
			{ timeoutMs, intervalMs: 200 },
		);
	}
}
