import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	createEndUser,
	seedDemoData,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import { runNode } from '../harness';
import { credentialsFor, VERSION_BEFORE_LOCATORS } from '../support/wootric';

/**
 * Every endpoint the spec names, read from the spec itself: table rows `| GET | /v1/… |` and prose
 * `GET /v1/…`.
 */
function specEndpoints(): string[] {
	const spec = readFileSync(
		path.resolve(__dirname, '../../../shared/spec/nps-service-api.md'),
		'utf8',
	);
	const rows = [...spec.matchAll(/^\| (GET|POST|PUT|DELETE) \| (\/v1\/[^ |]+) /gm)].map(
		(match) => `${match[1]} ${match[2]}`,
	);
	const prose = [...spec.matchAll(/\b(GET|POST|PUT|DELETE) (\/v1\/[a-z_]+)\b(?![/<])/g)].map(
		(match) => `${match[1]} ${match[2]}`,
	);
	const paths = [...spec.matchAll(/^Path: (\/v1\/\S+)\. /gm)].map((match) => `POST ${match[1]}`);
	return [...new Set([...rows, ...prose, ...paths])];
}

/** `GET /v1/end_users/<id>?lookup_by_email=true` → a test of a logged request. */
function matcher(endpoint: string) {
	const [method, target] = endpoint.split(' ');
	const [pathPattern, query] = target.split('?');
	const regex = new RegExp(`^${pathPattern.replace(/<[^>]+>/g, '[^/]+')}$`);
	return (request: { method: string; path: string; rawQuery: string }) =>
		request.method === method &&
		regex.test(request.path) &&
		(query ? request.rawQuery.includes(query) : !/lookup_by_/.test(request.rawQuery));
}

describe('every endpoint of the spec is reachable from an operation', () => {
	let fake: FakeWootric;

	beforeAll(async () => {
		fake = await startFakeWootric();
		seedDemoData(fake.store, fake.account);
		fake.account.historicalEditsEnabled = true;
	});
	afterAll(async () => await fake.close());

	it('runs one workflow per operation and the fake received a request on each endpoint', async () => {
		const user = createEndUser(fake.account, fake.store, 'cover@example.com', {
			externalId: 'crm-cover',
			phoneNumber: '+15550199',
		});
		const doomed = createEndUser(fake.account, fake.store, 'doomed@example.com');
		const response = addResponse(fake.account, fake.store, { endUserId: user.id, score: 3 });
		const decline = addDecline(fake.account, fake.store, { endUserId: user.id });
		const operations: INodeParameters[] = [
			{ resource: 'endUser', operation: 'create', email: 'new@example.com' },
			{
				resource: 'endUser',
				operation: 'update',
				endUserId: user.id,
				updateFields: { externalId: 'crm-cover-2' },
			},
			{ resource: 'endUser', operation: 'get', lookUpBy: 'id', endUserId: user.id },
			{ resource: 'endUser', operation: 'get', lookUpBy: 'email', email: user.email },
			{ resource: 'endUser', operation: 'get', lookUpBy: 'externalId', externalId: 'crm-cover-2' },
			{ resource: 'endUser', operation: 'get', lookUpBy: 'phoneNumber', phoneNumber: '+15550199' },
			{ resource: 'endUser', operation: 'getAll', returnAll: true },
			{ resource: 'endUser', operation: 'exportData', endUserId: user.id },
			{ resource: 'endUser', operation: 'delete', lookUpBy: 'email', email: doomed.email },
			{ resource: 'endUserSettings', operation: 'get', endUserId: user.id },
			{
				resource: 'endUserSettings',
				operation: 'update',
				endUserId: user.id,
				updateFields: { emailSurveys: false },
			},
			{
				resource: 'response',
				operation: 'create',
				endUserId: user.id,
				score: 9,
				ipAddress: '203.0.113.9',
				originUrl: 'https://x.example',
			},
			{ resource: 'response', operation: 'get', endUserId: user.id, responseId: response.id },
			{ resource: 'response', operation: 'getAll', scope: 'all', returnAll: true },
			...['all', 'promoters', 'passives', 'detractors'].map((category) => ({
				resource: 'response',
				operation: 'getAll',
				scope: 'endUser',
				endUserId: user.id,
				category,
				returnAll: true,
			})),
			{
				resource: 'response',
				operation: 'update',
				responseId: response.id,
				updateFields: { completed: true },
			},
			{ resource: 'response', operation: 'delete', endUserId: user.id, responseId: response.id },
			{ resource: 'decline', operation: 'create', endUserId: user.id },
			{ resource: 'decline', operation: 'get', endUserId: user.id, declineId: decline.id },
			{ resource: 'decline', operation: 'getAll', scope: 'all', returnAll: true },
			{
				resource: 'decline',
				operation: 'getAll',
				scope: 'endUser',
				endUserId: user.id,
				returnAll: true,
			},
			{
				resource: 'decline',
				operation: 'update',
				declineId: decline.id,
				endUserPropertiesJson: '{"plan":"pro"}',
				endUserPropertiesInput: 'json',
			},
			{ resource: 'decline', operation: 'delete', endUserId: user.id, declineId: decline.id },
			{ resource: 'npsSummary', operation: 'get' },
			{ resource: 'segment', operation: 'getAll' },
			{ resource: 'surveyTemplate', operation: 'getAll' },
		];
		for (const parameters of operations) {
			const run = await runNode({
				nodeType: 'wootric',
				nodeTypeVersion: VERSION_BEFORE_LOCATORS,
				parameters,
				credentials: credentialsFor(fake),
			});
			expect([parameters, run.error?.message]).toEqual([parameters, undefined]);
		}

		const endpoints = specEndpoints().filter((endpoint) => !endpoint.includes('/v1/email_survey'));
		expect(endpoints.length).toBe(29);
		const answered = fake.apiRequests().filter((request) => (request.status ?? 0) < 300);
		const unreached = endpoints.filter((endpoint) => !answered.some(matcher(endpoint)));
		expect(unreached).toEqual([]);
	});
});
