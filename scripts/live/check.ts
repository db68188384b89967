/**
 * The live check (`npm run check:live`, docs/maintainers/live-check.md): a real Wootric account's
 * answers held against the fake's. It runs the Wootric node's reading operations through n8n's engine (the
 * harness, the package as built), so that the sign-in and every request go through the transport
 * the nodes use, first against a fake seeded with demo data (the reference: the contract the tests
 * hold the nodes to), then against the account; it records each answer (exchanges.ts) and compares
 * them endpoint by endpoint (shapes.ts), then the facts the fake assumes (API-FACTS,
 * *unconfirmed*). Read-only unless asked to write: then it creates an end user and a response of
 * its own, named live-check-…, and removes them at the end, also after a failure.
 */
import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { endpointKey } from '../../nodes/Wootric/transport/rateLimits';
import { wootricBaseUrl } from '../../nodes/Wootric/transport/signIn';
import { FakeWootric, seedDemoData } from '../../test/fake';
import { runNode, type InMemoryCredentialsHelper } from '../../test/harness';
import { recordExchanges, type Exchange } from './exchanges';
import { finishReport, optionOf, runCommand, type Line } from './report';
import { shapeDifferences, shapeOf } from './shapes';

/** The node version whose parameters the probes are written in (before resource locators). */
const NODE_VERSION = 1.1;
const PER_PAGE = 50;

export interface LiveCheckOptions {
	/** Create, change and delete an end user and a response of the check's own. */
	write?: boolean;
	/** How many pages of each list to read. */
	pages?: number;
}

export interface LiveCheckReport {
	checkedAt: string;
	target: string;
	surveyType: string;
	write: boolean;
	lines: Line[];
	exchanges: { reference: Exchange[]; target: Exchange[] };
}

/** The reference: a fake as `npm run sandbox` runs it, seeded, with the documented rate limits. */
async function startReference(): Promise<FakeWootric> {
	const fake = await new FakeWootric().listen();
	seedDemoData(fake.store, fake.account);
	fake.rateLimits.setDocumentedLimits();
	return fake;
}

/** The credential of a fake, as the check takes an account's, in the grant given. */
export function fakeCredentials(
	fake: FakeWootric,
	grantType = 'password',
): ICredentialDataDecryptedObject {
	const { email, password, clientId, clientSecret } = fake.credentials;
	return {
		grantType,
		...(grantType === 'password' ? { email, password } : { clientId, clientSecret }),
		region: 'custom',
		baseUrl: fake.baseUrl,
	};
}

/** A day `offset` days from today, YYYY-MM-DD. */
const day = (offset: number) =>
	new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The probes named apart from their endpoint: refused cases and writes. */
const REFUSED = {
	page: 'refused: page 31',
	perPage: 'refused: per_page 51',
	date: 'refused: a date that is no date',
};

/** Runs the probes against one account; returns what it answered. */
async function probe(
	credentials: ICredentialDataDecryptedObject,
	{ write = false, pages = 2 }: LiveCheckOptions,
): Promise<Exchange[]> {
	const base = wootricBaseUrl(credentials);
	const recorder = recordExchanges(
		base,
		[credentials.password, credentials.clientSecret, credentials.accountToken].filter(
			(secret): secret is string => typeof secret === 'string',
		),
	);
	let signedIn: { credentialsHelper: InMemoryCredentialsHelper; credentialId?: string } | undefined;
	/** One operation of the Wootric node; its output's records, none when it failed. */
	const run = async (parameters: INodeParameters, probeName = ''): Promise<IDataObject[]> => {
		recorder.probe = probeName;
		const result = await runNode({
			nodeType: 'wootric',
			nodeTypeVersion: NODE_VERSION,
			parameters,
			...(signedIn ?? { credentials }),
		});
		signedIn = { credentialsHelper: result.credentialsHelper, credentialId: result.credentialId };
		return result.error ? [] : result.items.map(({ json }) => json);
	};
	/** A request the nodes never send, with the token the sign-in got: a refused case. */
	const raw = async (probeName: string, path: string) => {
		const stored = await signedIn?.credentialsHelper.getCredentialData(signedIn.credentialId!);
		recorder.probe = probeName;
		await Container.get(OutboundHttp)
			.requests()
			.request({
				method: 'GET',
				url: `${base}${path}`,
				headers: {
					accept: 'application/json',
					Authorization: `Bearer ${String(stored?.accessToken)}`,
				},
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				json: false,
				encoding: 'text',
			} as never)
			.catch(() => undefined);
	};
	const limit = PER_PAGE * pages;
	const first = (records: IDataObject[]) => records[0] as IDataObject | undefined;
	try {
		const endUser = first(
			await run({ resource: 'endUser', operation: 'getAll', returnAll: false, limit }),
		);
		if (endUser) {
			const endUserId = Number(endUser.id);
			await run({ resource: 'endUser', operation: 'get', lookUpBy: 'id', endUserId });
			await run({ resource: 'endUserSettings', operation: 'get', endUserId });
			await run({
				resource: 'response',
				operation: 'getAll',
				scope: 'endUser',
				endUserId,
				returnAll: false,
				limit,
			});
			await run({
				resource: 'decline',
				operation: 'getAll',
				scope: 'endUser',
				endUserId,
				returnAll: false,
				limit,
			});
		}
		// A list of each survey record, then the first of it alone.
		for (const [resource, idParameter] of [
			['response', 'responseId'],
			['decline', 'declineId'],
		]) {
			const record = first(
				await run({ resource, operation: 'getAll', scope: 'all', returnAll: false, limit }),
			);
			if (record)
				await run({
					resource,
					operation: 'get',
					endUserId: Number(record.end_user_id),
					[idParameter]: Number(record.id),
				});
		}
		await run({ resource: 'segment', operation: 'getAll' });
		await run({ resource: 'surveyTemplate', operation: 'getAll' });
		await run({ resource: 'npsSummary', operation: 'get' });
		await run(
			{
				resource: 'npsSummary',
				operation: 'trend',
				startDate: day(-27),
				endDate: day(0),
				period: 'week',
			},
			'GET /v1/nps_summary by date (Get Trend)',
		);
		await run({
			resource: 'emailStatistics',
			operation: 'get',
			startDate: day(-30),
			endDate: day(0),
		});
		await run({ resource: 'emailStatistics', operation: 'getSources' });
		await raw(REFUSED.page, '/v1/responses?page=31');
		await raw(REFUSED.perPage, '/v1/responses?per_page=51');
		await raw(REFUSED.date, `/v1/responses?${encodeURIComponent('created[gte]')}=not-a-date`);
		if (write) await writeAndRemove(run);
	} finally {
		recorder.stop();
	}
	return recorder.exchanges;
}

/**
 * Creates an end user and a response of the check's own, changes them, and removes them. The end
 * user is removed by its email once its create was sent, whatever the create answered: an answer
 * that cannot be read may still have created it.
 */
async function writeAndRemove(
	run: (parameters: INodeParameters, probeName?: string) => Promise<IDataObject[]>,
): Promise<void> {
	const email = `live-check-${Date.now()}@example.invalid`;
	let endUserId: number | undefined;
	let responseId: number | undefined;
	try {
		const created = await run(
			{ resource: 'endUser', operation: 'create', email },
			'write: create an end user',
		);
		if (created[0]?.id === undefined) return;
		endUserId = Number(created[0].id);
		await run(
			{
				resource: 'endUser',
				operation: 'update',
				endUserId,
				updateFields: { externalId: `${email}-x` },
			},
			'write: update the end user',
		);
		const response = (
			await run(
				{
					resource: 'response',
					operation: 'create',
					endUserId,
					score: 9,
					ipAddress: '192.0.2.1',
					originUrl: 'https://live-check.invalid/',
				},
				'write: create a response',
			)
		)[0];
		if (response?.id !== undefined) responseId = Number(response.id);
	} finally {
		if (responseId !== undefined)
			await run(
				{ resource: 'response', operation: 'delete', endUserId, responseId },
				'write: delete the response',
			);
		await run(
			{ resource: 'endUser', operation: 'delete', lookUpBy: 'email', email },
			'write: delete the end user',
		);
	}
}

const labelOf = (exchange: Exchange) =>
	exchange.probe || endpointKey(exchange.method, exchange.path);

function byLabel(exchanges: Exchange[]): Map<string, Exchange[]> {
	const groups = new Map<string, Exchange[]>();
	for (const exchange of exchanges)
		groups.set(labelOf(exchange), [...(groups.get(labelOf(exchange)) ?? []), exchange]);
	return groups;
}

const succeeded = (exchanges: Exchange[]) =>
	exchanges.filter(({ status }) => status !== undefined && status < 300);
const hasRateLimit = (exchanges: Exchange[]) =>
	exchanges.some(({ headers }) => 'x-rate-limit-limit' in headers);
const statusesOf = (exchanges: Exchange[]) =>
	[...new Set(exchanges.map(({ status }) => status ?? 'no answer'))].join(', ');

/** One line per endpoint (and write) the reference answered: the account's answers against it. */
function endpointLines(reference: Exchange[], target: Exchange[]): Line[] {
	const expected = byLabel(reference);
	const seen = byLabel(target);
	const subjects = [...new Set([...expected.keys(), ...seen.keys()])].filter(
		(subject) => !subject.startsWith('refused:'),
	);
	return subjects.map((subject) => {
		const mine = expected.get(subject) ?? [];
		const theirs = seen.get(subject);
		if (!theirs) return { subject, verdict: 'not seen', details: ['no answer to compare'] };
		const details: string[] = [];
		if (statusesOf(mine) !== statusesOf(theirs))
			details.push(`status ${statusesOf(theirs)} (the fake: ${statusesOf(mine) || 'not asked'})`);
		details.push(
			...shapeDifferences(
				shapeOf(succeeded(mine).map(({ body }) => body)),
				shapeOf(succeeded(theirs).map(({ body }) => body)),
			),
		);
		if (hasRateLimit(mine) !== hasRateLimit(theirs))
			details.push(
				`X-Rate-Limit headers ${hasRateLimit(theirs) ? 'sent' : 'not sent'} (the fake: ${hasRateLimit(mine) ? 'sent' : 'not sent'})`,
			);
		// The sign-in's headers are not kept: n8n's preAuthentication reads the body only.
		const withHeaders = succeeded(theirs).filter(({ headers }) => Object.keys(headers).length > 0);
		if (withHeaders.length > 0 && withHeaders.every(({ headers }) => !('date' in headers)))
			details.push('no Date header (the trigger reads the service’s time from it)');
		return { subject, verdict: details.length > 0 ? 'differs' : 'confirmed', details };
	});
}

/** The facts the fake assumes that the spec leaves open. */
function factLines(
	reference: Exchange[],
	target: Exchange[],
	{ surveyType, write }: { surveyType: string; write: boolean },
): Line[] {
	const seen = byLabel(target);
	const expected = byLabel(reference);
	const refused = (subject: string, probeName: string): Line => {
		const answers = seen.get(probeName);
		if (!answers) return { subject, verdict: 'not seen', details: [] };
		const status = statusesOf(answers);
		return {
			subject,
			verdict: status === statusesOf(expected.get(probeName) ?? []) ? 'confirmed' : 'differs',
			details: [`answered ${status}`],
		};
	};
	const limited = (exchanges: Exchange[]) =>
		[...byLabel(exchanges)]
			.filter(([, answers]) => hasRateLimit(answers))
			.map(([subject]) => subject)
			.sort()
			.join(', ') || 'none';
	const timeForms = (exchanges: Exchange[]) =>
		[
			...new Set(
				Object.values(shapeOf(succeeded(exchanges).map(({ body }) => body)).fields)
					.flat()
					.filter((type) => /^(time|date) /.test(type)),
			),
		].sort();
	const expectedForms = timeForms(reference);
	const otherForms = timeForms(target).filter((form) => !expectedForms.includes(form));
	const summary = seen.get('GET /v1/nps_summary');
	return [
		refused('per_page over 50 is refused (400)', REFUSED.perPage),
		refused('page over 30 is refused (400)', REFUSED.page),
		refused('a date that is no date is refused (400)', REFUSED.date),
		{
			subject: 'which endpoints send X-Rate-Limit headers',
			verdict: limited(target) === limited(reference) ? 'confirmed' : 'differs',
			details: [`${limited(target)} (the fake: ${limited(reference)})`],
		},
		{
			subject: 'the forms of times (Rails’ -0800, ISO 8601, UTC)',
			verdict: otherForms.length > 0 ? 'differs' : 'confirmed',
			details: [
				`seen: ${timeForms(target).join('; ') || 'none'}`,
				...otherForms.map((form) => `${form}: not in the fake`),
			],
		},
		{
			subject: 'the NPS summary of a CSAT or CES account',
			verdict:
				surveyType === 'nps' || !summary
					? 'not seen'
					: shapeDifferences(
								shapeOf(
									succeeded(expected.get('GET /v1/nps_summary') ?? []).map(({ body }) => body),
								),
								shapeOf(succeeded(summary).map(({ body }) => body)),
						  ).length > 0
						? 'differs'
						: 'confirmed',
			details: [surveyType === 'nps' ? 'an NPS account' : `a ${surveyType} account`],
		},
		{
			subject: 'the success bodies of creates',
			verdict: write ? 'confirmed' : 'not seen',
			details: [write ? 'see the write: lines' : 'read-only: run with --write'],
		},
	];
}

/** The check: the probes against the reference, then against `credentials`, compared. */
export async function runLiveCheck(
	credentials: ICredentialDataDecryptedObject,
	options: LiveCheckOptions = {},
): Promise<LiveCheckReport> {
	const reference = await startReference();
	let expected: Exchange[];
	try {
		// The same grant: the two answer the sign-in differently (a refresh token or none).
		expected = await probe(
			fakeCredentials(reference, String(credentials.grantType ?? 'password')),
			options,
		);
	} finally {
		await reference.close();
	}
	const seen = await probe(credentials, options);
	const surveyType = String(credentials.surveyType ?? 'nps');
	const write = options.write === true;
	return {
		checkedAt: new Date().toISOString(),
		target: new URL(wootricBaseUrl(credentials)).origin,
		surveyType,
		write,
		lines: [
			...endpointLines(expected, seen),
			...factLines(expected, seen, { surveyType, write }).map((line) => ({
				...line,
				subject: `fact: ${line.subject}`,
			})),
		],
		exchanges: { reference: expected, target: seen },
	};
}

/** The account's credential from the environment (docs/maintainers/live-check.md). */
export function credentialsFromEnvironment(env: NodeJS.ProcessEnv): ICredentialDataDecryptedObject {
	const grantType = env.WOOTRIC_CLIENT_ID ? 'clientCredentials' : 'password';
	const needed =
		grantType === 'password'
			? ['WOOTRIC_EMAIL', 'WOOTRIC_PASSWORD']
			: ['WOOTRIC_CLIENT_ID', 'WOOTRIC_CLIENT_SECRET'];
	const missing = needed.filter((name) => !env[name]);
	if (missing.length > 0)
		throw new Error(
			`Set ${missing.join(' and ')} (docs/maintainers/live-check.md names every variable)`,
		);
	return {
		grantType,
		email: env.WOOTRIC_EMAIL ?? '',
		password: env.WOOTRIC_PASSWORD ?? '',
		clientId: env.WOOTRIC_CLIENT_ID ?? '',
		clientSecret: env.WOOTRIC_CLIENT_SECRET ?? '',
		accountToken: env.WOOTRIC_ACCOUNT_TOKEN ?? '',
		surveyType: env.WOOTRIC_SURVEY_TYPE ?? 'nps',
		region: env.WOOTRIC_BASE_URL ? 'custom' : (env.WOOTRIC_REGION ?? 'auto'),
		baseUrl: env.WOOTRIC_BASE_URL ?? '',
	};
}

async function main(argv: string[]): Promise<number> {
	const reportFile = optionOf(argv, '--report') ?? 'live-check-report.json';
	const report = await runLiveCheck(credentialsFromEnvironment(process.env), {
		write: argv.includes('--write'),
		pages: Number(optionOf(argv, '--pages') ?? 2),
	});
	return finishReport(report.lines, report, reportFile, 'the fake');
}

if (require.main === module) runCommand('live check', main);
