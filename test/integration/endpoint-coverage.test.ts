import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	addDecline,
	addResponse,
	seedDemoData,
	startFakeWootric,
	type FakeRequest,
	type FakeWootric,
} from '../fake';
import { allRoutes } from '../fake/resources';
import { routeKey } from '../fake/router';
import { runNode } from '../harness';
import { everyOperation } from '../support/every-operation';
import { credentialsFor, TriggerSession, VERSION_BEFORE_LOCATORS } from '../support/wootric';

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
		const { user, operations } = everyOperation(fake);
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
