import { createEndUser, startFakeWootric, type FakeWootric } from '../index';
import type { Region } from '../store';
import { RawClient } from './client';
import { clientCredentialsForm, errorList, passwordGrantForm } from './setup';

/** How the service's SDKs tell the region from an account token (API-FACTS). */
const regionOf = (accountToken: string): Region => {
	const match = /^NPS-(EU-|AU-)/.exec(accountToken);
	return match ? (match[1] === 'EU-' ? 'eu' : 'au') : 'us';
};

describe('one fake per region, running at once', () => {
	const regions: Region[] = ['us', 'eu', 'au'];
	let fakes: Record<Region, FakeWootric>;
	let clients: Record<Region, RawClient>;
	beforeAll(async () => {
		const started = await Promise.all(regions.map((region) => startFakeWootric({ region })));
		fakes = { us: started[0], eu: started[1], au: started[2] };
		clients = {
			us: new RawClient(fakes.us),
			eu: new RawClient(fakes.eu),
			au: new RawClient(fakes.au),
		};
	});
	afterAll(() => Promise.all(regions.map((region) => fakes[region].close())));

	it('listens on three different ephemeral ports of 127.0.0.1', () => {
		const urls = regions.map((region) => fakes[region].baseUrl);
		for (const url of urls) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(new Set(urls).size).toBe(3);
	});

	it('has a default account whose token names its region', () => {
		expect(regions.map((region) => fakes[region].account.token)).toEqual([
			'NPS-0a1b2c3d',
			'NPS-EU-0a1b2c3d',
			'NPS-AU-0a1b2c3d',
		]);
		expect(regions.map((region) => fakes[region].credentials.accountToken)).toEqual([
			'NPS-0a1b2c3d',
			'NPS-EU-0a1b2c3d',
			'NPS-AU-0a1b2c3d',
		]);
		for (const region of regions) {
			expect(regionOf(fakes[region].account.token)).toBe(region);
			expect(fakes[region].store.region).toBe(region);
		}
	});

	it('issues tokens in each region that work there and are refused by the others with 401', async () => {
		const tokens = Object.fromEntries(
			await Promise.all(regions.map(async (region) => [region, await clients[region].token()])),
		) as Record<Region, string>;
		for (const server of regions) {
			for (const issuer of regions) {
				const reply = await clients[server].get('/v1/segments', '', {
					authorization: `Bearer ${tokens[issuer]}`,
				});
				expect([server, issuer, reply.status]).toEqual([
					server,
					issuer,
					server === issuer ? 200 : 401,
				]);
				if (server !== issuer) {
					expect(reply.body).toEqual(
						errorList('unauthorized', 'The access token is invalid', null),
					);
				}
			}
		}
	});

	it('knows only its own logins and clients', async () => {
		const usLoginOnEu = await clients.eu.send('POST', '/oauth/token', {
			form: passwordGrantForm(fakes.us.credentials),
			auth: false,
		});
		expect([usLoginOnEu.status, usLoginOnEu.body.error]).toEqual([400, 'invalid_grant']);
		const auClientOnUs = await clients.us.send('POST', '/oauth/token', {
			form: clientCredentialsForm(fakes.au.credentials),
			auth: false,
		});
		expect([auClientOnUs.status, auClientOnUs.body.error]).toEqual([401, 'invalid_client']);
		expect(regions.map((region) => fakes[region].credentials.email)).toEqual([
			'owner@us.example.com',
			'owner@eu.example.com',
			'owner@au.example.com',
		]);
	});

	it('keeps data and request logs apart', async () => {
		createEndUser(fakes.eu.account, fakes.eu.store, 'eu-only@example.com');
		const emails = async (region: Region) =>
			(await clients[region].get('/v1/end_users')).body.map(
				(user: { email: string }) => user.email,
			);
		expect(await emails('eu')).toEqual(['eu-only@example.com']);
		expect(await emails('us')).toEqual([]);
		expect(await emails('au')).toEqual([]);
		const created = await clients.au.post('/v1/end_users', 'email=au-only%40example.com');
		expect(created.status).toBe(201);
		expect(await emails('au')).toEqual(['au-only@example.com']);
		expect(await emails('eu')).toEqual(['eu-only@example.com']);
		expect(fakes.au.requestsTo('/v1/end_users', 'POST')).toHaveLength(1);
		expect(fakes.us.requestsTo('/v1/end_users', 'POST')).toHaveLength(0);
	});

	it('has a clock per instance', () => {
		fakes.eu.clock.advance(3600);
		expect(fakes.eu.clock.now() - fakes.us.clock.now()).toBeGreaterThanOrEqual(3599);
		fakes.eu.clock.advance(-3600);
	});
});
