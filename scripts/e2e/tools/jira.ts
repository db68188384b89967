import { basicCredentials, FakeToolServer, record } from './fake-server';
import type { ToolAnswer, ToolCall } from './fake-server';

/** Atlassian Document Format, the v3 API's rich text: only what a fake comment needs. */
export interface AdfNode {
	type: string;
	text?: string;
	content?: AdfNode[];
	version?: number;
}

export interface JiraComment {
	id: string;
	/** As stored: v2 posts are turned into ADF, one paragraph per line. */
	body: AdfNode;
	created: Date;
	/** The API version it was posted with. */
	postedWith: '2' | '3';
}

export interface JiraIssue {
	id: string;
	key: string;
	summary: string;
	/** The v2 (plain text) description, as sent. */
	description: string | null;
	labels: string[];
	issueTypeId: string;
	parentKey?: string;
	created: Date;
	updated: Date;
	comments: JiraComment[];
	/** The `fields` of the create request, as received. */
	createdWith: Record<string, unknown>;
}

export interface FakeJiraOptions {
	email?: string;
	apiToken?: string;
	project?: { id: string; key: string; name: string };
}

export const ISSUE_TYPES = [
	{ id: '10001', name: 'Task', description: 'A small, distinct piece of work.', subtask: false },
	{ id: '10002', name: 'Sub-task', description: 'A small piece of a larger task.', subtask: true },
];

/** Display names, for `expand=names` (the node's "simplify" of issue get). */
const FIELD_NAMES: Record<string, string> = {
	summary: 'Summary',
	description: 'Description',
	labels: 'Labels',
	comment: 'Comment',
	created: 'Created',
	updated: 'Updated',
	status: 'Status',
	issuetype: 'Issue Type',
	project: 'Project',
	parent: 'Parent',
	reporter: 'Reporter',
	assignee: 'Assignee',
};
/** Jira's comment field is not navigable: search's default `*navigable` leaves it out. */
const NOT_NAVIGABLE = new Set(['comment']);

/** search/jql's page cap when fields are asked for. */
const MAX_RESULTS = 100;

const NO_ISSUE = 'Issue does not exist or you do not have permission to see it.';

/** Jira's limit on a text field (description, a comment's body): 32,767 characters. */
export const JIRA_TEXT_LIMIT = 32_767;
const TOO_LONG = `The entered text is too long. It exceeds the allowed limit of ${JIRA_TEXT_LIMIT.toLocaleString('en-US')} characters.`;

/**
 * A model of Jira Cloud's REST API, as n8n's Jira Software node (`jiraVersion: cloud`, credential
 * jiraSoftwareCloudApi) calls it, on plain http: the credential's domain is free text.
 * - Basic auth `email:apiToken`; anything else is 401.
 * - `GET /rest/api/2/myself` (the credential test), `GET /rest/api/2/issuetype`.
 * - `POST /rest/api/2/issue` `{fields:{summary, project:{id|key}, issuetype:{id}, labels?,
 *   description?, parent?}}` → 201 `{id, key, self}`; Jira's 400 `{errorMessages, errors}` on a
 *   missing summary, an unknown project or issue type, a label with a space, a sub-task with no
 *   parent, a description over 32,767 characters.
 * - `POST /rest/api/2/search/jql` `{jql, fields, maxResults, nextPageToken}` with a small JQL
 *   subset (see `parseJql`); other JQL is 400.
 * - `GET /rest/api/2/issue/{key}`; `POST|GET /rest/api/{2,3}/issue/{key}/comment` (v2 bodies are
 *   plain text, v3 ADF); 400 on a body over 32,767 characters of text.
 *
 * Not modelled: search lag. Atlassian's search/jql is eventually consistent (a new issue or label
 * may be missing for seconds to minutes); here every search sees every write. The examples' docs
 * address the lag.
 */
export class FakeJira extends FakeToolServer {
	readonly issues: JiraIssue[] = [];
	readonly email: string;
	readonly apiToken: string;
	readonly project: { id: string; key: string; name: string };
	private commentIds = 10000;

	constructor(options: FakeJiraOptions = {}) {
		super();
		this.email = options.email ?? 'agent@example.com';
		this.apiToken = options.apiToken ?? 'jira-api-token';
		this.project = options.project ?? { id: '10000', key: 'OPS', name: 'Operations' };
	}

	/** The credential n8n's jiraSoftwareCloudApi needs (domain without a trailing slash). */
	get credential(): { email: string; apiToken: string; domain: string } {
		return { email: this.email, apiToken: this.apiToken, domain: this.url };
	}

	get counts(): { issues: number; comments: number } {
		return {
			issues: this.issues.length,
			comments: this.issues.reduce((sum, issue) => sum + issue.comments.length, 0),
		};
	}

	issue(idOrKey: string): JiraIssue | undefined {
		const wanted = idOrKey.toUpperCase();
		return this.issues.find((issue) => issue.id === idOrKey || issue.key === wanted);
	}

	/** The issues carrying a label. */
	withLabel(label: string): JiraIssue[] {
		return this.issues.filter((issue) => issue.labels.includes(label));
	}

	protected answer(call: ToolCall): ToolAnswer {
		const credentials = basicCredentials(call.authorization);
		if (credentials?.user !== this.email || credentials.password !== this.apiToken) {
			return jiraError(401, ['Client must be authenticated to access this resource.']);
		}
		if (call.bodyError !== undefined) {
			return jiraError(400, [`Unexpected character in the JSON body: ${call.bodyError}`]);
		}
		const { method, path } = call;
		const body = record(call.body) ?? {};
		if (method === 'GET' && path === '/rest/api/2/myself') return { status: 200, body: this.me() };
		if (method === 'GET' && path === '/rest/api/2/issuetype') {
			return { status: 200, body: ISSUE_TYPES.map((type) => this.issueType(type.id)) };
		}
		if (method === 'POST' && path === '/rest/api/2/issue') return this.create(body);
		if (method === 'POST' && path === '/rest/api/2/search/jql') return this.search(body);
		const comments = /^\/rest\/api\/([23])\/issue\/([^/]+)\/comment$/.exec(path);
		if (comments) {
			const [, version, key] = comments as unknown as [string, '2' | '3', string];
			const issue = this.issue(decodeURIComponent(key));
			if (!issue) return jiraError(404, [NO_ISSUE]);
			if (method === 'POST') return this.addComment(issue, version, body);
			if (method === 'GET') return this.listComments(issue, version, call.query);
		}
		const single = /^\/rest\/api\/2\/issue\/([^/]+)$/.exec(path);
		if (single && method === 'GET') {
			const issue = this.issue(decodeURIComponent(single[1]));
			if (!issue) return jiraError(404, [NO_ISSUE]);
			return { status: 200, body: this.getIssue(issue, call.query) };
		}
		// What Jira answers a path it has no resource for.
		return jiraError(404, [`null for uri: ${this.url}${path}`]);
	}

	private create(body: Record<string, unknown>): ToolAnswer {
		const fields = record(body.fields);
		if (!fields) return jiraError(400, ["Field 'fields' is required."]);
		const errors: Record<string, string> = {};
		const summary = fields.summary;
		if (typeof summary !== 'string' || summary.trim() === '') {
			errors.summary = 'You must specify a summary of the issue.';
		}
		const project = record(fields.project);
		if (project?.id !== this.project.id && project?.key !== this.project.key) {
			errors.project = 'valid project is required';
		}
		const type = ISSUE_TYPES.find((known) => known.id === String(record(fields.issuetype)?.id));
		const parentKey = record(fields.parent)?.key;
		if (!type) errors.issuetype = 'valid issue type is required';
		else if (type.subtask && typeof parentKey !== 'string') {
			errors.issuetype = 'Issue type is a sub-task but parent issue key or id not specified.';
		}
		const labels = fields.labels ?? [];
		if (!Array.isArray(labels) || labels.some((label) => typeof label !== 'string')) {
			errors.labels = 'Labels must be a list of strings.';
		} else {
			const spaced = (labels as string[]).find((label) => /\s/.test(label));
			if (spaced !== undefined) {
				errors.labels = `The label '${spaced}' contains spaces which is invalid.`;
			}
		}
		const description = fields.description;
		if (description !== undefined && description !== null && typeof description !== 'string') {
			// The v2 API takes a string; ADF is v3's.
			errors.description = 'Operation value must be a string';
		} else if (typeof description === 'string' && description.length > JIRA_TEXT_LIMIT) {
			errors.description = TOO_LONG;
		}
		if (Object.keys(errors).length > 0) return jiraError(400, [], errors);

		const now = new Date();
		const number = this.issues.length + 1;
		const issue: JiraIssue = {
			id: String(10000 + number),
			key: `${this.project.key}-${number}`,
			summary: summary as string,
			description: (description as string | undefined) ?? null,
			labels: [...new Set(labels as string[])],
			issueTypeId: type!.id,
			...(typeof parentKey === 'string' ? { parentKey } : {}),
			created: now,
			updated: now,
			comments: [],
			createdWith: fields,
		};
		this.issues.push(issue);
		return { status: 201, body: { id: issue.id, key: issue.key, self: this.self(issue) } };
	}

	private search(body: Record<string, unknown>): ToolAnswer {
		if (typeof body.jql !== 'string') {
			return jiraError(400, [
				'Unbounded JQL queries are not allowed here. Please add a search restriction to your query.',
			]);
		}
		const query = parseJql(body.jql);
		if ('error' in query) return jiraError(400, [query.error]);
		const matches: JiraIssue[] = [];
		for (const issue of this.issues) {
			const verdicts = query.clauses.map((clause) => this.matches(issue, clause));
			const unknownProject = verdicts.find((verdict) => typeof verdict === 'string');
			if (unknownProject !== undefined) return jiraError(400, [unknownProject as string]);
			if (verdicts.every(Boolean)) matches.push(issue);
		}
		const direction = query.order.direction === 'ASC' ? 1 : -1;
		const by = query.order.field;
		// Issues made in one millisecond still sort by creation.
		matches.sort(
			(a, b) => direction * (sortTime(a, by) - sortTime(b, by) || Number(a.id) - Number(b.id)),
		);

		const offset = body.nextPageToken === undefined ? 0 : readPageToken(body.nextPageToken);
		if (offset === undefined) return jiraError(400, ['The nextPageToken is invalid.']);
		const maxResults = Math.min(Number(body.maxResults ?? 50) || 50, MAX_RESULTS);
		const page = matches.slice(offset, offset + maxResults);
		const next = offset + page.length;
		const fields = Array.isArray(body.fields) ? body.fields.map(String) : [];
		return {
			status: 200,
			body: {
				issues: page.map((issue) => ({
					expand: '',
					id: issue.id,
					self: this.self(issue),
					key: issue.key,
					fields: this.fieldsOf(issue, fields),
				})),
				...(next < matches.length ? { nextPageToken: pageToken(next) } : {}),
				isLast: next >= matches.length,
			},
		};
	}

	/** true/false, or Jira's message for a project the JQL names that does not exist. */
	private matches(issue: JiraIssue, clause: JqlClause): boolean | string {
		const { field, operator, value } = clause;
		switch (field) {
			case 'labels':
				return operator === '=' ? issue.labels.includes(value) : !issue.labels.includes(value);
			case 'project': {
				const known = [this.project.id, this.project.key.toLowerCase()];
				if (!known.includes(value.toLowerCase())) {
					return `The value '${value}' does not exist for the field 'project'.`;
				}
				return operator === '=';
			}
			case 'key':
				return (issue.key === value.toUpperCase()) === (operator === '=');
			default: {
				const at = (field === 'created' ? issue.created : issue.updated).getTime();
				const bound = Date.parse(value.includes(':') ? `${value}Z` : `${value}T00:00:00Z`);
				return compare(at, operator, bound);
			}
		}
	}

	private addComment(
		issue: JiraIssue,
		version: '2' | '3',
		body: Record<string, unknown>,
	): ToolAnswer {
		const text = body.body;
		let adf: AdfNode | undefined;
		if (version === '2' && typeof text === 'string' && text.trim() !== '') adf = textToAdf(text);
		const doc = record(text);
		if (version === '3' && doc?.type === 'doc' && Array.isArray(doc.content)) {
			adf = doc as unknown as AdfNode;
			if (adfToText(adf).trim() === '') adf = undefined;
		}
		if (!adf) return jiraError(400, [], { comment: 'Comment body can not be empty!' });
		if (adfToText(adf).length > JIRA_TEXT_LIMIT) return jiraError(400, [], { comment: TOO_LONG });
		const comment: JiraComment = {
			id: String(++this.commentIds),
			body: adf,
			created: new Date(),
			postedWith: version,
		};
		issue.comments.push(comment);
		issue.updated = comment.created;
		return { status: 201, body: this.commentJson(issue, comment, version) };
	}

	private listComments(
		issue: JiraIssue,
		version: '2' | '3',
		query: Record<string, string>,
	): ToolAnswer {
		const startAt = Number(query.startAt ?? 0) || 0;
		const maxResults = Math.min(Number(query.maxResults ?? 5000) || 5000, 5000);
		return {
			status: 200,
			body: {
				startAt,
				maxResults,
				total: issue.comments.length,
				comments: issue.comments
					.slice(startAt, startAt + maxResults)
					.map((comment) => this.commentJson(issue, comment, version)),
			},
		};
	}

	private getIssue(issue: JiraIssue, query: Record<string, string>): Record<string, unknown> {
		const fields = this.fieldsOf(issue, query.fields ? query.fields.split(',') : ['*all']);
		const names = (query.expand ?? '').split(',').includes('names');
		return {
			expand: 'renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations',
			id: issue.id,
			self: this.self(issue),
			key: issue.key,
			fields,
			...(names
				? {
						names: Object.fromEntries(Object.keys(fields).map((name) => [name, FIELD_NAMES[name]])),
					}
				: {}),
		};
	}

	/** The fields Jira returns for `requested`: names, `*all`, `*navigable`, `-name` to leave out. */
	private fieldsOf(issue: JiraIssue, requested: string[]): Record<string, unknown> {
		const wanted = new Set<string>();
		for (const raw of requested) {
			const name = raw.trim();
			if (name === '*all') Object.keys(FIELD_NAMES).forEach((field) => wanted.add(field));
			else if (name === '*navigable') {
				Object.keys(FIELD_NAMES)
					.filter((field) => !NOT_NAVIGABLE.has(field))
					.forEach((field) => wanted.add(field));
			}
		}
		for (const raw of requested) {
			const name = raw.trim();
			if (name.startsWith('-')) wanted.delete(name.slice(1));
			else if (name in FIELD_NAMES) wanted.add(name);
		}
		const all = this.allFields(issue);
		return Object.fromEntries(
			[...wanted].filter((name) => name in all).map((name) => [name, all[name]]),
		);
	}

	private allFields(issue: JiraIssue): Record<string, unknown> {
		return {
			summary: issue.summary,
			description: issue.description,
			labels: issue.labels,
			comment: {
				comments: issue.comments.map((comment) => this.commentJson(issue, comment, '2')),
				self: `${this.self(issue)}/comment`,
				maxResults: issue.comments.length,
				total: issue.comments.length,
				startAt: 0,
			},
			created: jiraTime(issue.created),
			updated: jiraTime(issue.updated),
			status: {
				self: `${this.url}/rest/api/2/status/10000`,
				id: '10000',
				name: 'To Do',
				statusCategory: { id: 2, key: 'new', name: 'To Do', colorName: 'blue-gray' },
			},
			issuetype: this.issueType(issue.issueTypeId),
			project: {
				self: `${this.url}/rest/api/2/project/${this.project.id}`,
				...this.project,
				projectTypeKey: 'software',
			},
			...(issue.parentKey === undefined ? {} : { parent: { key: issue.parentKey } }),
			reporter: this.me(),
			assignee: null,
		};
	}

	private commentJson(issue: JiraIssue, comment: JiraComment, version: '2' | '3') {
		return {
			self: `${this.url}/rest/api/${version}/issue/${issue.id}/comment/${comment.id}`,
			id: comment.id,
			author: this.me(),
			body: version === '3' ? comment.body : adfToText(comment.body),
			updateAuthor: this.me(),
			created: jiraTime(comment.created),
			updated: jiraTime(comment.created),
			jsdPublic: true,
		};
	}

	private me() {
		return {
			self: `${this.url}/rest/api/2/user?accountId=5b10a2844c20165700ede21g`,
			accountId: '5b10a2844c20165700ede21g',
			accountType: 'atlassian',
			emailAddress: this.email,
			displayName: 'n8n Automation',
			active: true,
			timeZone: 'UTC',
		};
	}

	private issueType(id: string) {
		const type = ISSUE_TYPES.find((known) => known.id === id)!;
		return {
			self: `${this.url}/rest/api/2/issuetype/${id}`,
			...type,
			hierarchyLevel: type.subtask ? -1 : 0,
		};
	}

	private self(issue: JiraIssue): string {
		return `${this.url}/rest/api/2/issue/${issue.id}`;
	}
}

function jiraError(
	status: number,
	errorMessages: string[],
	errors: Record<string, string> = {},
): ToolAnswer {
	return { status, body: { errorMessages, errors } };
}

/** Jira's timestamps: `2024-03-01T12:34:56.789+0000`. */
function jiraTime(date: Date): string {
	return date.toISOString().replace('Z', '+0000');
}

/** One paragraph per line, as Jira turns a v2 (wiki) comment into a document. */
export function textToAdf(text: string): AdfNode {
	return {
		type: 'doc',
		version: 1,
		content: text.split('\n').map((line) => ({
			type: 'paragraph',
			...(line === '' ? {} : { content: [{ type: 'text', text: line }] }),
		})),
	};
}

/** A document's text, its paragraphs (and other blocks) one per line. */
export function adfToText(node: AdfNode): string {
	if (node.type === 'text') return node.text ?? '';
	if (node.type === 'hardBreak') return '\n';
	const parts = (node.content ?? []).map(adfToText);
	return node.type === 'paragraph' || node.type === 'text' ? parts.join('') : parts.join('\n');
}

export interface JqlClause {
	field: 'labels' | 'project' | 'key' | 'created' | 'updated';
	operator: string;
	value: string;
}

export interface JqlQuery {
	clauses: JqlClause[];
	order: { field: 'created' | 'updated' | 'key'; direction: 'ASC' | 'DESC' };
}

const OPERATORS: Record<JqlClause['field'], string[]> = {
	labels: ['=', '!='],
	project: ['='],
	key: ['=', '!='],
	created: ['=', '>', '>=', '<', '<='],
	updated: ['=', '>', '>=', '<', '<='],
};
const TOKEN = /\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|!=|>=|<=|[=<>]|[^\s"'=<>!]+)/y;

/**
 * The JQL this fake understands: clauses `field op value` joined by AND, then an optional
 * `ORDER BY created|updated|key [ASC|DESC]`. Fields: labels (= !=), project (=, key or id), key
 * (= !=), created and updated (= > >= < <=, "yyyy-MM-dd" or "yyyy-MM-dd HH:mm"). Values are
 * quoted or bare words. Anything else is an error, as Jira answers JQL it cannot parse.
 */
export function parseJql(jql: string): JqlQuery | { error: string } {
	const tokens: string[] = [];
	let parsed = 0;
	TOKEN.lastIndex = 0;
	for (let match = TOKEN.exec(jql); match; match = TOKEN.exec(jql)) {
		tokens.push(match[1]);
		parsed = TOKEN.lastIndex;
	}
	if (jql.slice(parsed).trim() !== '') {
		return {
			error: `Error in the JQL Query: the query could not be parsed at '${jql.slice(parsed).trim()}'.`,
		};
	}
	const clauses: JqlClause[] = [];
	const order: JqlQuery['order'] = { field: 'created', direction: 'DESC' };
	let at = 0;
	const word = (index: number) => tokens[index]?.toUpperCase();
	while (at < tokens.length && word(at) !== 'ORDER') {
		const [field, operator, value] = tokens.slice(at, at + 3);
		const name = field?.toLowerCase() as JqlClause['field'];
		if (!(name in OPERATORS)) {
			return { error: `Field '${field}' does not exist or you do not have permission to view it.` };
		}
		if (!OPERATORS[name].includes(operator) || value === undefined) {
			return {
				error: `Error in the JQL Query: the operator '${operator ?? ''}' is not supported here for the field '${field}'.`,
			};
		}
		clauses.push({ field: name, operator, value: unquote(value) });
		at += 3;
		if (word(at) === 'AND') at += 1;
		else if (at < tokens.length && word(at) !== 'ORDER') {
			return {
				error: `Error in the JQL Query: Expecting either 'AND' or 'ORDER BY' but got '${tokens[at]}'.`,
			};
		}
	}
	if (word(at) === 'ORDER') {
		const field = tokens[at + 2]?.toLowerCase();
		const direction = word(at + 3) ?? 'DESC';
		if (
			word(at + 1) !== 'BY' ||
			!['created', 'updated', 'key'].includes(field ?? '') ||
			!['ASC', 'DESC'].includes(direction) ||
			tokens.length > at + 4
		) {
			return { error: `Error in the JQL Query: the ORDER BY of '${jql}' is not supported.` };
		}
		order.field = field as JqlQuery['order']['field'];
		order.direction = direction as 'ASC' | 'DESC';
	}
	if (clauses.length === 0) {
		return {
			error:
				'Unbounded JQL queries are not allowed here. Please add a search restriction to your query.',
		};
	}
	return { clauses, order };
}

function unquote(value: string): string {
	return /^["']/.test(value) ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

function compare(at: number, operator: string, bound: number): boolean {
	if (operator === '>') return at > bound;
	if (operator === '>=') return at >= bound;
	if (operator === '<') return at < bound;
	if (operator === '<=') return at <= bound;
	return at === bound;
}

function sortTime(issue: JiraIssue, field: JqlQuery['order']['field']): number {
	if (field === 'key') return 0;
	return (field === 'created' ? issue.created : issue.updated).getTime();
}

function pageToken(offset: number): string {
	return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

function readPageToken(token: unknown): number | undefined {
	try {
		const offset = (
			JSON.parse(Buffer.from(String(token), 'base64url').toString('utf8')) as { offset?: unknown }
		).offset;
		return typeof offset === 'number' ? offset : undefined;
	} catch {
		return undefined;
	}
}
