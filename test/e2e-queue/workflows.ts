import { SANDBOX_CREDENTIAL, type WorkflowFile } from '../../scripts/e2e/workflow-files';

/**
 * The client-credentials credential the token-expiry scenario uses beside the sandbox (password)
 * one.
 */
export const CLIENT_CREDENTIAL = {
	id: 'wootricClient01',
	name: 'Wootric client',
	type: 'wootricApi',
} as const;

type Node = WorkflowFile['nodes'][number] & {
	id: string;
	typeVersion: number;
	position: [number, number];
	webhookId?: string;
};
type Credential = { id: string; name: string };

let nodeCount = 0;
function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	credential?: Credential,
): Node {
	nodeCount++;
	return {
		id: `00000000-0000-4000-8000-${String(nodeCount).padStart(12, '0')}`,
		name,
		type,
		typeVersion,
		position: [nodeCount * 220, 0],
		parameters,
		...(credential ? { credentials: { wootricApi: credential } } : {}),
	};
}

const wootric = (
	name: string,
	parameters: Record<string, unknown>,
	credential: Credential = SANDBOX_CREDENTIAL,
) => node(name, 'n8n-nodes-wootric.wootric', 1, parameters, credential);

/**
 * A production webhook at POST /webhook/<path> that answers with the last node's first item when
 * the run ends.
 */
function webhook(path: string): Node {
	return {
		...node('Webhook', 'n8n-nodes-base.webhook', 2.1, {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			options: {},
		}),
		webhookId: `wh-${path}`,
	};
}

/** Nodes run one after the other, each on the one before's output. */
function chain(id: string, name: string, nodes: Node[]): WorkflowFile {
	const connections: Record<string, unknown> = {};
	for (let index = 0; index + 1 < nodes.length; index++) {
		connections[nodes[index].name] = {
			main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	return {
		id,
		name,
		nodes,
		connections,
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * POST a multipart form with `email` and the file `csv`: Send From CSV reads the uploaded CSV
 * (binary data, which the main stores and the worker reads), then End User → Create or Update and
 * Email Survey → Send.
 */
export const ACTIONS = chain('queueActions', 'queue: actions', [
	webhook('wootric-actions'),
	wootric('Send From CSV', {
		resource: 'emailSurvey',
		operation: 'sendCsv',
		source: 'binary',
		binaryPropertyName: 'csv',
		surveyImmediately: true,
	}),
	wootric('Upsert End User', {
		resource: 'endUser',
		operation: 'upsert',
		email: "={{ $('Webhook').item.json.body.email }}",
	}),
	wootric('Send Survey', {
		resource: 'emailSurvey',
		operation: 'send',
		emails: "={{ $('Webhook').item.json.body.email }}",
		subject: 'How are we doing?',
	}),
]);

/** Response → Get Many, Return All: every response of the account, past 1,500. */
export const READ_ALL = chain('queueReadAll', 'queue: read all responses', [
	{
		...webhook('wootric-read-all'),
		parameters: {
			httpMethod: 'POST',
			path: 'wootric-read-all',
			responseMode: 'lastNode',
			responseData: 'allEntries',
			options: {},
		},
	},
	wootric('All Responses', {
		resource: 'response',
		operation: 'getAll',
		scope: 'all',
		category: 'all',
		returnAll: true,
		options: { order: 'asc' },
	}),
]);

/** Response → Get Many, 200 of them (4 pages): a run long enough to meet a token that expires. */
export function pagesOfResponses(id: string, path: string, credential: Credential): WorkflowFile {
	return chain(id, `queue: pages of responses (${credential.name})`, [
		webhook(path),
		wootric(
			'Some Responses',
			{
				resource: 'response',
				operation: 'getAll',
				scope: 'all',
				category: 'all',
				returnAll: false,
				limit: 200,
			},
			credential,
		),
	]);
}

export const TRIGGER_NAME = 'New Response';

/** A Wootric Trigger whose every item goes to a ticket system. */
export interface TicketsTrigger {
	id: string;
	name: string;
	/**
	 * The seconds of each minute it polls at: a Poll Time each (n8n refuses a Poll Time that fires
	 * more than once a minute, not several Poll Times).
	 */
	pollSeconds: number[];
	events?: string[];
	options?: Record<string, unknown>;
	/** The Wootric credential it reads with (default: the sandbox's). */
	credential?: Credential;
}

/** The trigger's items → a ticket each, with the item's idempotency_key as the ticket system's. */
export function triggerToTickets(ticketUrl: string, trigger: TicketsTrigger): WorkflowFile {
	const pollTimes = {
		item: trigger.pollSeconds.map((second) => ({
			mode: 'custom',
			cronExpression: `${second} * * * * *`,
		})),
	};
	return chain(trigger.id, trigger.name, [
		node(
			TRIGGER_NAME,
			'n8n-nodes-wootric.wootricTrigger',
			1,
			{
				pollTimes,
				events: trigger.events ?? ['response'],
				filters: {},
				options: trigger.options ?? {},
			},
			trigger.credential ?? SANDBOX_CREDENTIAL,
		),
		node('Open Ticket', 'n8n-nodes-base.httpRequest', 4.2, {
			method: 'POST',
			url: ticketUrl,
			sendHeaders: true,
			headerParameters: {
				parameters: [{ name: 'Idempotency-Key', value: '={{ $json.idempotency_key }}' }],
			},
			sendBody: true,
			bodyParameters: {
				parameters: [
					{ name: 'wootric_response_id', value: '={{ $json.id }}' },
					{ name: 'score', value: '={{ $json.score }}' },
				],
			},
			// Ten at a time, as a ticket system's rate limit would have it: a burst takes a while to
			// send.
			options: { batching: { batch: { batchSize: 10, batchInterval: 100 } } },
		}),
	]);
}

/** Every new response → a ticket, polled every 15 s. */
export const responsesToTickets = (ticketUrl: string): WorkflowFile =>
	triggerToTickets(ticketUrl, {
		id: 'queueTickets',
		name: 'queue: every new response → ticket',
		pollSeconds: [0, 15, 30, 45],
	});

/**
 * n8n's HTTP Request node calling `url` with the Wootric API credential (Authentication →
 * Predefined Credential Type → Wootric API), run by hand: how a user calls an endpoint the Wootric
 * node has no operation for.
 */
export function httpRequestWithWootric(
	id: string,
	name: string,
	url: string,
	credential: Credential,
): WorkflowFile {
	return chain(id, name, [
		node('Run', 'n8n-nodes-base.manualTrigger', 1, {}),
		node(
			'Call Wootric',
			'n8n-nodes-base.httpRequest',
			4.2,
			{
				method: 'GET',
				url,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'wootricApi',
				options: {},
			},
			credential,
		),
	]);
}
