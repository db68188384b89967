import type { IDataObject } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { parseWootricDatetime } from '../transport';
import type { EventName } from '../events';

/**
 * One webhook the service delivered, read into the record the API's lists return for it, so that
 * both triggers emit items of one shape.
 */
export interface Delivery {
	event: EventName;
	record: IDataObject;
	id: number;
	/** UNIX seconds of the record's created_at. */
	createdSecond: number;
	/** UNIX seconds of the record's updated_at; undefined when the body has none. */
	updatedSecond?: number;
	/** When the service sent it (ms), from the signed `timestamp`; undefined when the body has none. */
	sentAt?: number;
	/** The account's survey type as the delivery names it (`NPS`, `CSAT`, `CES`), when it does. */
	surveyMode?: string;
}

/** A body the trigger cannot read; answered 400 with this message, nothing emitted. */
export class UnreadableDelivery extends Error {}

/** A webhook body is a few hundred bytes; anything above this is not the service's. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * How deep a body's fields nest at most, the body itself counted: the service's deepest field is
 * `response[end_user_properties][name]` (3), and a property may hold fields of its own. Deeper
 * bodies are not the service's, and reading them could exhaust the stack.
 */
export const MAX_NESTING = 8;
const TOO_DEEP = `The body's fields nest deeper than ${MAX_NESTING} levels`;

const EVENT_NAMES: Record<'response' | 'decline', Record<string, EventName>> = {
	response: { created: 'response', updated: 'responseUpdated' },
	decline: { created: 'decline' },
};

/**
 * The body, form-encoded with bracket keys (`response[id]=7`) as the service sends it, or JSON of
 * the same nesting.
 */
export function readDelivery(body: Buffer, contentType: string | undefined): Delivery {
	if (body.length > MAX_BODY_BYTES)
		throw new UnreadableDelivery(`The body is over ${MAX_BODY_BYTES / 1024} KB`);
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	const text = body.toString('utf8');
	let fields: IDataObject;
	if (type === 'application/x-www-form-urlencoded') fields = bracketFields(text);
	else if (type === 'application/json') fields = jsonFields(text);
	else
		throw new UnreadableDelivery(
			`The body must be application/x-www-form-urlencoded or application/json, not "${type || 'none'}"`,
		);

	const kind = 'response' in fields ? 'response' : 'decline' in fields ? 'decline' : undefined;
	if (kind === undefined || ('response' in fields && 'decline' in fields))
		throw new UnreadableDelivery('The body must hold either response[…] or decline[…] fields');
	const fieldsOfRecord = fields[kind];
	if (!isObject(fieldsOfRecord))
		throw new UnreadableDelivery(`${kind} must hold fields, as ${kind}[id]`);
	// A JSON event_name may be anything, even an object that cannot become text.
	const event =
		typeof fields.event_name === 'string'
			? (own(EVENT_NAMES[kind], fields.event_name) as EventName | undefined)
			: undefined;
	if (event === undefined)
		throw new UnreadableDelivery(
			`event_name must be ${Object.keys(EVENT_NAMES[kind]).join(' or ')} for a ${kind}`,
		);
	const record =
		kind === 'response' ? responseRecord(fieldsOfRecord) : declineRecord(fieldsOfRecord);
	const second = (iso: unknown) => Math.floor(Date.parse(String(iso)) / 1000);
	return {
		event,
		record,
		id: record.id as number,
		createdSecond: second(record.created_at),
		updatedSecond: record.updated_at == null ? undefined : second(record.updated_at),
		sentAt: sendingTime(fields.timestamp),
		surveyMode:
			typeof fields.survey_mode === 'string' && fields.survey_mode.trim() !== ''
				? fields.survey_mode.trim()
				: undefined,
	};
}

/**
 * The top-level `timestamp`: a date string in the service's forms (as its records' times), or, as
 * a client may send it in JSON, UNIX seconds.
 */
function sendingTime(value: unknown): number | undefined {
	if (blank(value)) return undefined;
	const milliseconds =
		typeof value === 'number' && Number.isFinite(value)
			? value * 1000
			: typeof value === 'string'
				? parseWootricDatetime(value)
				: undefined;
	if (milliseconds === undefined) throw new UnreadableDelivery('timestamp is not a datetime');
	// Dates hold ±8.64e15 ms; past them the time cannot be told or shown (a RangeError).
	if (Math.abs(milliseconds) > MAX_DATE_MILLISECONDS)
		throw new UnreadableDelivery(
			'timestamp is outside the dates that can be told (within 8.64e12 seconds of 1970)',
		);
	return milliseconds;
}

/** The farthest a Date reaches from 1970 on either side (ECMAScript's time values). */
const MAX_DATE_MILLISECONDS = 8.64e15;

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const KEY = /^([^[\]]+)((?:\[[^[\]]+\])*)$/;

// Field names come from the request: read and write own properties only, so that a name such as
// `__proto__` is a plain key and cannot reach Object.prototype.
const own = (target: IDataObject, key: string) =>
	Object.hasOwn(target, key) ? target[key] : undefined;

function put<T extends IDataObject[string]>(target: IDataObject, key: string, value: T): T {
	Object.defineProperty(target, key, {
		value,
		writable: true,
		enumerable: true,
		configurable: true,
	});
	return value;
}

/** `a[b][c]=v` pairs as nested objects; a key given twice keeps its last value. */
function bracketFields(text: string): IDataObject {
	const fields: IDataObject = {};
	for (const [key, value] of new URLSearchParams(text)) {
		const match = KEY.exec(key);
		if (!match) throw new UnreadableDelivery(`The field name "${key}" is not a bracket key`);
		const path = [match[1], ...[...match[2].matchAll(/\[([^[\]]+)\]/g)].map((part) => part[1])];
		if (path.length > MAX_NESTING) throw new UnreadableDelivery(TOO_DEEP);
		let target = fields;
		for (const part of path.slice(0, -1)) {
			const next = own(target, part) ?? put(target, part, {});
			if (!isObject(next))
				throw new UnreadableDelivery(`The field ${key} nests under a field that has a value`);
			target = next;
		}
		const last = path[path.length - 1];
		if (isObject(own(target, last)))
			throw new UnreadableDelivery(`The field ${key} has a value and nested fields`);
		put(target, last, value);
	}
	return fields;
}

const NOT_JSON = Symbol('not JSON');

function jsonFields(text: string): IDataObject {
	// Not undefined: jsonParse rethrows JSON.parse's error when the fallback value is undefined.
	const parsed = jsonParse<unknown>(text, { fallbackValue: NOT_JSON });
	if (parsed === NOT_JSON) throw new UnreadableDelivery('The body is not valid JSON');
	if (!isObject(parsed)) throw new UnreadableDelivery('The JSON body must be an object');
	if (nestsDeeperThan(parsed, MAX_NESTING)) throw new UnreadableDelivery(TOO_DEEP);
	return parsed;
}

/** Whether objects and arrays nest deeper than `levels` in `value`, found without recursion. */
function nestsDeeperThan(value: unknown, levels: number): boolean {
	const pending: Array<[unknown, number]> = [[value, 1]];
	for (let next = pending.pop(); next; next = pending.pop()) {
		const [container, depth] = next;
		if (typeof container !== 'object' || container === null) continue;
		if (depth > levels) return true;
		for (const child of Object.values(container)) pending.push([child, depth + 1]);
	}
	return false;
}

/** Form values are all strings; JSON's may already be typed. Each reader takes both. */
type Reader = (field: string, value: unknown) => unknown;

const blank = (value: unknown) => value === undefined || value === null || value === '';

const integer =
	(bounds: { min: number; max?: number; required?: boolean }): Reader =>
	(field, value) => {
		if (blank(value)) {
			if (bounds.required) throw new UnreadableDelivery(`${field} is missing`);
			return null;
		}
		const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
		if (
			typeof number !== 'number' ||
			!Number.isSafeInteger(number) ||
			number < bounds.min ||
			(bounds.max !== undefined && number > bounds.max)
		)
			throw new UnreadableDelivery(
				`${field} must be a whole number from ${bounds.min}${bounds.max === undefined ? '' : ` to ${bounds.max}`}`,
			);
		return number;
	};

const boolean: Reader = (field, value) => {
	if (blank(value)) return null;
	if (value === true || value === 'true' || value === '1') return true;
	if (value === false || value === 'false' || value === '0') return false;
	throw new UnreadableDelivery(`${field} must be true or false`);
};

/** The service's local time with an offset (`2016-08-04 13:57:26 -0700`) as ISO 8601 UTC. */
const datetime =
	(required: boolean): Reader =>
	(field, value) => {
		if (blank(value)) {
			if (required) throw new UnreadableDelivery(`${field} is missing`);
			return null;
		}
		const milliseconds = typeof value === 'string' ? parseWootricDatetime(value) : undefined;
		if (milliseconds === undefined) throw new UnreadableDelivery(`${field} is not a datetime`);
		return new Date(milliseconds).toISOString();
	};

/** A form cannot send null: the service sends a value it has none of as empty (`text=`). */
const text = (field: string, value: unknown): string | null => {
	if (blank(value)) return null;
	if (typeof value !== 'string') throw new UnreadableDelivery(`${field} must be text`);
	return value;
};

/** What a response's and a decline's fields become, in the order the API's records list them. */
const RECORD_FIELDS: Record<string, Reader> = {
	id: integer({ min: 1, required: true }),
	end_user_id: integer({ min: 1 }),
	survey_id: integer({ min: 1 }),
	score: integer({ min: 0, max: 10, required: true }),
	text,
	excluded_from_calculations: boolean,
	ip_address: text,
	origin_url: text,
	created_at: datetime(true),
	updated_at: datetime(false),
};
const DECLINE_FIELDS = [
	'id',
	'end_user_id',
	'survey_id',
	'ip_address',
	'origin_url',
	'created_at',
	'updated_at',
];

/** The fields about the end user, which the API's records keep under end_user. */
function endUserOf(kind: string, fields: IDataObject): IDataObject {
	const properties = fields.end_user_properties ?? {};
	if (!isObject(properties))
		throw new UnreadableDelivery(`${kind}[end_user_properties] must hold fields`);
	return {
		email: text(`${kind}[email]`, fields.email),
		external_id: text(`${kind}[external_id]`, fields.external_id),
		properties: Object.fromEntries(
			Object.entries(properties).map(([name, value]) => [
				name,
				isObject(value) ? value : String(value),
			]),
		),
	};
}

function typedRecord(kind: string, fields: IDataObject, names: string[]): IDataObject {
	const record: IDataObject = {};
	for (const name of names) {
		const value = RECORD_FIELDS[name](`${kind}[${name}]`, fields[name]);
		if (value !== null || name in fields) record[name] = value as IDataObject[string];
	}
	record.end_user = endUserOf(kind, fields);
	return record;
}

function responseRecord(fields: IDataObject): IDataObject {
	const record = typedRecord('response', fields, Object.keys(RECORD_FIELDS));
	// A response without a comment reads as the API's, whether text came empty or not at all.
	if (record.text === undefined) record.text = null;
	return record;
}

function declineRecord(fields: IDataObject): IDataObject {
	return typedRecord('decline', fields, DECLINE_FIELDS);
}
