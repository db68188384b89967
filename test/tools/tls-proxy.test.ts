import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { dirname } from 'node:path';
import { fetch as undiciFetch, ProxyAgent } from 'undici';

import { FakeSlack } from '../../scripts/e2e/tools/slack';
import { ToolsProxy } from '../../scripts/e2e/tools/tls-proxy';
import { FakeZendesk } from '../../scripts/e2e/tools/zendesk';
import { basic } from './send';

/**
 * The proxy n8n's HTTPS_PROXY points at, with real sockets: https to slack.com and
 * acme.zendesk.com reaches the fakes through CONNECT, trusted through the test CA only; everything
 * else is refused and recorded.
 */
describe('ToolsProxy', () => {
	let slack: FakeSlack;
	let zendesk: FakeZendesk;
	let proxy: ToolsProxy;
	let agent: ProxyAgent;

	beforeAll(async () => {
		slack = new FakeSlack();
		zendesk = new FakeZendesk();
		await Promise.all([slack.listen(), zendesk.listen()]);
		proxy = await new ToolsProxy({
			'slack.com': slack.server,
			[zendesk.host]: zendesk.server,
		}).start();
		// Only the test CA: not the system's roots, so only the proxy's certificate can pass.
		agent = new ProxyAgent({
			uri: proxy.url,
			requestTls: { ca: readFileSync(proxy.caFile, 'utf8') },
		});
	});
	afterAll(async () => {
		await agent?.close();
		await proxy?.close();
		await Promise.all([slack?.close(), zendesk?.close()]);
	});

	it('tunnels https to each fake by its host, with a certificate the test CA signed', async () => {
		const fromSlack = await undiciFetch('https://slack.com/api/auth.test', {
			method: 'POST',
			headers: { authorization: `Bearer ${slack.token}` },
			dispatcher: agent,
		});
		const fromZendesk = await undiciFetch(
			'https://acme.zendesk.com/api/v2/tickets.json?external_id=x',
			{
				headers: { authorization: basic(`${zendesk.email}/token`, zendesk.apiToken) },
				dispatcher: agent,
			},
		);

		expect(await fromSlack.json()).toMatchObject({ ok: true });
		expect(await fromZendesk.json()).toEqual({
			tickets: [],
			next_page: null,
			previous_page: null,
			count: 0,
		});
		expect(slack.requests.map((request) => request.path)).toContain('/api/auth.test');
		expect(zendesk.requests.map((request) => request.query)).toContainEqual({ external_id: 'x' });
		expect(proxy.connects).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ method: 'CONNECT', host: 'slack.com', port: 443, allowed: true }),
				expect.objectContaining({
					method: 'CONNECT',
					host: 'acme.zendesk.com',
					port: 443,
					allowed: true,
				}),
			]),
		);
	});

	it('is not trusted without the test CA', async () => {
		const untrusting = new ProxyAgent({ uri: proxy.url });
		try {
			await expect(
				undiciFetch('https://slack.com/api/auth.test', { method: 'POST', dispatcher: untrusting }),
			).rejects.toThrow();
		} finally {
			await untrusting.close();
		}
	});

	it('refuses a CONNECT to any other host or port with 403, and a plain proxied request, recording each', async () => {
		const connect = async (target: string) =>
			await new Promise<number>((resolve, reject) => {
				const request = httpRequest(`${proxy.url}`, { method: 'CONNECT', path: target });
				request.on('connect', (response, socket) => {
					socket.destroy();
					resolve(response.statusCode ?? 0);
				});
				request.on('error', reject);
				request.end();
			});
		const plain = await new Promise<number>((resolve, reject) => {
			const request = httpRequest(proxy.url, {
				path: 'http://example.com/',
				headers: { host: 'example.com' },
			});
			request.on('response', (response) => {
				response.resume();
				resolve(response.statusCode ?? 0);
			});
			request.on('error', reject);
			request.end();
		});

		expect(await connect('example.com:443')).toBe(403);
		expect(await connect('slack.com:80')).toBe(403);
		expect(await connect('other.zendesk.com:443')).toBe(403);
		expect(plain).toBe(403);
		expect(proxy.refused.map(({ method, host, port }) => `${method} ${host}:${port}`)).toEqual([
			'GET example.com:80',
			'CONNECT example.com:443',
			'CONNECT slack.com:80',
			'CONNECT other.zendesk.com:443',
		]);
	});

	it('gives n8n the proxy, no proxy for local addresses, and the CA; close() removes its folder', async () => {
		const other = await new ToolsProxy({ 'slack.com': slack.server }).start();
		const env = other.n8nEnv();
		const folder = dirname(env.NODE_EXTRA_CA_CERTS);
		expect(existsSync(env.NODE_EXTRA_CA_CERTS)).toBe(true);
		await other.close();

		expect(env).toEqual({
			HTTPS_PROXY: other.url,
			https_proxy: other.url,
			NO_PROXY: 'localhost,127.0.0.1,::1',
			no_proxy: 'localhost,127.0.0.1,::1',
			NODE_EXTRA_CA_CERTS: expect.stringMatching(/ca\.pem$/),
		});
		expect(existsSync(folder)).toBe(false);
	});
});
