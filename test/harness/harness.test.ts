import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { REPO_ROOT, loadPackage, runNode, runPoll } from '.';

const FIXTURE_PACKAGE = join(__dirname, '..', 'fixtures', 'poll-package');

interface ReceivedRequest {
	method: string;
	url: URL;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

interface TestApi {
	baseUrl: string;
	requests: ReceivedRequest[];
	close(): Promise<void>;
}

/** A throwaway HTTP API on 127.0.0.1 that records every request and lets `respond` answer it. */
async function startApi(
	respond: (request: ReceivedRequest, response: ServerResponse) => void,
): Promise<TestApi> {
	const requests: ReceivedRequest[] = [];
	const server = createServer((incoming, response) => {
		let body = '';
		incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
		incoming.on('end', () => {
			const request = {
				method: incoming.method ?? '',
				url: new URL(incoming.url ?? '/', 'http://api'),
				headers: incoming.headers,
				body,
			};
			requests.push(request);
			respond(request, response);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readManifest(directory: string): {
	name: string;
	n8n: { nodes: string[]; credentials: string[] };
} {
	return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
}

describe('loadPackage', () => {
	it.each([
		['this package (built)', REPO_ROOT],
		['the fixture package', FIXTURE_PACKAGE],
	])(
		'loads exactly the node and credential types of the n8n manifest of %s',
		async (_, directory) => {
			const manifest = readManifest(directory);

			const loaded = await loadPackage(directory);

			expect(loaded.name).toBe(manifest.name);
			expect(
				Object.values(loaded.nodeTypes)
					.map(({ sourcePath }) => sourcePath)
					.sort(),
			).toEqual([...manifest.n8n.nodes].sort());
			expect(
				Object.values(loaded.credentialTypes)
					.map(({ sourcePath }) => sourcePath)
					.sort(),
			).toEqual([...manifest.n8n.credentials].sort());
			for (const [typeName, { type }] of Object.entries(loaded.nodeTypes)) {
				expect(typeName).toBe(`${manifest.name}.${type.description.name}`);
			}
			expect(await loadPackage(directory)).toBe(loaded);
		},
	);
});

describe('runNode', () => {
	const segments = [
		{ id: 1, name: 'Promoters' },
		{ id: 2, name: 'Detractors' },
	];
	let api: TestApi;
	let issuedTokens: number;
	let unauthorizedAnswersLeft: number;

	beforeEach(async () => {
		issuedTokens = 0;
		unauthorizedAnswersLeft = 0;
		api = await startApi((request, response) => {
			if (request.method === 'POST' && request.url.pathname === '/oauth/token') {
				issuedTokens++;
				return sendJson(response, 200, {
					access_token: `token-${issuedTokens}`,
					refresh_token: `refresh-${issuedTokens}`,
				});
			}
			if (request.method === 'GET' && request.url.pathname === '/v1/segments') {
				const isCurrentToken = request.headers.authorization === `Bearer token-${issuedTokens}`;
				if (!isCurrentToken || unauthorizedAnswersLeft-- > 0)
					return sendJson(response, 401, { error: 'invalid_token' });
				return sendJson(response, 200, segments);
			}
			sendJson(response, 404, { error: 'not_found' });
		});
	});

	afterEach(async () => await api.close());

	const wootricCredentials = () => ({
		grantType: 'password',
		email: 'ops@example.com',
		password: 'secret',
		region: 'custom',
		baseUrl: api.baseUrl,
	});

	it('gets a token through preAuthentication, saves it, and sends it as a Bearer token', async () => {
		const run = await runNode({
			nodeType: 'wootric',
			parameters: { resource: 'segment', operation: 'getAll' },
			credentials: wootricCredentials(),
			inputItems: [{ json: { input: 0 } }, { json: { input: 1 } }],
		});

		expect(run.error).toBeUndefined();
		expect(run.items).toEqual([
			{ json: segments[0], pairedItem: { item: 0 } },
			{ json: segments[1], pairedItem: { item: 0 } },
			{ json: segments[0], pairedItem: { item: 1 } },
			{ json: segments[1], pairedItem: { item: 1 } },
		]);
		const [tokenRequest, ...segmentRequests] = api.requests;
		expect(Object.fromEntries(new URLSearchParams(tokenRequest.body))).toEqual({
			grant_type: 'password',
			username: 'ops@example.com',
			password: 'secret',
		});
		expect(segmentRequests.map(({ headers }) => headers.authorization)).toEqual([
			'Bearer token-1',
			'Bearer token-1',
		]);
		expect(run.credentialsHelper.preAuthenticationRuns).toBe(1);
		expect(run.credentialsHelper.updates).toEqual([
			{
				id: run.credentialId,
				type: 'wootricApi',
				data: {
					...wootricCredentials(),
					accessToken: 'token-1',
					refreshToken: 'refresh-1',
					issuedForSignIn: expect.any(String),
				},
			},
		]);
	});

	it('reuses the saved token in a later run, and after a 401 gets a new one and retries', async () => {
		const firstRun = await runNode({
			nodeType: 'wootric',
			parameters: { resource: 'segment', operation: 'getAll' },
			credentials: wootricCredentials(),
		});
		unauthorizedAnswersLeft = 1;

		const run = await runNode({
			nodeType: 'wootric',
			parameters: { resource: 'segment', operation: 'getAll' },
			credentialsHelper: firstRun.credentialsHelper,
			credentialId: firstRun.credentialId,
		});

		expect(run.error).toBeUndefined();
		expect(run.items.map(({ json }) => json)).toEqual(segments);
		const secondRunRequests = api.requests.slice(2);
		expect(
			secondRunRequests.map(({ method, url, headers }) => [
				method,
				url.pathname,
				headers.authorization,
			]),
		).toEqual([
			['GET', '/v1/segments', 'Bearer token-1'],
			['POST', '/oauth/token', undefined],
			['GET', '/v1/segments', 'Bearer token-2'],
		]);
		expect(Object.fromEntries(new URLSearchParams(secondRunRequests[1].body))).toEqual({
			grant_type: 'refresh_token',
			refresh_token: 'refresh-1',
		});
		expect(run.credentialsHelper.preAuthenticationRuns).toBe(2);
		expect(await run.credentialsHelper.getCredentialData(run.credentialId!)).toMatchObject({
			accessToken: 'token-2',
			refreshToken: 'refresh-2',
		});
	});

	it("returns the node's error, or error items when it continues on fail", async () => {
		const credentials = { ...wootricCredentials(), baseUrl: `${api.baseUrl}/missing` };

		const parameters = { resource: 'segment', operation: 'getAll' };
		const failed = await runNode({ nodeType: 'wootric', parameters, credentials });
		const continued = await runNode({
			nodeType: 'wootric',
			parameters,
			credentials,
			continueOnFail: true,
		});

		expect(failed.error).toMatchObject({
			node: { name: 'Wootric' },
			message: expect.stringContaining('404'),
		});
		expect(failed.items).toEqual([]);
		expect(continued.error).toBeUndefined();
		expect(continued.items).toEqual([
			{ json: { error: failed.error!.message }, pairedItem: { item: 0 } },
		]);
	});

	it('hands binary input to the node through n8n binary data storage', async () => {
		const run = await runNode({
			packageDir: FIXTURE_PACKAGE,
			nodeType: 'fileText',
			inputItems: [
				{
					json: {},
					binary: {
						data: { content: 'email,score\na@example.com,9\n', fileName: 'responses.csv' },
					},
				},
			],
		});

		expect(run.error).toBeUndefined();
		expect(run.items).toEqual([
			{
				json: {
					fileName: 'responses.csv',
					mimeType: 'text/csv',
					text: 'email,score\na@example.com,9\n',
				},
				pairedItem: { item: 0 },
			},
		]);
		const sourceItem = run.runData['Items Source'][0].data?.main[0]?.[0];
		expect(sourceItem?.binary?.data.id).toMatch(/^filesystem-v2:/);
	});
});

describe('runPoll', () => {
	let api: TestApi;
	let events: IDataObject[];

	beforeEach(async () => {
		events = [{ id: 1 }, { id: 2 }];
		api = await startApi((request, response) => {
			if (request.headers['x-api-key'] !== 'key-1')
				return sendJson(response, 401, { error: 'bad key' });
			if (request.url.pathname !== '/events') return sendJson(response, 500, { error: 'boom' });
			const after = Number(request.url.searchParams.get('after'));
			sendJson(
				response,
				200,
				events.filter(({ id }) => Number(id) > after),
			);
		});
	});

	afterEach(async () => await api.close());

	const poll = (mode: 'manual' | 'trigger', staticData: IDataObject, path = '/events') =>
		runPoll({
			packageDir: FIXTURE_PACKAGE,
			nodeType: 'counterTrigger',
			parameters: { url: `${api.baseUrl}${path}` },
			credentials: { apiKey: 'key-1' },
			mode,
			staticData,
		});

	it('keeps static data from one scheduled poll to the next', async () => {
		const staticData: IDataObject = {};

		const first = await poll('trigger', staticData);
		expect(first.error).toBeUndefined();
		expect(first.staticDataChanged).toBe(true);
		expect(first.result).toEqual([[{ json: { id: 1 } }, { json: { id: 2 } }]]);
		expect(staticData).toEqual({ lastSeenId: 2, pollCount: 1 });

		const second = await poll('trigger', staticData);
		expect(second.result).toBeNull();
		expect(staticData).toEqual({ lastSeenId: 2, pollCount: 2 });

		events.push({ id: 3 });
		const third = await poll('trigger', staticData);
		expect(third.result).toEqual([[{ json: { id: 3 } }]]);
		expect(staticData).toEqual({ lastSeenId: 3, pollCount: 3 });
		expect(api.requests.map(({ url }) => url.searchParams.get('after'))).toEqual(['0', '2', '2']);
	});

	it('runs a manual poll ("Fetch Test Event") without saving static data', async () => {
		const staticData: IDataObject = { lastSeenId: 2, pollCount: 5 };

		const run = await poll('manual', staticData);

		expect(run.error).toBeUndefined();
		expect(run.result?.[0].map(({ json }) => json)).toEqual([{ id: 2 }]);
		expect(run.staticDataChanged).toBe(false);
		expect(staticData).toEqual({ lastSeenId: 2, pollCount: 5 });

		events.length = 0;
		expect((await poll('manual', staticData)).result).toBeNull();
	});

	it('returns the error a scheduled poll throws', async () => {
		const staticData: IDataObject = { lastSeenId: 1, pollCount: 1 };

		const run = await poll('trigger', staticData, '/broken');

		expect(run.result).toBeNull();
		expect(run.error).toMatchObject({ name: 'NodeApiError', httpCode: '500' });
		expect(staticData).toEqual({ lastSeenId: 1, pollCount: 1 });
	});
});
