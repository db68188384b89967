import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { EXAMPLES_FOLDER } from '../../scripts/e2e/paths';
import { FakeJira, adfToText } from '../../scripts/e2e/tools/jira';
import { FakeSlack } from '../../scripts/e2e/tools/slack';
import { ToolsProxy } from '../../scripts/e2e/tools/tls-proxy';
import { FakeZendesk } from '../../scripts/e2e/tools/zendesk';
import type { FakeToolServer, ToolRequest } from '../../scripts/e2e/tools/fake-server';
import type { CredentialForImport, WorkflowFile } from '../../scripts/e2e/workflow-files';

export const TOOL_NAMES = ['zendesk', 'jira', 'slack'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** The Remove Duplicates node of every ticket example that folds repeats across executions. */
export const SKIP_REPEATS = 'Skip Repeats';

/** A ticket (issue, message) as a person reading the tool sees it: everything written on it. */
export interface TicketSeen {
	/** Its description and comments (Slack: the message and its thread's replies). */
	texts: string[];
}

/** One tool's example, its fake, and how the oracle reads the fake. */
export interface ToolUnderTest {
	name: ToolName;
	workflow: WorkflowFile;
	/** The credential the example uses, pointed at the fake. */
	credential: CredentialForImport;
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
	/** Every ticket (issue, top-level message) the tool was asked to open. */
	creates(): number;
	/** The requests that opened a ticket for this email, as the fake received them. */
	createsFor(email: string): ToolRequest[];
}

export interface ToolsUnderTest {
	list: ToolUnderTest[];
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

/** A tool's example, and the credential it references holding `data`. */
function exampleFor(
	name: ToolName,
	data: Record<string, unknown>,
): Pick<ToolUnderTest, 'name' | 'workflow' | 'credential'> {
	const workflow = example(TICKET_EXAMPLES[name]);
	return { name, workflow, credential: credentialOf(workflow, CREDENTIAL_TYPES[name], data) };
}

/** The example with Remove Duplicates' history made `size` long (the examples keep 10,000). */
export function withHistorySize(workflow: WorkflowFile, size: number): WorkflowFile {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.name === SKIP_REPEATS
				? {
						...node,
						parameters: {
							...node.parameters,
							options: { ...(node.parameters.options as object), historySize: size },
						},
					}
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

function zendeskUnderTest(zendesk: FakeZendesk): ToolUnderTest {
	const requestedBy = (email: string) =>
		zendesk.tickets.filter(
			(ticket) => zendesk.users.find((user) => user.id === ticket.requester_id)?.email === email,
		);
	return {
		...exampleFor('zendesk', zendesk.credential),
		ticketsFor: (email) =>
			requestedBy(email).map((ticket) => ({
				texts: ticket.comments.map((comment) => comment.body),
			})),
		shownToEndUser: (email) =>
			requestedBy(email)
				.flatMap((ticket) => ticket.comments.filter((comment) => comment.public))
				.map((comment) => comment.body),
		creates: () => zendesk.tickets.length,
		createsFor: (email) => postsNaming(zendesk, '/api/v2/tickets.json', email),
	};
}

function jiraUnderTest(jira: FakeJira): ToolUnderTest {
	return {
		...exampleFor('jira', jira.credential),
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
		...exampleFor('slack', slack.credential),
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
	};
}

/**
 * The tools' credentials the examples reference, as a user would make them, for a suite that shows
 * the examples without running them (the editor's screenshots): the fakes' defaults.
 */
export function exampleToolCredentials(): CredentialForImport[] {
	const fakes = { zendesk: new FakeZendesk(), jira: new FakeJira(), slack: new FakeSlack() };
	return TOOL_NAMES.map(
		(name) =>
			exampleFor(name, {
				...fakes[name].credential,
				...(name === 'jira' ? { domain: 'https://acme.atlassian.net' } : {}),
			}).credential,
	);
}

/** Starts the fakes of the named tools, and the proxy that serves Zendesk's and Slack's hosts. */
export async function startTools(names: ToolName[]): Promise<ToolsUnderTest> {
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
	return {
		list: names.map((name) => builders[name](fakes[name] as never)),
		n8nEnv: proxy?.n8nEnv() ?? {},
		proxy,
		close: async () => {
			await proxy?.close();
			await Promise.all(names.map(async (name) => await fakes[name].close()));
		},
	};
}
