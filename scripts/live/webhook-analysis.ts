/**
 * `npm run analyze:webhooks` (docs/maintainers/live-check.md): the deliveries webhook-capture.ts
 * stored, held against what the Wootric Webhook Trigger assumes: the fake's deliveries
 * (test/fake/webhook-body.ts, written from the API facts) for the fields and time forms, the
 * trigger's own reading (readDelivery) for the rest, and the facts left open (form or JSON, `timestamp` per event or per
 * attempt, the order of created and updated, the survey modes). One line each, as the live check
 * prints them; non-zero exit when something differs.
 */
import { readDelivery, type Delivery } from '../../nodes/Wootric/webhook/delivery';
import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	FakeWootric,
	type WebhookFormat,
} from '../../test/fake';
import { declinePayload, encodeWebhook, responsePayload } from '../../test/fake/webhook-body';
import { finishReport, optionOf, runCommand, type Line } from './report';
import { typeOf } from './shapes';
import { readCaptured, type CapturedDelivery } from './webhook-capture';

/** A delivery's fields as paths (`response.created_at`; a property's name is `*`), and its values. */
interface Read {
	format: string;
	kind?: string;
	fields: Map<string, unknown>;
}

function flatten(value: unknown, prefix: string, into: Map<string, unknown>): void {
	if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
		const properties = /end_user_properties$/.test(prefix);
		for (const [name, inner] of Object.entries(value))
			flatten(inner, `${prefix ? `${prefix}.` : ''}${properties ? '*' : name}`, into);
	} else into.set(prefix, value);
}

function readRaw(contentType: string | undefined, body: string): Read {
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	const fields = new Map<string, unknown>();
	if (type === 'application/json') {
		try {
			flatten(JSON.parse(body), '', fields);
		} catch {
			// Unreadable: the trigger's reading says so.
		}
	} else
		for (const [key, value] of new URLSearchParams(body)) {
			const path = key.replace(/\]/g, '').split('[');
			// A property's name is `*`: the field set is the same whatever the account's properties.
			const at = path.indexOf('end_user_properties') + 1;
			flatten(value, (at === 0 ? path : [...path.slice(0, at), '*']).join('.'), fields);
		}
	const kind = ['response', 'decline'].find((name) =>
		[...fields.keys()].some((key) => key.startsWith(`${name}.`)),
	);
	return {
		format:
			type === 'application/json'
				? 'JSON'
				: type === 'application/x-www-form-urlencoded'
					? 'form'
					: type || 'none',
		kind,
		fields,
	};
}

/** What the fake sends in `format`: a response created, one updated with a comment, a decline. */
function fakeDeliveries(format: WebhookFormat): Read[] {
	const fake = new FakeWootric();
	const user = createEndUser(fake.account, fake.store, 'analysis@example.com', {
		properties: { plan: 'pro' },
	});
	const now = fake.clock.now();
	const endUserProperties = { plan: 'pro' };
	const response = addResponse(fake.account, fake.store, {
		endUserId: user.id,
		score: 3,
		endUserProperties,
	});
	const changed = changeResponse(fake.account, fake.store, response.id, { text: 'Slow' }, now + 5);
	const decline = addDecline(fake.account, fake.store, { endUserId: user.id, endUserProperties });
	return [
		responsePayload(fake.account, response, 'created', now),
		responsePayload(fake.account, changed, 'updated', now + 5),
		declinePayload(fake.account, decline, now),
	].map((payload) => {
		const { body, contentType } = encodeWebhook(payload, format);
		return readRaw(contentType, body);
	});
}

const TIME_FIELDS = /(^|\.)(created_at|updated_at|timestamp)$/;
/** An end user's properties: sent only when the end user has some, so never missing. */
const PROPERTIES = /\.end_user_properties\.\*$/;

/** Field paths, and the time forms of the time fields, of deliveries of one kind. */
function summary(reads: Read[]): { fields: Set<string>; times: Set<string> } {
	const fields = new Set<string>();
	const times = new Set<string>();
	for (const { fields: values } of reads)
		for (const [field, value] of values) {
			fields.add(field);
			if (TIME_FIELDS.test(field)) times.add(`${field.replace(/^\w+\./, '')} ${typeOf(value)}`);
		}
	return { fields, times };
}

const line = (
	subject: string,
	differences: string[],
	seenAny = true,
	noted: string[] = [],
): Line => ({
	subject,
	verdict: !seenAny ? 'not seen' : differences.length > 0 ? 'differs' : 'confirmed',
	details: !seenAny ? [] : differences.length > 0 ? differences : noted,
});

/** The Webhook Trigger's reading of a body, or why it cannot read it. */
function parsedDelivery(contentType: string | undefined, body: string): Delivery | Error {
	try {
		return readDelivery(Buffer.from(body), contentType);
	} catch (error) {
		return error instanceof Error ? error : new Error(String(error));
	}
}

/** The analysis of captured deliveries, a line per subject. */
export function analyseDeliveries(deliveries: CapturedDelivery[]): Line[] {
	// Each body read once: a retry, or a copy, repeats one (at most one reading a delivery).
	const readings = new Map<string, { raw: Read; parsed: Delivery | Error }>();
	const readingOf = (contentType: string | undefined, body: string) => {
		const key = `${contentType}\n${body}`;
		let reading = readings.get(key);
		if (!reading) {
			reading = { raw: readRaw(contentType, body), parsed: parsedDelivery(contentType, body) };
			readings.set(key, reading);
		}
		return reading;
	};
	const read = deliveries.map((delivery) => ({
		delivery,
		...readingOf(delivery.headers['content-type'], delivery.body),
	}));
	const lines: Line[] = [];
	const signatures = new Map<string, number>();
	for (const { delivery } of read)
		signatures.set(delivery.signature, (signatures.get(delivery.signature) ?? 0) + 1);
	lines.push(
		line(
			'every delivery signed with the secret (X-Wootric-Signature, HMAC-SHA1)',
			[...signatures]
				.filter(([verdict]) => verdict !== 'valid')
				.map(([verdict, count]) => `${count} ${verdict}`),
			read.length > 0,
		),
	);
	const formats = [...new Set(read.map(({ raw }) => raw.format))];
	lines.push(
		line(
			'the body is form-encoded with bracket keys',
			formats
				.filter((format) => format !== 'form')
				.map((format) => `${format} (the trigger reads JSON too; the fake sends form)`),
			read.length > 0,
			formats,
		),
	);
	for (const kind of ['response', 'decline']) {
		for (const format of formats) {
			const reads = read
				.filter(({ raw }) => raw.kind === kind && raw.format === format)
				.map(({ raw }) => raw);
			if (format !== 'form' && format !== 'JSON') continue;
			const expected = summary(
				fakeDeliveries(format === 'JSON' ? 'json' : 'form').filter((raw) => raw.kind === kind),
			);
			const seen = summary(reads);
			lines.push(
				line(
					`the fields of a ${kind} delivery (${format})`,
					[
						...[...expected.fields]
							.filter((field) => !seen.fields.has(field) && !PROPERTIES.test(field))
							.map((field) => `${field}: missing`),
						...[...seen.fields]
							.filter((field) => !expected.fields.has(field))
							.map((field) => `${field}: not in the fake`),
					],
					reads.length > 0,
				),
				line(
					`the time forms of a ${kind} delivery (${format})`,
					[...seen.times]
						.filter((form) => !expected.times.has(form))
						.map((form) => `${form}: not in the fake`),
					reads.length > 0,
					[...seen.times],
				),
			);
		}
	}
	const unread = read.filter(({ parsed }) => parsed instanceof Error);
	lines.push(
		line(
			'the Webhook Trigger reads every delivery',
			unread.slice(0, 3).map(({ parsed }) => (parsed as Error).message),
			read.length > 0,
		),
	);
	// Each event's deliveries and the timestamps they carried, grouped by key: linear in the repeats.
	const events = new Map<string, { attempts: number; timestamps: Set<string> }>();
	for (const { raw } of read) {
		// One event: one state of one record (a retry, or a copy, repeats it).
		const key = [
			raw.kind,
			raw.fields.get(`${raw.kind}.id`),
			raw.fields.get('event_name'),
			raw.fields.get(`${raw.kind}.updated_at`),
		].join('|');
		const event = events.get(key) ?? { attempts: 0, timestamps: new Set<string>() };
		event.attempts++;
		event.timestamps.add(String(raw.fields.get('timestamp')));
		events.set(key, event);
	}
	const repeated = [...events.values()].filter(({ attempts }) => attempts > 1);
	const fresh = repeated.filter(({ timestamps }) => timestamps.size > 1);
	lines.push(
		line(
			'a repeated delivery carries its first timestamp',
			fresh.length > 0
				? [
						`${fresh.length} of ${repeated.length} repeated events carried a new timestamp per attempt (Max Age then counts from the attempt)`,
					]
				: [],
			repeated.length > 0,
			[`${repeated.length} repeated events`],
		),
	);
	// The first arrival of each event of each response, in the order they arrived.
	const firstArrivals = new Map<string, string[]>();
	for (const { raw } of read) {
		if (raw.kind !== 'response') continue;
		const id = String(raw.fields.get('response.id'));
		const name = String(raw.fields.get('event_name'));
		const arrived = firstArrivals.get(id) ?? [];
		if (!arrived.includes(name)) firstArrivals.set(id, [...arrived, name]);
	}
	const both = [...firstArrivals.values()].filter(
		(names) => names.includes('created') && names.includes('updated'),
	);
	const updatedFirst = both.filter((names) => names[0] === 'updated');
	lines.push(
		line(
			'a response’s created arrives before its updated',
			updatedFirst.length > 0
				? [
						`${updatedFirst.length} of ${both.length} responses: updated first (the trigger takes either order; the fake's reorder fault sends it so)`,
					]
				: [],
			both.length > 0,
			[`${both.length} responses with both`],
		),
	);
	const late = read
		.filter(({ parsed }) => !(parsed instanceof Error) && parsed.sentAt !== undefined)
		.map(({ delivery, parsed }) =>
			Math.round((delivery.receivedAt - (parsed as { sentAt: number }).sentAt) / 1000),
		);
	// A loop, not Math.min(...late): spread, a long capture overflows the call's arguments.
	let earliest = Infinity;
	let latest = -Infinity;
	for (const seconds of late) {
		earliest = Math.min(earliest, seconds);
		latest = Math.max(latest, seconds);
	}
	const farOff = late.filter((seconds) => Math.abs(seconds) > 120);
	lines.push(
		line(
			'timestamp is the time of sending',
			farOff.length > 0
				? [
						`${farOff.length} arrived more than 2 minutes from their timestamp (${farOff.slice(0, 3).join(', ')} s)`,
					]
				: [],
			late.length > 0,
			late.length > 0 ? [`arrived ${earliest} to ${latest} s after it`] : [],
		),
	);
	const modes = [
		...new Set(
			read
				.map(({ raw }) => raw.fields.get('survey_mode'))
				.filter((mode) => mode !== undefined)
				.map(String),
		),
	];
	lines.push(
		line(
			'survey_mode is NPS, CSAT or CES',
			modes
				.filter((mode) => !['NPS', 'CSAT', 'CES'].includes(mode))
				.map((mode) => `${mode}: not a mode the trigger knows`),
			modes.length > 0,
			modes,
		),
	);
	return lines;
}

async function main(argv: string[]): Promise<number> {
	const folder = optionOf(argv, '--in') ?? 'webhook-capture';
	const lines = analyseDeliveries(readCaptured(folder));
	return finishReport(
		lines,
		{ analysedAt: new Date().toISOString(), folder, lines },
		optionOf(argv, '--report') ?? 'webhook-analysis.json',
		'what the Webhook Trigger assumes',
	);
}

if (require.main === module) runCommand('webhook analysis', main);
