import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { EXAMPLES_FOLDER } from '../../scripts/e2e/paths';
import { FakeJira, ISSUE_TYPES, adfToText } from '../../scripts/e2e/tools/jira';
import { FakeSlack } from '../../scripts/e2e/tools/slack';
import { ToolsProxy } from '../../scripts/e2e/tools/tls-proxy';
import { FakeZendesk, type ZendeskTicket } from '../../scripts/e2e/tools/zendesk';
import type { FakeToolServer, ToolRequest } from '../../scripts/e2e/tools/fake-server';
import type { CredentialForImport, WorkflowFile } from '../../scripts/e2e/workflow-files';

export const TOOL_NAMES = ['zendesk', 'jira', 'slack'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/**
 * Where the examples' claims live (docs/tickets.md, "One ticket per response"): a Redis server, the
 * one queue mode has.
 */
export interface RedisAddress {
	host: string;
	port: number;
}

/** A ticket (issue, message) as a person reading the tool sees it: everything written on it. */
export interface TicketSeen {
	/** Its description and comments (Slack: the message and its thread's replies). */
	texts: string[];
}

/** One tool's example, its fake, and how the oracle reads the fake. */
export interface ToolUnderTest {
	name: ToolName;
	workflow: WorkflowFile;
	/** The tool's credential the example uses, pointed at the fake. */
	credential: CredentialForImport;
	/** The fake, to take the tool down (`outage`) and bring it back. */
	fake: FakeToolServer;
	/**
	 * What the tool holds for an end user: each ticket whose requester, summary or message names
	 * this email (every end user of the scenario has their own).
	 */
	ticketsFor(email: string): TicketSeen[];
	/**
	 * What of it the end user is shown: Zendesk emails a ticket's public comments to its requester.
	 * Jira's issues and Slack's channel are the team's own.
	 */
	shownToEndUser(email: string): string[];
	/** Every ticket (issue, top-level message) the tool opened, a Zendesk follow-up as its closed one's. */
	creates(): number;
	/** The requests that opened a ticket for this email, as the fake received them. */
	createsFor(email: string): ToolRequest[];
	/** How many requests the fake has received. */
	received(): number;
	/** An agent closes the end user's tickets (Zendesk's closed: no change taken); others: none. */
	close?(email: string): void;
}

export interface ToolsUnderTest {
	list: ToolUnderTest[];
	/** Every credential the examples reference: the tools' and the Redis one they share. */
	credentials: CredentialForImport[];
	/** What n8n must be started with for the tools' fixed hosts to reach the fakes. */
	n8nEnv: Record<string, string>;
	/** The proxy that serves Zendesk's and Slack's hosts; none for Jira alone. */
	proxy?: ToolsProxy;
	close(): Promise<void>;
}

/** E2E_TICKET_TOOLS: a comma list of zendesk, jira, slack; all three when unset. */
export function selectedTools(): ToolName[] {
	const named = process.env.E2E_TICKET_TOOLS;
	if (named === undefined || named === '') return [...TOOL_NAMES];
	const names = named.split(',').map((name) => name.trim());
	const unknown = names.filter((name) => !(TOOL_NAMES as readonly string[]).includes(name));
	if (unknown.length > 0)
		throw new Error(`E2E_TICKET_TOOLS names ${unknown.join(', ')}: only ${TOOL_NAMES.join(', ')}`);
	return names as ToolName[];
}

/** The ticket examples' files, by tool. */
export const TICKET_EXAMPLES: Record<ToolName, string> = {
	zendesk: 'new-detractor-to-zendesk.json',
	jira: 'new-detractor-to-jira.json',
	slack: 'new-detractor-to-slack.json',
};

/** The credential types of the tools' nodes in the examples. */
const CREDENTIAL_TYPES: Record<ToolName, string> = {
	zendesk: 'zendeskApi',
	jira: 'jiraSoftwareCloudApi',
	slack: 'slackApi',
};

/** An example workflow, as its file in examples/ has it. */
export function example(file: string): WorkflowFile {
	return JSON.parse(readFileSync(join(EXAMPLES_FOLDER, file), 'utf8')) as WorkflowFile;
}

/** The credential an example's node of this type references, with `data` for the import. */
function credentialOf(
	workflow: WorkflowFile,
	type: string,
	data: Record<string, unknown>,
): CredentialForImport {
	for (const node of workflow.nodes) {
		const reference = node.credentials?.[type];
		if (reference) return { ...reference, type, data };
	}
	throw new Error(`"${workflow.name}" has no node with a ${type} credential`);
}

/** The Redis credential the three examples share, holding `redis`'s address. */
function redisCredential(redis: RedisAddress): CredentialForImport {
	return credentialOf(example(TICKET_EXAMPLES.jira), 'redis', { ...redis, database: 0 });
}

/**
 * The Zendesk example's URL holds this in place of the subdomain: no host can be named so (`<` is no
 * host character), so n8n fails before it connects anywhere, the credential unsent.
 */
export const ZENDESK_SUBDOMAIN_PLACEHOLDER = '<your-subdomain>';

/**
 * What the user sets in each ticket example beside its credentials (docs/tickets.md, "Set up"):
 * left unset in the file, so that n8n marks the node as needing it (Zendesk's URL: the placeholder).
 */
export const TO_SET: Record<ToolName, Array<{ node: string; parameter: string }>> = {
	zendesk: [{ node: 'Find Ticket', parameter: 'url' }],
	jira: [
		{ node: 'Open Ticket', parameter: 'project' },
		{ node: 'Open Ticket', parameter: 'issueType' },
	],
	slack: ['Find Ticket', 'Open Ticket', 'Find Comments', 'Add Comment'].map((node) => ({
		node,
		parameter: 'channelId',
	})),
};

/** A resource locator's value as n8n saves one picked *From list*. */
const picked = (value: string, cachedResultName: string) => ({
	__rl: true,
	value,
	mode: 'list',
	cachedResultName,
});

/** What the user sets (TO_SET), from what is there, for a tool's fake. */
type Settings = Record<string, (current: unknown) => unknown>;

function settingsFor(name: ToolName, fake: FakeZendesk | FakeJira | FakeSlack): Settings {
	if (fake instanceof FakeZendesk)
		return {
			url: (current) => String(current).replace(ZENDESK_SUBDOMAIN_PLACEHOLDER, fake.subdomain),
		};
	if (fake instanceof FakeJira) {
		const task = ISSUE_TYPES.find((type) => type.name === 'Task')!;
		return {
			project: () => picked(fake.project.id, fake.project.key),
			issueType: () => picked(task.id, task.name),
		};
	}
	if (fake instanceof FakeSlack)
		return { channelId: () => picked(fake.channel.id, `#${fake.channel.name}`) };
	throw new Error(`no settings for ${name}`);
}

/** The example as the user sets it up (TO_SET) for the tool the fake stands for; nothing else changed. */
export function setUp(
	name: ToolName,
	workflow: WorkflowFile,
	fake: FakeZendesk | FakeJira | FakeSlack,
): WorkflowFile {
	const settings = settingsFor(name, fake);
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			const parameters = TO_SET[name]
				.filter((toSet) => toSet.node === node.name)
				.map(({ parameter }) => parameter);
			if (parameters.length === 0) return node;
			return {
				...node,
				parameters: {
					...node.parameters,
					...Object.fromEntries(
						parameters.map((parameter) => [
							parameter,
							settings[parameter](node.parameters[parameter]),
						]),
					),
				},
			};
		}),
	};
}

/** A tool's example as the user sets it up for the fake, and the credential it references holding the fake's. */
function exampleFor(
	name: ToolName,
	fake: FakeZendesk | FakeJira | FakeSlack,
	data: Record<string, unknown> = fake.credential,
): Pick<ToolUnderTest, 'name' | 'workflow' | 'credential'> {
	const workflow = setUp(name, example(TICKET_EXAMPLES[name]), fake);
	return { name, workflow, credential: credentialOf(workflow, CREDENTIAL_TYPES[name], data) };
}

/** The Wait node after a tool's error, before the flow tries the response again. */
const RETRY_LATER = 'Retry Later';

/** The example retrying a tool's error after `seconds` (the examples wait a minute). */
export function withRetriesAfter(workflow: WorkflowFile, seconds: number): WorkflowFile {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.name === RETRY_LATER
				? { ...node, parameters: { ...node.parameters, amount: seconds } }
				: node,
		),
	};
}

const mentions = (text: string | null | undefined, email: string) => (text ?? '').includes(email);

/** The POSTs to `path` a fake received whose body names `email`. */
const postsNaming = (fake: FakeToolServer, path: string, email: string): ToolRequest[] =>
	fake.requests.filter(
		(request) =>
			request.method === 'POST' &&
			request.path === path &&
			mentions(JSON.stringify(request.body), email),
	);

/** The Zendesk ticket a follow-up was opened for (`via_followup_source_id`), if it is one. */
const followUpOf = (ticket: ZendeskTicket) => ticket.createdWith.via_followup_source_id;

function zendeskUnderTest(zendesk: FakeZendesk): ToolUnderTest {
	const agent = zendesk.users[0];
	// The end user's tickets: theirs as requester, or opened without one (the agent the requester, as
	// Zendesk makes it) and naming them.
	const requestedBy = (email: string) =>
		zendesk.tickets.filter(
			(ticket) =>
				followUpOf(ticket) === undefined &&
				(ticket.requester_id === agent.id
					? mentions(ticket.description, email)
					: zendesk.users.find((user) => user.id === ticket.requester_id)?.email === email),
		);
	/** A ticket and its follow-ups, as its requester and agents read them: one conversation. */
	const withFollowUps = (ticket: ZendeskTicket): ZendeskTicket[] => [
		ticket,
		...zendesk.tickets
			.filter((other) => followUpOf(other) === ticket.id)
			.flatMap((other) => withFollowUps(other)),
	];
	return {
		...exampleFor('zendesk', zendesk),
		fake: zendesk,
		ticketsFor: (email) =>
			requestedBy(email).map((ticket) => ({
				texts: withFollowUps(ticket).flatMap((one) => one.comments.map((comment) => comment.body)),
			})),
		shownToEndUser: (email) =>
			requestedBy(email)
				.flatMap(withFollowUps)
				.flatMap((ticket) => ticket.comments.filter((comment) => comment.public))
				.map((comment) => comment.body),
		creates: () => zendesk.tickets.filter((ticket) => followUpOf(ticket) === undefined).length,
		close: (email) => {
			for (const ticket of requestedBy(email).flatMap(withFollowUps)) ticket.status = 'closed';
		},
		createsFor: (email) => postsNaming(zendesk, '/api/v2/tickets.json', email),
		received: () => zendesk.requests.length,
	};
}

function jiraUnderTest(jira: FakeJira): ToolUnderTest {
	return {
		...exampleFor('jira', jira),
		fake: jira,
		ticketsFor: (email) =>
			jira.issues
				.filter((issue) => mentions(issue.summary, email))
				.map((issue) => ({
					texts: [
						issue.description ?? '',
						...issue.comments.map((comment) => adfToText(comment.body)),
					],
				})),
		shownToEndUser: () => [],
		creates: () => jira.issues.length,
		createsFor: (email) => postsNaming(jira, '/rest/api/2/issue', email),
		received: () => jira.requests.length,
	};
}

/**
 * A Slack message's text as the channel shows it: its three escaped characters back, and a quote's
 * `> ` markers gone.
 */
function asShown(text: string): string {
	return text
		.replace(/^> ?/gm, '')
		.replaceAll('&lt;', '<')
		.replaceAll('&gt;', '>')
		.replaceAll('&amp;', '&');
}

function slackUnderTest(slack: FakeSlack): ToolUnderTest {
	return {
		...exampleFor('slack', slack),
		fake: slack,
		ticketsFor: (email) =>
			slack.parents
				.filter((message) => mentions(message.text, email))
				.map((message) => ({
					texts: [message, ...slack.repliesTo(message.ts)].map((posted) => asShown(posted.text)),
				})),
		shownToEndUser: () => [],
		creates: () => slack.parents.length,
		// A reply in a thread is no create.
		createsFor: (email) =>
			postsNaming(slack, '/api/chat.postMessage', email).filter(
				(request) => !JSON.stringify(request.body).includes('thread_ts'),
			),
		received: () => slack.requests.length,
	};
}

/**
 * The ticket examples as a user sets them up, and the tools' credentials they reference, for a suite
 * that shows the examples without running them (the editor's screenshots): the fakes' defaults.
 */
export function ticketExamplesSetUp(): {
	workflows: WorkflowFile[];
	credentials: CredentialForImport[];
} {
	const fakes = { zendesk: new FakeZendesk(), jira: new FakeJira(), slack: new FakeSlack() };
	const set = TOOL_NAMES.map((name) =>
		exampleFor(name, fakes[name], {
			...fakes[name].credential,
			...(name === 'jira' ? { domain: 'https://acme.atlassian.net' } : {}),
		}),
	);
	return {
		workflows: set.map(({ workflow }) => workflow),
		credentials: [
			...set.map(({ credential }) => credential),
			redisCredential({ host: 'localhost', port: 6379 }),
		],
	};
}

/**
 * Starts the fakes of the named tools, and the proxy that serves Zendesk's and Slack's hosts; the
 * examples' claims go to `redis`.
 */
export async function startTools(names: ToolName[], redis: RedisAddress): Promise<ToolsUnderTest> {
	const zendesk = new FakeZendesk();
	const jira = new FakeJira();
	const slack = new FakeSlack();
	const fakes = { zendesk, jira, slack };
	await Promise.all(names.map(async (name) => await fakes[name].listen()));
	const routes = {
		...(names.includes('zendesk') ? { [zendesk.host]: zendesk.server } : {}),
		...(names.includes('slack') ? { 'slack.com': slack.server } : {}),
	};
	// Jira alone needs no proxy: its credential takes the fake's URL.
	const proxy = Object.keys(routes).length > 0 ? await new ToolsProxy(routes).start() : undefined;
	const builders = { zendesk: zendeskUnderTest, jira: jiraUnderTest, slack: slackUnderTest };
	const list = names.map((name) => builders[name](fakes[name] as never));
	return {
		list,
		credentials: [...list.map((tool) => tool.credential), redisCredential(redis)],
		n8nEnv: proxy?.n8nEnv() ?? {},
		proxy,
		close: async () => {
			await proxy?.close();
			await Promise.all(names.map(async (name) => await fakes[name].close()));
		},
	};
}
