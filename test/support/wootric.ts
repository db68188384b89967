import path from 'node:path';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { addResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import {
	loadPackage,
	replaceContents,
	REPO_ROOT,
	requireBuilt,
	runNode,
	runPoll,
	type InMemoryCredentialsHelper,
	type RunNodeOptions,
} from '../harness';

/**
 * The built transport's defaults (dist/, the files the harness runs). Loads nothing else, so
 * useFastRetries can still replace them.
 */
const DEFAULTS_MODULE = path.join(REPO_ROOT, 'dist/nodes/Wootric/transport/defaults');
type Defaults = typeof import('../../nodes/Wootric/transport/defaults');

/**
 * How the built node reads lists: how many pages of a list may be on their way at once. Request
 * bounds are read from it.
 */
export const listReading = Object.freeze({
	pagesInFlight: requireBuilt<Defaults>(DEFAULTS_MODULE).DEFAULT_PAGES_IN_FLIGHT,
});

/**
 * At most this many requests read N records of a list: ceil(N/50) + ceil(N/1500) + the pages in
 * flight (those asked for ahead of the end).
 */
export const listRequestBound = (records: number) =>
	Math.ceil(records / 50) + Math.ceil(records / 1500) + listReading.pagesInFlight;

/**
 * The Wootric node's version before the resource locators of 1.2. The suites written for it address
 * end users and survey templates with its fields (End User ID, Look Up By, Survey Template Name or
 * ID), which workflows saved with versions 1 and 1.1 keep; the locators have their own suite.
 */
export const VERSION_BEFORE_LOCATORS = 1.1;

/**
 * The parameters of a Wootric node of that version as n8n reads them when it loads the workflow:
 * what the version does not show is dropped, defaults are added, and a noDataExpression parameter
 * loses its leading `=`.
 */
export async function parametersAsLoaded(
	typeVersion: number,
	parameters: INodeParameters,
): Promise<INodeParameters> {
	const { description } = (await loadPackage()).nodeTypes['n8n-nodes-wootric.wootric']
		.type as INodeType;
	const node = { parameters, typeVersion } as INode;
	return (
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? {}
	);
}

/** A "Wootric API" credential for a fake instance, password grant by default. */
export function credentialsFor(
	fake: FakeWootric,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	const { email, password } = fake.credentials;
	return {
		grantType: 'password',
		email,
		password,
		region: 'custom',
		baseUrl: fake.baseUrl,
		...overrides,
	};
}

export function clientCredentialsFor(
	fake: FakeWootric,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	const { clientId, clientSecret } = fake.credentials;
	return credentialsFor(fake, {
		grantType: 'clientCredentials',
		email: '',
		password: '',
		clientId,
		clientSecret,
		...overrides,
	});
}

/**
 * Runs the Wootric node through n8n's engine against the running test's fake (`fake` is called at
 * run time, as every test starts its own), with `fixed` parameters (the resource, perhaps the
 * operation) under the ones each run gives; the node's latest version unless `nodeTypeVersion` says.
 */
export function wootricRunner(
	fake: () => FakeWootric,
	fixed: INodeParameters,
	nodeTypeVersion?: number,
) {
	return async (
		parameters: INodeParameters = {},
		options: Pick<RunNodeOptions, 'continueOnFail' | 'inputItems'> = {},
	) =>
		await runNode({
			nodeType: 'wootric',
			nodeTypeVersion,
			parameters: { ...fixed, ...parameters },
			credentials: credentialsFor(fake()),
			...options,
		});
}

/**
 * A Created filter of Get Many: after `after` and up to `until` inclusive, both in seconds; `until`
 * is given as ISO text, so that one filter reads both forms a time may take.
 */
export const createdAfterUntil = (after: number, until: number) => ({
	conditions: [
		{ comparison: 'gt', time: after },
		{ comparison: 'lte', time: new Date(until * 1000).toISOString() },
	],
});

/**
 * The data requests the fake received (sign-ins left out): method, path, query, body and status of
 * each.
 */
export function requestsSeen(fake: FakeWootric) {
	return fake.apiRequests().map(({ method, path, rawQuery, rawBody, status }) => ({
		method,
		path,
		rawQuery,
		rawBody,
		status,
	}));
}

/**
 * The output item of an item whose record Wootric does not have (a 404), with Continue On Fail;
 * `subject` as the error names the record, e.g. "end user 7".
 */
export const notFoundItem = (subject: string, item: number) => ({
	json: {
		error: `The ${subject} was not found in Wootric`,
		description: 'Wootric says: The record could not be found.',
	},
	pairedItem: { item },
});

/** The only data request the fake received; the test fails when there were none or several. */
export function onlyRequest(fake: FakeWootric) {
	const requests = fake.apiRequests();
	expect(requests).toHaveLength(1);
	return requests[0];
}

/**
 * Stores `count` responses of one end user, one second apart from `start`, except that the records
 * numbered in `cluster` (0-based, e.g. 1441..1560) all share one second. Scores cycle 0..10.
 */
export function seedResponses(
	fake: FakeWootric,
	count: number,
	options: { start?: number; cluster?: [number, number] } = {},
) {
	const user = createEndUser(fake.account, fake.store, `person${fake.store.nextId()}@example.com`);
	const start = options.start ?? fake.clock.now() - count - 100;
	const [clusterFrom, clusterTo] = options.cluster ?? [Infinity, -Infinity];
	const responses = [];
	for (let index = 0; index < count; index++) {
		const offset =
			index < clusterFrom
				? index
				: index <= clusterTo
					? clusterFrom
					: index - (clusterTo - clusterFrom);
		responses.push(
			addResponse(fake.account, fake.store, {
				endUserId: user.id,
				score: index % 11,
				createdAt: start + offset,
			}),
		);
	}
	return { user, responses };
}

/** Every string a run must never show: passwords, secrets and the tokens the fake issued. */
export function secretsOf(fake: FakeWootric): string[] {
	return [
		fake.credentials.password,
		fake.credentials.clientSecret,
		...fake.store.accessGrants.keys(),
		...fake.store.refreshGrants.keys(),
		...[...fake.requests].flatMap((request) => {
			const { refresh_token, access_token } = request.params as Record<string, unknown>;
			return [refresh_token, access_token].filter(
				(value): value is string => typeof value === 'string',
			);
		}),
	];
}

/**
 * One credential kept across runs (so its token is reused), as n8n keeps a token between
 * executions.
 */
export class StoredCredential {
	private stored?: { credentialsHelper: InMemoryCredentialsHelper; credentialId?: string };

	/** `overrides`: fields of the credential besides the fake's sign-in, e.g. its Survey Type. */
	constructor(
		private readonly fake: FakeWootric,
		private readonly overrides: ICredentialDataDecryptedObject = {},
	) {}

	/** For runNode / runPoll: the credential kept, or a new one for the fake on the first run. */
	get options() {
		return this.stored ?? { credentials: credentialsFor(this.fake, this.overrides) };
	}

	keep(run: { credentialsHelper: InMemoryCredentialsHelper; credentialId?: string }): void {
		this.stored = { credentialsHelper: run.credentialsHelper, credentialId: run.credentialId };
	}
}

/**
 * Runs the Wootric Trigger like an active workflow does: polls with static data kept between them
 * and one stored credential (so the token is reused), collecting every emitted item.
 */
export class TriggerSession {
	readonly staticData: IDataObject = {};
	readonly emitted: IDataObject[] = [];
	private readonly credential: StoredCredential;

	/**
	 * `staticData`: what an earlier session kept, for a trigger whose n8n was restarted; `timezone`:
	 * the workflow's; `typeVersion`: the node's (its latest by default); `credential`: fields of the
	 * credential besides the fake's sign-in.
	 */
	constructor(
		fake: FakeWootric,
		private readonly parameters: INodeParameters,
		staticData: IDataObject = {},
		private readonly timezone?: string,
		private readonly typeVersion?: number,
		credential: ICredentialDataDecryptedObject = {},
	) {
		this.credential = new StoredCredential(fake, credential);
		replaceContents(this.staticData, structuredClone(staticData));
	}

	/** `pollBudgetMs`: n8n's time budget for the poll (unset: n8n-core's default). */
	async poll(mode: 'trigger' | 'manual' = 'trigger', pollBudgetMs?: number) {
		const run = await this.run(mode, pollBudgetMs, 1);
		return { ...run, items: itemsOf(run.result) };
	}

	/**
	 * `count` polls started at once, as n8n's own poller starts one at each Poll Time without waiting
	 * for the one before; `emitted`: the items of each poll that emitted.
	 */
	async pollAtOnce(count: number, pollBudgetMs?: number) {
		const run = await this.run('trigger', pollBudgetMs, count);
		return { ...run, emitted: run.results.map(itemsOf) };
	}

	private async run(mode: 'trigger' | 'manual', pollBudgetMs: number | undefined, atOnce: number) {
		const run = await runPoll({
			pollBudgetMs,
			atOnce,
			nodeType: 'wootricTrigger',
			nodeTypeVersion: this.typeVersion,
			parameters: this.parameters,
			mode,
			staticData: this.staticData,
			timezone: this.timezone,
			...this.credential.options,
		});
		this.credential.keep(run);
		if (mode === 'trigger') this.emitted.push(...run.results.flatMap(itemsOf));
		return run;
	}

	/** Back to the static data given (e.g. a cursor saved earlier), with nothing emitted yet. */
	restart(staticData: IDataObject): void {
		replaceContents(this.staticData, structuredClone(staticData));
		this.emitted.length = 0;
	}
}

/** The JSON of a poll's items (its one output). */
const itemsOf = (result: INodeExecutionData[][] | null): IDataObject[] =>
	(result?.[0] ?? []).map((item) => item.json);

/**
 * Shortens the transport's retry backoff and request timeout in the built node the harness loads,
 * so suites that inject hundreds of faults stay fast. The policy is the same; only its waits
 * shrink. Jest's module registry (one per test file) hands the transport a defaults module whose
 * retry policy has them: call this before the first run of the file loads the node.
 */
export function useFastRetries(backoffMs = 2, timeoutMs = 1000): void {
	jest.doMock(DEFAULTS_MODULE, () => {
		const defaults = jest.requireActual<Defaults>(DEFAULTS_MODULE);
		return {
			...defaults,
			DEFAULT_RETRY_POLICY: Object.freeze({
				...defaults.DEFAULT_RETRY_POLICY,
				firstBackoffMs: backoffMs,
				timeoutMs,
			}),
		};
	});
}

/**
 * Fakes Date alone, set to `at` (ms): timers, sockets and n8n's engine keep real time, and a test
 * moves the host's clock with jest.setSystemTime.
 */
export function fakeDateOnly(at: number): void {
	jest.useFakeTimers({
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	});
	jest.setSystemTime(at);
}

/**
 * A fake Wootric for a file's tests over time: started before them with the host's clock (Date
 * alone) faked from `at`, closed after them. The fake is the getter's once they run.
 */
export function fakeWootricOverTime(at: number): () => FakeWootric {
	let fake: FakeWootric;
	beforeAll(async () => {
		fakeDateOnly(at);
		fake = await startFakeWootric();
	});
	afterAll(async () => {
		await fake.close();
		jest.useRealTimers();
	});
	return () => fake;
}

export { seededRandom } from './seeded-random';

/** The Wootric Trigger's cursor on one endpoint (see nodes/Wootric/polling/cursor.ts). */
export type TriggerCursor = import('../../nodes/Wootric/polling/cursor').StreamCursor;

/** The cursor a trigger session keeps for one endpoint in its static data. */
export function cursorOf(session: TriggerSession, stream: 'responses' | 'declines'): TriggerCursor {
	return session.staticData[stream] as unknown as TriggerCursor;
}

/** The raw query of a poll's first request: the records updated from `from` on, oldest first. */
export const updatedSinceQuery = (from: number) =>
	`updated[gte]=${from}&sort_key=updated_at&sort_order=asc&page=1&per_page=50`;

/** A date range from two days ago to tomorrow (UTC days): it holds whatever a test just sent. */
function aroundToday(): { startDate: string; endDate: string } {
	const day = (offsetDays: number) =>
		new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
	return { startDate: day(-2), endDate: day(1) };
}

/**
 * The operations that act on no record of the account (summaries, lists, surveys sent to new
 * addresses): parameters any account runs as they are.
 */
export const OPERATIONS_ON_NO_RECORD: INodeParameters[] = [
	{ resource: 'npsSummary', operation: 'get' },
	{
		resource: 'npsSummary',
		operation: 'trend',
		// The demo data's responses fall on consecutive days of the last ten.
		startDate: '={{ $now.minus({ days: 14 }).toISODate() }}',
		endDate: '={{ $now.toISODate() }}',
		period: 'day',
	},
	{ resource: 'emailStatistics', operation: 'get', ...aroundToday() },
	{ resource: 'emailStatistics', operation: 'getSources' },
	{
		resource: 'emailStatistics',
		operation: 'requestBounceReport',
		...aroundToday(),
		reportSource: 'email_api',
	},
	{ resource: 'segment', operation: 'getAll' },
	{ resource: 'surveyTemplate', operation: 'getAll' },
	{ resource: 'emailSurvey', operation: 'send', emails: 'survey@example.com' },
	{ resource: 'emailSurvey', operation: 'sendCsv', source: 'items', csvEmail: 'csv@example.com' },
];

/** A local time of the fake account (its default zone, UTC-08:00) as UNIX seconds. */
export const pacific = (isoLocal: string) => Date.parse(`${isoLocal}-08:00`) / 1000;
