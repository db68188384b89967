import { FakeJira } from '../../scripts/e2e/tools/jira';
import { basic, eachTest, send, type Answer } from './send';

interface SearchPage {
	issues: Array<{ id: string; key: string; fields: Record<string, unknown> }>;
	nextPageToken?: string;
	isLast: boolean;
}

/**
 * The fake Jira Cloud, over real HTTP, sent what n8n's Jira Software node (jiraVersion cloud,
 * Jira/GenericFunctions.js and Jira.node.js) sends: the same paths, headers and bodies.
 */
describe('FakeJira', () => {
	let jira: FakeJira;

	eachTest(() => (jira = new FakeJira()));

	/** As jiraSoftwareCloudApiRequest sends it: `${domain}/rest${endpoint}`, JSON, Basic auth. */
	async function node<Body = Record<string, unknown>>(
		method: string,
		endpoint: string,
		body?: unknown,
		auth = basic(jira.email, jira.apiToken),
	): Promise<Answer<Body>> {
		return await send<Body>(`${jira.credential.domain}/rest${endpoint}`, {
			method,
			headers: {
				accept: 'application/json',
				'content-type': 'application/json',
				'x-atlassian-token': 'no-check',
				authorization: auth,
			},
			body,
		});
	}

	/** The node's issue create: the issue types first, then the issue. */
	async function createIssue(fields: Record<string, unknown>) {
		await node('GET', '/api/2/issuetype');
		return await node<{ id: string; key: string; self: string }>('POST', '/api/2/issue', {
			fields: { project: { id: '10000' }, issuetype: { id: '10001' }, ...fields },
		});
	}

	it('answers the credential test, and 401 in Jira’s shape to a wrong token or none', async () => {
		const me = await node('GET', '/api/2/myself');
		const wrong = await node('GET', '/api/2/myself', undefined, basic(jira.email, 'nope'));
		const none = await send(`${jira.url}/rest/api/2/myself`);

		expect(me).toMatchObject({ status: 200, body: { emailAddress: jira.email, active: true } });
		for (const refused of [wrong, none]) {
			expect(refused).toEqual(
				jiraError(401, 'Client must be authenticated to access this resource.'),
			);
		}
		expect(jira.requests.map((request) => request.status)).toEqual([200, 401, 401]);
	});

	it('lists a Task and a Sub-task; creates an issue as the node sends it: 201 {id, key, self}', async () => {
		const types = await node<Array<{ id: string; name: string; subtask: boolean }>>(
			'GET',
			'/api/2/issuetype',
		);
		const created = await node('POST', '/api/2/issue', {
			fields: {
				summary: 'Detractor: pat@example.com scored 2',
				project: { id: '10000' },
				issuetype: { id: '10001' },
				labels: ['wootric-response-7'],
				description: 'Score: 2\nComment: slow\nref: wootric-comment-0123456789ab',
			},
		});

		expect(types.body.map(({ id, name, subtask }) => ({ id, name, subtask }))).toEqual([
			{ id: '10001', name: 'Task', subtask: false },
			{ id: '10002', name: 'Sub-task', subtask: true },
		]);
		expect(created).toEqual({
			status: 201,
			body: { id: '10001', key: 'OPS-1', self: `${jira.url}/rest/api/2/issue/10001` },
		});
		expect(jira.counts).toEqual({ issues: 1, comments: 0 });
		expect(jira.withLabel('wootric-response-7').map((issue) => issue.key)).toEqual(['OPS-1']);
		expect(jira.requests[1]).toMatchObject({
			method: 'POST',
			path: '/rest/api/2/issue',
			body: { fields: { labels: ['wootric-response-7'] } },
			status: 201,
		});
	});

	it('refuses a create as Jira does: no summary, unknown project or type, a spaced label, a sub-task without parent', async () => {
		const answers = [
			await createIssue({ summary: '' }),
			await createIssue({ summary: 'x', project: { id: '99999' } }),
			await createIssue({ summary: 'x', issuetype: { id: '777' } }),
			await createIssue({ summary: 'x', labels: ['wootric response 7'] }),
			await createIssue({ summary: 'x', issuetype: { id: '10002' } }),
		];

		expect(answers.map(({ status, body }) => ({ status, body }))).toEqual([
			{
				status: 400,
				body: {
					errorMessages: [],
					errors: { summary: 'You must specify a summary of the issue.' },
				},
			},
			{
				status: 400,
				body: { errorMessages: [], errors: { project: 'valid project is required' } },
			},
			{
				status: 400,
				body: { errorMessages: [], errors: { issuetype: 'valid issue type is required' } },
			},
			{
				status: 400,
				body: {
					errorMessages: [],
					errors: { labels: "The label 'wootric response 7' contains spaces which is invalid." },
				},
			},
			{
				status: 400,
				body: {
					errorMessages: [],
					errors: {
						issuetype: 'Issue type is a sub-task but parent issue key or id not specified.',
					},
				},
			},
		]);
		expect(jira.counts.issues).toBe(0);
	});

	it('refuses a description or a comment over 32,767 characters (400), as Jira does', async () => {
		const limit = 'x'.repeat(32_767);
		const fits = await createIssue({ summary: 'x', description: limit });
		const over = await createIssue({ summary: 'x', description: `${limit}x` });
		const commented = await node('POST', `/api/2/issue/${fits.body.key}/comment`, { body: limit });
		const overComment = await node('POST', `/api/2/issue/${fits.body.key}/comment`, {
			body: `${limit}x`,
		});

		const tooLong =
			'The entered text is too long. It exceeds the allowed limit of 32,767 characters.';
		expect([fits.status, commented.status]).toEqual([201, 201]);
		expect([over, overComment].map(({ status, body }) => ({ status, body }))).toEqual([
			{ status: 400, body: { errorMessages: [], errors: { description: tooLong } } },
			{ status: 400, body: { errorMessages: [], errors: { comment: tooLong } } },
		]);
		expect(jira.counts).toEqual({ issues: 1, comments: 1 });
	});

	it('finds an issue by label as the node’s getAll (limit) asks: only the fields named, comment included', async () => {
		await createIssue({ summary: 'one', labels: ['wootric-response-7'], description: 'Score: 2' });
		await createIssue({ summary: 'two', labels: ['wootric-response-8'] });

		const found = await node<SearchPage>('POST', '/api/2/search/jql', {
			fields: 'summary,labels,description,comment'.split(','),
			jql: 'labels = "wootric-response-7"',
			maxResults: 1,
		});
		const bare = await node<SearchPage>('POST', '/api/2/search/jql', {
			fields: ['*navigable'],
			jql: 'labels = wootric-response-8 AND project = OPS',
			maxResults: 50,
		});

		expect(found.status).toBe(200);
		expect(found.body.isLast).toBe(true);
		expect(found.body.issues.map((issue) => issue.key)).toEqual(['OPS-1']);
		expect(found.body.issues[0].fields).toEqual({
			summary: 'one',
			labels: ['wootric-response-7'],
			description: 'Score: 2',
			comment: {
				comments: [],
				self: `${jira.url}/rest/api/2/issue/10001/comment`,
				maxResults: 0,
				total: 0,
				startAt: 0,
			},
		});
		expect(bare.body.issues.map((issue) => issue.key)).toEqual(['OPS-2']);
		// *navigable: the comment field is not navigable, so a default search leaves it out.
		expect(Object.keys(bare.body.issues[0].fields).sort()).toEqual([
			'assignee',
			'created',
			'description',
			'issuetype',
			'labels',
			'project',
			'reporter',
			'status',
			'summary',
			'updated',
		]);
	});

	it('pages getAll’s returnAll with nextPageToken, in the JQL’s order; the empty JQL’s default matches all', async () => {
		for (const summary of ['a', 'b', 'c']) await createIssue({ summary });
		const keys: string[] = [];
		const body: Record<string, unknown> = {
			fields: ['summary'],
			jql: 'project = OPS ORDER BY created ASC',
			maxResults: 2,
		};
		let page: SearchPage;
		do {
			page = (await node<SearchPage>('POST', '/api/2/search/jql', body)).body;
			keys.push(...page.issues.map((issue) => issue.key));
			body.nextPageToken = page.nextPageToken;
		} while (page.nextPageToken);
		const all = await node<SearchPage>('POST', '/api/2/search/jql', {
			fields: ['*navigable'],
			jql: 'created >= "1970-01-01"',
			maxResults: 50,
		});

		expect(keys).toEqual(['OPS-1', 'OPS-2', 'OPS-3']);
		expect(jira.requests.filter((request) => request.path.endsWith('/search/jql')).length).toBe(3);
		expect(all.body.issues.map((issue) => issue.key)).toEqual(['OPS-3', 'OPS-2', 'OPS-1']);
	});

	it('answers JQL it does not model, and a project that does not exist, with 400 errorMessages', async () => {
		await createIssue({ summary: 'a' });
		const answers = await Promise.all(
			[
				'summary ~ "slow"',
				'labels in (a, b)',
				'project = NOPE',
				'labels = "x" OR labels = "y"',
				'',
			].map(
				async (jql) =>
					await node('POST', '/api/2/search/jql', { jql, fields: ['*navigable'], maxResults: 1 }),
			),
		);

		for (const answer of answers) {
			expect(answer.status).toBe(400);
			expect(answer.body.errorMessages).toEqual([expect.any(String)]);
		}
		expect(answers[2].body.errorMessages).toEqual([
			"The value 'NOPE' does not exist for the field 'project'.",
		]);
	});

	it('adds comments as the node does (cloud: v3 ADF; wikiMarkup: v2 text) and shows each version’s body', async () => {
		const { body: issue } = await createIssue({ summary: 'a', labels: ['wootric-response-7'] });
		const adf = {
			type: 'doc',
			version: 1,
			content: [
				{ type: 'paragraph', content: [{ type: 'text', text: 'slow\nref: wootric-comment-abc' }] },
			],
		};
		const v3 = await node('POST', `/api/3/issue/${issue.key}/comment`, { body: adf });
		const v2 = await node('POST', `/api/2/issue/${issue.key}/comment`, {
			wikiMarkup: true,
			body: 'plain one',
		});
		const listed3 = await send<{ comments: Array<{ body: unknown }>; total: number }>(
			`${jira.url}/rest/api/3/issue/${issue.key}/comment?startAt=0&maxResults=100`,
			{ headers: { authorization: basic(jira.email, jira.apiToken) } },
		);
		const listed2 = await node<{ comments: Array<{ body: unknown }> }>(
			'GET',
			`/api/2/issue/${issue.id}/comment`,
		);
		const searched = await node<SearchPage>('POST', '/api/2/search/jql', {
			fields: ['comment'],
			jql: 'labels = "wootric-response-7"',
			maxResults: 1,
		});

		expect(v3).toMatchObject({ status: 201, body: { id: '10001', body: adf } });
		expect(v2).toMatchObject({ status: 201, body: { id: '10002', body: 'plain one' } });
		expect(listed3.body.total).toBe(2);
		expect(listed3.body.comments.map((comment) => comment.body)).toEqual([
			adf,
			{
				type: 'doc',
				version: 1,
				content: [{ type: 'paragraph', content: [{ type: 'text', text: 'plain one' }] }],
			},
		]);
		expect(listed2.body.comments.map((comment) => comment.body)).toEqual([
			'slow\nref: wootric-comment-abc',
			'plain one',
		]);
		expect(JSON.stringify(searched.body.issues[0].fields)).toContain('ref: wootric-comment-abc');
		expect(jira.counts).toEqual({ issues: 1, comments: 2 });
	});

	it('refuses an empty comment (400) and a comment on, or a get of, an issue that does not exist (404)', async () => {
		await createIssue({ summary: 'a' });
		const empty = await node('POST', '/api/3/issue/OPS-1/comment', {
			body: { type: 'doc', version: 1, content: [] },
		});
		const missing = await node('POST', '/api/3/issue/OPS-9/comment', { body: 'x' });
		const get = await node('GET', '/api/2/issue/OPS-9');

		expect(empty).toEqual({
			status: 400,
			body: { errorMessages: [], errors: { comment: 'Comment body can not be empty!' } },
		});
		for (const answer of [missing, get]) {
			expect(answer).toEqual(
				jiraError(404, 'Issue does not exist or you do not have permission to see it.'),
			);
		}
	});

	it('gets an issue by key with the node’s simplify (expand=names) and by id with fields', async () => {
		await createIssue({ summary: 'a', labels: ['x'] });
		const simplified = await node<{
			key: string;
			fields: Record<string, unknown>;
			names: Record<string, string>;
		}>('GET', `/api/2/issue/ops-1?expand=${encodeURIComponent(',names')}`);
		const some = await node<{ fields: Record<string, unknown> }>(
			'GET',
			'/api/2/issue/10001?fields=summary,labels',
		);

		expect(simplified.status).toBe(200);
		expect(simplified.body.key).toBe('OPS-1');
		expect(simplified.body.names).toMatchObject({
			summary: 'Summary',
			labels: 'Labels',
			comment: 'Comment',
		});
		expect(simplified.body.fields.comment).toMatchObject({ total: 0 });
		expect(some.body.fields).toEqual({ summary: 'a', labels: ['x'] });
	});
});

/** What Jira answers a request it refuses as a whole. */
function jiraError(status: number, message: string): Answer {
	return { status, body: { errorMessages: [message], errors: {} } };
}
