import type { IDataObject } from 'n8n-workflow';

import type { FakeWootric } from '../fake';
import { addDecline, addResponse, createEndUser, seedDemoData, startFakeWootric } from '../fake';
import { encodeWebhook, responsePayload, declinePayload } from '../fake/webhook-body';
import { requireBuilt, runListSearch, runLoadOptions, runNode } from '../harness';
import { EVERY_LISTING, everyOperation, type Listing } from '../support/every-operation';
import { isCrash, oddSegmentIn, pickMangle } from '../support/malformed';
import { schedulesOf } from '../support/test-size';
import { closeWebhookSessions, post, signed, WebhookSession } from '../support/webhooks';
import {
	credentialsFor,
	seededRandom,
	TriggerSession,
	useFastRetries,
	VERSION_BEFORE_LOCATORS,
} from '../support/wootric';

/**
 * Malformed answers, randomized: the fake answers the API's requests (and the sign-in) with bodies
 * malformed at random (test/support/malformed.ts: another value, a list where a record goes and
 * back, fields missing or of another type at any depth, times unreadable, very long strings).
 * Whatever comes, a run of every operation, every dropdown and list search, and both triggers ends
 * with the data passed through, or with an n8n error that names the endpoint (with Continue On
 * Fail, on the item), never a TypeError or a RangeError; no answer's value that is not an ID
 * becomes a segment of a path the node sends to; and the polling trigger never moves its cursor
 * past a record it could not read.
 * 20 seeds at full size (test/support/test-size.ts).
 */
const SEEDS = schedulesOf('MALFORMED_SEEDS', 20);
/** An error names the endpoint it is about: its path, or the sign-in's. */
const NAMES_AN_ENDPOINT = /\/v[12]\/[a-z_]|\/oauth\/token/;
const API_PATH = /^\/(v[12]\/|oauth\/token)/;

/**
 * The next 1 to `most` requests to the API answered mangled (pickMangle), a sign-in now and then,
 * in place of any mangling still due: the mangle's name.
 */
function mangleNext(fake: FakeWootric, random: ReturnType<typeof seededRandom>, most: number) {
	const { name, mangle } = pickMangle(random);
	fake.faults.clear();
	fake.faults.inject({
		path: API_PATH,
		when: (request) => request.path !== '/oauth/token' || random.chance(0.2),
		times: random.int(1, most),
		fault: { kind: 'mangle', mangle },
	});
	return name;
}

interface ShownError {
	name?: string;
	message?: string;
	description?: string | null;
	cause?: unknown;
}

/**
 * What is wrong with an error a run ended with, if anything: it must name the endpoint, or be the
 * service's own answer (its status, a record it does not have).
 */
function problemOf(error: ShownError & { httpCode?: string | null }): string | undefined {
	if (isCrash(error)) return `a crash: ${error.name}: ${error.message}`;
	const said = `${error.message ?? ''} ${error.description ?? ''}`;
	if (!NAMES_AN_ENDPOINT.test(said) && !error.httpCode && !/not found in Wootric/.test(said))
		return `an error that names no endpoint: ${said}`;
	return undefined;
}

describe('malformed answers of the API', () => {
	useFastRetries(2, 500);
	afterEach(async () => await closeWebhookSessions());

	it(`every operation of the Wootric node ends with data or an error that names the endpoint, over ${SEEDS} seeds`, async () => {
		const problems: string[] = [];
		for (let seed = 1; seed <= SEEDS; seed++) {
			const random = seededRandom(seed);
			const fake = await startFakeWootric();
			try {
				seedDemoData(fake.store, fake.account);
				fake.account.historicalEditsEnabled = true;
				for (const parameters of everyOperation(fake).operations) {
					const name = mangleNext(fake, random, 6);
					const continueOnFail = random.chance(0.5);
					const sentBefore = fake.requests.length;
					const run = await runNode({
						nodeType: 'wootric',
						nodeTypeVersion: VERSION_BEFORE_LOCATORS,
						parameters,
						credentials: credentialsFor(fake),
						continueOnFail,
					});
					const where = `seed ${seed}, ${String(parameters.resource)} ${String(parameters.operation)}, ${name}`;
					const errors: ShownError[] = run.error
						? [run.error as ShownError]
						: run.items
								.filter((item) => continueOnFail && 'error' in item.json)
								.map(({ json }) => ({
									message: String(json.error),
									description: json.description as string | undefined,
								}));
					for (const error of errors) {
						const problem = problemOf(error);
						if (problem) problems.push(`${where}: ${problem}`);
					}
					for (const { method, path } of fake.requests.slice(sentBefore)) {
						const segment = oddSegmentIn(path);
						if (segment !== undefined)
							problems.push(`${where}: sent ${method} ${path}, "${segment}" an answer's value`);
					}
				}
			} finally {
				await fake.close();
			}
		}
		expect(problems.slice(0, 10)).toEqual([]);
	}, 600_000);

	it('the sweep of the lists below opens every list the node’s parameters open', () => {
		const { Wootric } = requireBuilt<typeof import('../../nodes/Wootric/Wootric.node')>(
			'dist/nodes/Wootric/Wootric.node',
		);
		const { methods } = new Wootric();
		expect(new Set(EVERY_LISTING.map(({ kind, method }) => `${kind} ${method}`))).toEqual(
			new Set(
				(['loadOptions', 'listSearch'] as const).flatMap((kind) =>
					Object.keys(methods[kind]).map((method) => `${kind} ${method}`),
				),
			),
		);
	});

	it(`every dropdown and list search of the Wootric node lists entries or fails with an error that names the endpoint, over ${SEEDS * 5} seeds`, async () => {
		const problems: string[] = [];
		const open = async (fake: FakeWootric, listing: Listing) => {
			const editor = {
				nodeType: 'wootric',
				nodeTypeVersion: listing.kind === 'listSearch' ? undefined : VERSION_BEFORE_LOCATORS,
				credentials: credentialsFor(fake),
				method: listing.method,
				parameterPath: listing.parameterPath,
				currentParameters: listing.currentParameters,
			};
			return listing.kind === 'loadOptions'
				? (await runLoadOptions(editor)).options
				: (await runListSearch({ ...editor, filter: listing.filter })).result.results;
		};
		for (let seed = 1; seed <= SEEDS * 5; seed++) {
			const random = seededRandom(3_000 + seed);
			const fake = await startFakeWootric();
			try {
				seedDemoData(fake.store, fake.account);
				createEndUser(fake.account, fake.store, 'cover@example.com');
				for (const listing of EVERY_LISTING) {
					const name = mangleNext(fake, random, 3);
					const where = `seed ${3_000 + seed}, ${listing.method} ${JSON.stringify(listing.currentParameters ?? listing.filter ?? '')}, ${name}`;
					try {
						const entries = await open(fake, listing);
						const unusable = entries.find(
							(entry) => !['string', 'number'].includes(typeof entry.value),
						);
						if (unusable)
							problems.push(`${where}: an entry of no value: ${JSON.stringify(unusable)}`);
					} catch (error) {
						const problem = problemOf(error as ShownError);
						if (problem) problems.push(`${where}: ${problem}`);
					}
				}
			} finally {
				await fake.close();
			}
		}
		expect(problems.slice(0, 10)).toEqual([]);
	}, 600_000);

	it(`the polling trigger fails with an error that names the endpoint or passes the data, and never moves its cursor past a record it could not read, over ${SEEDS * 5} seeds`, async () => {
		const problems: string[] = [];
		for (let seed = 1; seed <= SEEDS * 5; seed++) {
			const random = seededRandom(1_000 + seed);
			const fake = await startFakeWootric();
			try {
				const session = new TriggerSession(fake, {
					events: ['response', 'responseUpdated', 'decline'],
					options: { includeEndUser: random.chance(0.5) },
				});
				await session.poll();
				const user = createEndUser(fake.account, fake.store, `mangled${seed}@example.com`);
				const at = fake.clock.now() + 1;
				const stored = [
					...Array.from({ length: random.int(1, 60) }, (_, index) =>
						addResponse(fake.account, fake.store, {
							endUserId: user.id,
							score: index % 11,
							createdAt: at + Math.floor(index / 3),
						}),
					).map(({ id }) => `response ${id}`),
					...Array.from({ length: random.int(0, 3) }, () =>
						addDecline(fake.account, fake.store, { endUserId: user.id, createdAt: at + 1 }),
					).map(({ id }) => `decline ${id}`),
				];
				fake.clock.advance(120);
				const name = mangleNext(fake, random, 6);
				const mangled = await session.poll();
				const where = `seed ${1_000 + seed}, ${name}`;
				if (mangled.error) {
					const problem = problemOf(mangled.error as ShownError);
					if (problem) problems.push(`${where}: ${problem}`);
				}
				fake.faults.clear();
				for (let poll = 0; poll < 2; poll++) {
					fake.clock.advance(60);
					const clean = await session.poll();
					if (clean.error) problems.push(`${where}: a clean poll failed: ${clean.error.message}`);
				}
				const emitted = new Set(
					session.emitted
						.filter((item) => item.event !== 'responseUpdated')
						.map((item: IDataObject) => `${String(item.event)} ${String(item.id)}`),
				);
				const lost = stored.filter((record) => !emitted.has(record));
				if (lost.length > 0) problems.push(`${where}: never emitted: ${lost.join(', ')}`);
			} finally {
				await fake.close();
			}
		}
		expect(problems.slice(0, 10)).toEqual([]);
	}, 600_000);

	it(`the webhook trigger answers a signed delivery malformed at random with items or a 400, never an error, over ${SEEDS * 10} seeds`, async () => {
		const problems: string[] = [];
		const fake = await startFakeWootric();
		try {
			const session = await WebhookSession.start(fake, {
				events: ['response', 'responseUpdated', 'decline'],
			});
			const user = createEndUser(fake.account, fake.store, 'webhook@example.com');
			for (let seed = 1; seed <= SEEDS * 10; seed++) {
				const random = seededRandom(2_000 + seed);
				const payload = random.chance(0.8)
					? responsePayload(
							fake.account,
							addResponse(fake.account, fake.store, { endUserId: user.id, score: seed % 11 }),
							random.pick(['created', 'updated'] as const),
							fake.clock.now(),
						)
					: declinePayload(
							fake.account,
							addDecline(fake.account, fake.store, { endUserId: user.id }),
							fake.clock.now(),
						);
				const { name, mangle } = pickMangle(random);
				const json = mangle(JSON.parse(encodeWebhook(payload, 'json').body));
				const body = json === undefined ? '' : JSON.stringify(json);
				const answer = await post(
					session.trigger.productionUrl,
					signed(fake, body, 'application/json'),
				);
				if (answer.status !== 200 && answer.status !== 400)
					problems.push(`seed ${2_000 + seed}, ${name}: ${answer.status} ${answer.text}`);
			}
		} finally {
			await fake.close();
		}
		expect(problems.slice(0, 10)).toEqual([]);
	}, 600_000);
});
