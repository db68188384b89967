import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	createEndUser,
	seedDemoData,
	startFakeWootric,
	type FakeRequest,
	type FakeWootric,
} from '../fake';
import { allRoutes } from '../fake/resources';
import { routeKey } from '../fake/router';
import { runNode } from '../harness';
import {
	credentialsFor,
	OPERATIONS_ON_NO_RECORD,
	TriggerSession,
	VERSION_BEFORE_LOCATORS,
} from '../support/wootric';

/**
 * Three accounts of the Wootric API that must agree: the table of its endpoints written from its
 * spec and, for the v2 email statistics the spec lacks, from the service's documentation
 * (test/fake/endpoints.json), the routes the fake serves, and the requests the nodes send when
 * every operation and the polling trigger run through n8n's engine against the fake. (The webhook
 * trigger sends none: Wootric calls it.)
 */
interface Endpoint {
	section: string;
	method: string;
	path: string;
	note?: string;
}

const TABLE = (
	JSON.parse(readFileSync(join(__dirname, '../fake/endpoints.json'), 'utf8')) as {
		endpoints: Endpoint[];
	}
).endpoints;

const endpointName = ({ method, path }: Endpoint) => `${method} ${path}`;

/**
 * What the fake routes by: the table's `GET /v1/end_users/<email>?lookup_by_email=true` and the
 * fake's `GET /v1/end_users/:id` are both `GET /v1/end_users/:`.
 */
const routeShape = (methodAndPath: string) =>
	methodAndPath.split('?')[0].replace(/<[^>]+>|:\w+/g, ':');

const TABLE_SHAPES = new Set(TABLE.map((endpoint) => routeShape(endpointName(endpoint))));

/**
 * The fake's routes, and the token endpoint, which its server answers itself before routing (it
 * takes no access token). Its own calls (fake-admin.ts, under /_fake/: register a webhook, answer a
 * survey) are not the API's and have no place in the table.
 */
const FAKE_ROUTES = [...allRoutes.map(routeKey), 'POST /oauth/token'];

/** Whether a request the fake answered was one on `endpoint`, its lookup parameter included. */
function isOn(endpoint: Endpoint) {
	const shape = routeShape(endpointName(endpoint));
	const lookup = endpoint.path.split('?')[1];
	return (request: FakeRequest) =>
		request.route !== undefined &&
		routeShape(request.route) === shape &&
		(lookup ? request.rawQuery.includes(lookup) : !/lookup_by_/.test(request.rawQuery));
}

describe('the endpoint table and the fake', () => {
	it('lists each endpoint once', () => {
		const names = TABLE.map(endpointName);
		expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
	});

	it('the fake serves every endpoint of the table', () => {
		const served = new Set(FAKE_ROUTES.map(routeShape));
		expect(TABLE.map(endpointName).filter((name) => !served.has(routeShape(name)))).toEqual([]);
	});

	it('the fake serves nothing the table lacks', () => {
		expect(FAKE_ROUTES.filter((route) => !TABLE_SHAPES.has(routeShape(route)))).toEqual([]);
	});
});

describe('the nodes against the fake', () => {
	let fake: FakeWootric;
	const failedRuns: unknown[] = [];
	/** What the trigger emitted and the records added after its first poll, as [event, id]. */
	let triggered: unknown[][];
	let newRecords: unknown[][];

	beforeAll(async () => {
		fake = await startFakeWootric();
		seedDemoData(fake.store, fake.account);
		fake.account.historicalEditsEnabled = true;
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
			...OPERATIONS_ON_NO_RECORD,
		];
		for (const parameters of operations) {
			const run = await runNode({
				nodeType: 'wootric',
				nodeTypeVersion: VERSION_BEFORE_LOCATORS,
				parameters,
				credentials: credentialsFor(fake),
			});
			if (run.error) failedRuns.push([parameters, run.error.message]);
		}

		const trigger = new TriggerSession(fake, {
			events: ['response', 'responseUpdated', 'decline'],
			options: { includeEndUser: true },
		});
		await trigger.poll();
		const later = fake.clock.now() + 10;
		const newResponse = addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 2,
			createdAt: later,
		});
		const newDecline = addDecline(fake.account, fake.store, {
			endUserId: user.id,
			createdAt: later,
		});
		const poll = await trigger.poll();
		if (poll.error) failedRuns.push(['trigger', poll.error.message]);
		triggered = trigger.emitted.map((item) => [item.event, item.id]);
		newRecords = [
			['response', newResponse.id],
			['decline', newDecline.id],
		];
	});
	afterAll(async () => await fake.close());

	it('run every operation and poll the trigger without an error', () => {
		expect(failedRuns).toEqual([]);
		expect(triggered).toEqual(expect.arrayContaining(newRecords));
	});

	it('reach every endpoint of the table', () => {
		const answered = fake.requests.filter((request) => (request.status ?? 0) < 300);
		const unreached = TABLE.filter((endpoint) => !answered.some(isOn(endpoint)));
		expect(unreached.map(endpointName)).toEqual([]);
	});

	it('call no endpoint the table lacks', () => {
		const elsewhere = fake.requests.filter(
			(request) => request.route === undefined || !TABLE_SHAPES.has(routeShape(request.route)),
		);
		expect([...new Set(elsewhere.map((request) => `${request.method} ${request.path}`))]).toEqual(
			[],
		);
	});
});
