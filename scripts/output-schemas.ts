import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from './e2e/paths';

/**
 * The output schemas of the Wootric node's operations: the source of the JSON files n8n reads at
 * nodes/Wootric/__schema__/v<x.y.z>/<resource>/<operation>.json to show a downstream node the
 * fields it will get before the node has run. `npm run schemas` writes them; the files are
 * committed, as n8n reads files (test/unit/output-schema-files.test.ts checks they are what this
 * gives; test/integration/output-schemas.test.ts checks them against the node's real outputs).
 *
 * Each schema describes one item's json, in the subset of JSON Schema n8n's own nodes ship and its
 * editor reads: `type`, `properties`, `items`. A field's type is that of its value when it has
 * one: Wootric sends null for what a record does not have (no comment, never surveyed), so any
 * field may be null. An object without `properties` (an end user's properties) holds any keys; an
 * array without `items` has elements of a shape the API does not document.
 */

export interface JsonSchema {
	type: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
	properties?: Record<string, JsonSchema>;
	items?: JsonSchema;
}

const string: JsonSchema = { type: 'string' };
const integer: JsonSchema = { type: 'integer' };
const number: JsonSchema = { type: 'number' };
const boolean: JsonSchema = { type: 'boolean' };
const object = (properties?: Record<string, JsonSchema>): JsonSchema =>
	properties ? { type: 'object', properties } : { type: 'object' };
const array = (items?: JsonSchema): JsonSchema =>
	items ? { type: 'array', items } : { type: 'array' };

/** A free-form key/value hash: an end user's properties. */
const propertiesHash = object();
const endUserProperties = object({ properties: propertiesHash });

/** NPS Summary → Get's summary, which Get Trend gives for each period. */
const NPS_SUMMARY = {
	nps: integer,
	responses: integer,
	detractors: integer,
	passives: integer,
	promoters: integer,
	response_rate: integer,
	email_response_rate: integer,
};

/** Create, update and delete of end users answer this form (properties parsed into a hash). */
const END_USER_WRITTEN = {
	id: integer,
	email: string,
	last_surveyed: string,
	external_created_at: integer,
	created_at: string,
	updated_at: string,
	user_id: integer,
	properties: propertiesHash,
};

/** Get and Get Many of end users. */
const END_USER_READ = {
	id: integer,
	created_at: string,
	updated_at: string,
	email: string,
	last_surveyed: string,
	external_created_at: integer,
	last_seen_at: string,
	properties: propertiesHash,
	phone_number: string,
	external_id: string,
	last_response: object({
		id: string,
		score: integer,
		text: string,
		survey: object({ channel: string }),
	}),
	settings: object({
		email_nps: boolean,
		mobile_nps: boolean,
		web_nps: boolean,
		force_mobile_survey: boolean,
		force_web_survey: boolean,
		surveys_disabled_by_end_user: boolean,
	}),
};

const SURVEY_RECORD = {
	id: integer,
	end_user_id: integer,
	survey_id: integer,
	ip_address: string,
	origin_url: string,
	created_at: string,
	updated_at: string,
	end_user: endUserProperties,
};

const RESPONSE = {
	...SURVEY_RECORD,
	score: integer,
	text: string,
	completed: boolean,
	excluded_from_calculations: boolean,
	tags: array(string),
	notes: array(),
	// Added by Simplify (and the tool's Simplified output; always from node version 1.3), on the
	// credential's Survey Type: nps_category on NPS, score_category on CSAT and CES. A preview shows
	// both, as n8n shows every field of a schema; a run gives the one of its account's type.
	nps_category: string,
	score_category: string,
};

const END_USER_SETTINGS = {
	id: integer,
	end_user_id: integer,
	created_at: string,
	updated_at: string,
	email_nps: boolean,
};

/** An update the API answers with an empty body (204). */
const UPDATED = { success: boolean, id: integer, updated: array(string) };
const DELETED = { success: boolean, deleted: boolean, id: integer, end_user_id: integer };
/** What an email survey request answers, and the node adds: which request of how many. */
const SURVEY_SENT = { status: string, emails_count: integer, request: integer, requests: integer };

/** A block of email statistics (API-FACTS, Email statistics), with the node's `percentages`. */
const EMAIL_STATS = object({
	send_requests: integer,
	emails_sent: integer,
	delivered: integer,
	delivered_percentage: string,
	bounce_rate: integer,
	bounce_rate_percentage: string,
	open_rate: string,
	response_rate: string,
	not_eligible: string,
	send_date: string,
	raw_results: object({
		processed: integer,
		bounce: integer,
		dropped: integer,
		delivered: integer,
		opted_out: integer,
		not_delivered: integer,
		open: integer,
		spamreport: integer,
		not_eligible: integer,
		total_surveys: integer,
		total_responses: integer,
		start_date: string,
		end_date: string,
	}),
	percentages: object({
		delivered: number,
		bounce_rate: number,
		open_rate: number,
		response_rate: number,
		not_eligible: number,
	}),
});

type Outputs = Record<string, Record<string, Record<string, JsonSchema>>>;

/** Each operation's output item, by resource and operation (the parameters' values). */
const OUTPUTS: Outputs = {
	endUser: {
		create: END_USER_WRITTEN,
		delete: END_USER_WRITTEN,
		exportData: { success: boolean, end_user_id: integer, export: string, hint: string },
		get: END_USER_READ,
		getAll: END_USER_READ,
		update: END_USER_WRITTEN,
		upsert: END_USER_WRITTEN,
	},
	endUserSettings: { get: END_USER_SETTINGS, update: END_USER_SETTINGS },
	response: {
		create: RESPONSE,
		delete: DELETED,
		get: RESPONSE,
		getAll: RESPONSE,
		update: UPDATED,
	},
	decline: {
		create: { ...SURVEY_RECORD, user_id: integer },
		delete: DELETED,
		get: SURVEY_RECORD,
		getAll: SURVEY_RECORD,
		update: UPDATED,
	},
	emailSurvey: {
		send: { ...SURVEY_SENT, emails: array(string) },
		sendCsv: { ...SURVEY_SENT, file: string, rows: object({ from: integer, to: integer }) },
	},
	// On every node version: a new resource changes no saved workflow.
	emailStatistics: {
		// The first sends' and the reminders' blocks: null, or of a shape the API does not document.
		get: { email_stats: EMAIL_STATS, initial_send: object(), reminder_send: object() },
		getSources: { id: string, name: string, date: string, type: string },
		requestBounceReport: {
			success: boolean,
			start_date: string,
			end_date: string,
			source: string,
			bounce_report: string,
			hint: string,
		},
	},
	npsSummary: {
		get: NPS_SUMMARY,
		trend: {
			start: string,
			end: string,
			partial: boolean,
			...NPS_SUMMARY,
			nps_change: integer,
			no_responses: boolean,
		},
	},
	segment: { getAll: { name: string, data_type: string, created_at: string } },
	surveyTemplate: {
		getAll: {
			id: integer,
			name: string,
			is_default: boolean,
			default_language: string,
			languages: array(object({ code: string, name: string })),
			non_configured_language_count: integer,
			custom_samplings: array(),
		},
	},
};

/**
 * The outputs of each node version, by its folder's name (n8n pads the version: 1 → 1.0.0). A
 * version whose outputs change gets its own entry, e.g. `{ ...OUTPUTS, endUser: { ...OUTPUTS.endUser,
 * delete: … } }`.
 */
export const OUTPUTS_BY_VERSION: Record<string, Outputs> = {
	'1.0.0': OUTPUTS,
	'1.1.0': OUTPUTS,
	'1.2.0': OUTPUTS,
	// 1.3: End User → Delete answers like the other deletes.
	'1.3.0': {
		...OUTPUTS,
		endUser: {
			...OUTPUTS.endUser,
			delete: { success: boolean, deleted: boolean, id: integer, email: string },
		},
	},
};

/**
 * The item of both triggers (their items have one shape): the event, its key, and the response or
 * decline, with its end user when Include End User or the webhook gives one. n8n reads it, for a node
 * without resource and operation, from `v<version>.json`; 2.x asks for it but shows no preview for a
 * trigger, 1.x shows it.
 */
const TRIGGER_ITEM: Record<string, JsonSchema> = {
	event: string,
	idempotency_key: string,
	...RESPONSE,
	// The end user as the response carries it, or as the polling trigger's Include End User reads it
	// (current_properties: its properties now).
	end_user: object({
		id: integer,
		email: string,
		external_id: string,
		properties: propertiesHash,
		current_properties: propertiesHash,
	}),
};

/** The triggers' versions, by folder name: the same item on each (1.1 changes which fields come). */
export const TRIGGER_VERSIONS = ['1.0.0', '1.1.0'];

/** n8n's folder for a node version: 1 → v1.0.0, 1.2 → v1.2.0. */
export const versionFolder = (version: number) =>
	`v${String(version).split('.').concat(['0', '0']).slice(0, 3).join('.')}`;

/** Where the files go, relative to the repository. */
export const SCHEMA_FOLDER = 'nodes/Wootric/__schema__';

/** Every schema file: its path under SCHEMA_FOLDER and its text. */
export function outputSchemaFiles(): Map<string, string> {
	const files = new Map<string, string>();
	// `version` is the format's, as n8n's own files carry it.
	const schemaText = (properties: Record<string, JsonSchema>) =>
		`${JSON.stringify({ type: 'object', properties, version: 1 }, null, 2)}\n`;
	for (const [version, outputs] of Object.entries(OUTPUTS_BY_VERSION)) {
		for (const [resource, operations] of Object.entries(outputs)) {
			for (const [operation, properties] of Object.entries(operations))
				files.set(`v${version}/${resource}/${operation}.json`, schemaText(properties));
		}
	}
	for (const version of TRIGGER_VERSIONS) files.set(`v${version}.json`, schemaText(TRIGGER_ITEM));
	return files;
}

/** The schema files under `folder` (the sources' or dist's), named as outputSchemaFiles names them. */
export function schemaFilesIn(folder: string): string[] {
	return readdirSync(folder, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.json'))
		.map((file) => file.split(path.sep).join('/'))
		.sort();
}

/** `npm run schemas`: writes the files anew, removing any this no longer gives. */
if (require.main === module) {
	const folder = path.join(REPO_ROOT, SCHEMA_FOLDER);
	rmSync(folder, { recursive: true, force: true });
	for (const [file, text] of outputSchemaFiles()) {
		mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
		writeFileSync(path.join(folder, file), text);
	}
}
