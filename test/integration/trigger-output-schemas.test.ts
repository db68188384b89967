import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import {
	SCHEMA_FOLDER,
	TRIGGER_VERSIONS,
	versionFolder,
	type JsonSchema,
} from '../../scripts/output-schemas';
import { startFakeWootric, type FakeWootric } from '../fake';
import type { EndUser } from '../fake/store';
import { declinePayload, responsePayload } from '../fake/webhook-body';
import { REPO_ROOT } from '../harness';
import { addRichEndUser, addRichRecords, misfits, schemaFields } from '../support/json-schema';
import { closeWebhookSessions, WebhookSession } from '../support/webhooks';
import { TriggerSession } from '../support/wootric';

/**
 * The triggers' output schema (one file per trigger version, `__schema__/v<version>.json`, the same
 * item for both triggers) against what both triggers emit: a response with a comment and tags, and a
 * decline with every field, with Simplify off and on, the polling trigger with Include End User. Every
 * field they emit is in the schema with its type, and every field of the schema comes from one of
 * them.
 */
const readSchema = (version: string) =>
	JSON.parse(
		readFileSync(path.join(REPO_ROOT, 'dist', SCHEMA_FOLDER, `v${version}.json`), 'utf8'),
	) as JsonSchema;

type EmitsFor = (
	fake: FakeWootric,
	user: EndUser,
) => (
	typeVersion: number,
	simplify: boolean,
	credential: ICredentialDataDecryptedObject,
) => Promise<IDataObject[]>;

const TRIGGERS: Array<[string, EmitsFor]> = [
	[
		'Wootric Trigger',
		(fake, user) => async (typeVersion, simplify, credential) => {
			addRichRecords(fake, user);
			const session = new TriggerSession(
				fake,
				{ events: ['response', 'decline'], options: { simplify, includeEndUser: true } },
				{},
				undefined,
				typeVersion,
				credential,
			);
			return (await session.poll('manual')).items;
		},
	],
	[
		'Wootric Webhook Trigger',
		(fake, user) => async (typeVersion, simplify, credential) => {
			const session = await WebhookSession.start(
				fake,
				{ events: ['response', 'decline'], options: { simplify } },
				typeVersion,
				credential,
			);
			const { response, decline } = addRichRecords(fake, user);
			await session.deliver(responsePayload(fake.account, response, 'created', fake.clock.now()));
			await session.deliver(declinePayload(fake.account, decline, fake.clock.now()));
			return session.emitted;
		},
	],
];

describe.each(TRIGGER_VERSIONS)('the triggers’ output schema of v%s', (version) => {
	const typeVersion = Number(version.replace(/\.0$/, ''));
	const emitted: Array<[label: string, items: IDataObject[]]> = [];
	let fake: FakeWootric;

	beforeAll(async () => {
		fake = await startFakeWootric();
		const user = addRichEndUser(fake);
		for (const [trigger, emitsFor] of TRIGGERS) {
			for (const simplify of [false, true])
				emitted.push([
					`${trigger} ${version}, Simplify ${simplify}`,
					await emitsFor(fake, user)(typeVersion, simplify, {}),
				]);
			// A CSAT account: score_category where an NPS account has nps_category.
			fake.account.surveyMode = 'CSAT';
			emitted.push([
				`${trigger} ${version}, Simplify true, CSAT`,
				await emitsFor(fake, user)(typeVersion, true, { surveyType: 'csat10' }),
			]);
			fake.account.surveyMode = 'NPS';
		}
	});
	afterAll(async () => {
		await closeWebhookSessions();
		await fake.close();
	});

	it('is the file n8n asks for', () => {
		expect(`${versionFolder(typeVersion)}.json`).toBe(`v${version}.json`);
	});

	it('comes from runs that emitted a response and a decline each', () => {
		expect(emitted.map(([label, items]) => [label, items.map((item) => item.event)])).toEqual(
			emitted.map(([label]) => [label, ['response', 'decline']]),
		);
	});

	it('holds every field the triggers emit, with its type', () => {
		const schema = readSchema(version);
		const wrong = emitted.flatMap(([label, items]) =>
			items.flatMap((item) =>
				misfits(item, schema, '', new Set()).map((misfit) => `${label}: ${misfit}`),
			),
		);
		expect(wrong).toEqual([]);
	});

	it('holds no field the triggers never emit', () => {
		const schema = readSchema(version);
		const seen = new Set<string>();
		for (const [, items] of emitted) for (const item of items) misfits(item, schema, '', seen);
		expect(schemaFields(schema).filter((at) => !seen.has(at))).toEqual([]);
	});
});
