import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * What reading a value needs of a node's context: the action node's, or the trigger's (which has no
 * items).
 */
export type ValueContext = Pick<IExecuteFunctions, 'getNode' | 'getTimezone'>;

/**
 * Reading parameters as the API needs them, before anything is sent. A bad value stops the item
 * with an error that names the field, the item (where there is one) and the value received.
 */
export function invalid(
	context: ValueContext,
	itemIndex: number | undefined,
	field: string,
	rule: string,
	value: unknown,
): NodeOperationError {
	const shown = typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
	const where = itemIndex === undefined ? '' : `item ${itemIndex}: `;
	return new NodeOperationError(context.getNode(), `${field} ${rule} (${where}got ${shown})`, {
		itemIndex,
	});
}

/** A whole number within bounds; numeric strings from expressions are accepted. */
export function integerValue(
	context: ValueContext,
	itemIndex: number | undefined,
	field: string,
	value: unknown,
	bounds: { min?: number; max?: number; scale?: string } = {},
): number {
	const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
	const { min, max } = bounds;
	const inRange =
		typeof number === 'number' &&
		Number.isInteger(number) &&
		(min === undefined || number >= min) &&
		(max === undefined || number <= max);
	if (!inRange) {
		const range =
			min !== undefined && max !== undefined
				? ` from ${min} to ${max}`
				: min !== undefined
					? ` of at least ${min}`
					: '';
		const scale = bounds.scale ? ` (${bounds.scale}, the credential's Survey Type)` : '';
		throw invalid(context, itemIndex, field, `must be a whole number${range}${scale}`, value);
	}
	return number as number;
}

/** true or false; "true"/"false" from an expression too. */
export function booleanValue(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): boolean {
	if (value === true || value === 'true') return true;
	if (value === false || value === 'false') return false;
	throw invalid(context, itemIndex, field, 'must be true or false', value);
}

/**
 * A non-empty text field, trimmed: an empty one is an error, whether required or added as an
 * option.
 */
export function nonEmptyText(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string {
	const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (text === '') throw invalid(context, itemIndex, field, 'must not be empty', value ?? '');
	return text;
}

/** A record id: a positive whole number. */
export function idParameter(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
): number {
	return integerValue(context, itemIndex, field, context.getNodeParameter(name, itemIndex), {
		min: 1,
	});
}

/** Minutes the zone is ahead of UTC at that instant, e.g. 60 for Europe/Berlin in winter. */
function zoneOffsetMinutes(utcMilliseconds: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: 'numeric',
		day: 'numeric',
		hour: 'numeric',
		minute: 'numeric',
		second: 'numeric',
	})
		.formatToParts(new Date(utcMilliseconds))
		.reduce<Record<string, number>>(
			(all, part) => ({ ...all, [part.type]: Number(part.value) }),
			{},
		);
	const asUtc = Date.UTC(
		parts.year,
		parts.month - 1,
		parts.day,
		parts.hour,
		parts.minute,
		parts.second,
	);
	return Math.round((asUtc - Math.floor(utcMilliseconds / 1000) * 1000) / 60000);
}

/**
 * An ISO date-time: with an offset (or Z) as it says; without one, in the workflow's time zone, as
 * n8n's date picker means it.
 */
function isoMilliseconds(text: string, timeZone: string): number {
	const local = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?$/.exec(
		text.trim(),
	);
	if (!local) return Date.parse(text);
	const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '0'] = local;
	const wallClock = Date.UTC(
		+year,
		+month - 1,
		+day,
		+hour,
		+minute,
		+second,
		Number(fraction.padEnd(3, '0').slice(0, 3)),
	);
	const check = new Date(wallClock);
	// Date.UTC rolls 2026-13-45 over into 2027; a real date reads back the same.
	if (
		check.getUTCMonth() !== +month - 1 ||
		check.getUTCDate() !== +day ||
		check.getUTCHours() !== +hour ||
		check.getUTCMinutes() !== +minute
	)
		return Number.NaN;
	const guess = wallClock - zoneOffsetMinutes(wallClock, timeZone) * 60000;
	return wallClock - zoneOffsetMinutes(guess, timeZone) * 60000;
}

/** UNIX seconds from an ISO date string, an n8n/Luxon DateTime, a Date, or a number of seconds. */
export function unixSeconds(
	context: ValueContext,
	itemIndex: number | undefined,
	field: string,
	value: unknown,
): number {
	let milliseconds = Number.NaN;
	if (typeof value === 'number' && Number.isFinite(value)) milliseconds = value * 1000;
	else if (typeof value === 'string' && /^\s*\d+\s*$/.test(value))
		milliseconds = Number(value) * 1000;
	else if (typeof value === 'string' && value.trim() !== '')
		milliseconds = isoMilliseconds(value, context.getTimezone());
	else if (value instanceof Date) milliseconds = value.getTime();
	else if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toMillis?: unknown }).toMillis === 'function'
	) {
		milliseconds = (value as { toMillis(): number }).toMillis();
	}
	if (!Number.isFinite(milliseconds))
		throw invalid(
			context,
			itemIndex,
			field,
			'must be a date (ISO 8601, e.g. 2026-01-31T12:00:00Z) or UNIX seconds',
			value,
		);
	return Math.floor(milliseconds / 1000);
}

/**
 * Created At of a record to create, when the field was added: empty is refused, not taken as "now"
 * (an import whose date mapping came out empty would otherwise create records dated today).
 */
export function createdAtSeconds(context: ValueContext, itemIndex: number, value: unknown): number {
	if (value === undefined || value === null || String(value).trim() === '') {
		throw invalid(
			context,
			itemIndex,
			'Created At',
			'is empty: give a date, or remove the field to record the time of the request',
			value,
		);
	}
	return unixSeconds(context, itemIndex, 'Created At', value);
}

/**
 * Whether the text has the usual shape of an email address, something@domain.tld (no white space).
 */
export function isEmailAddress(text: string): boolean {
	return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);
}

/** An email address of the usual shape (something@domain.tld), trimmed. */
export function emailValue(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string {
	const email = typeof value === 'string' ? value.trim() : '';
	if (!isEmailAddress(email))
		throw invalid(
			context,
			itemIndex,
			field,
			'must be an email address like name@example.com',
			value,
		);
	return email;
}

/** A phone number in international form, as the service looks them up: it must start with '+'. */
export function phoneValue(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string {
	const phone = typeof value === 'string' ? value.replace(/[\s()-]/g, '') : String(value ?? '');
	if (!/^\+\d{4,15}$/.test(phone))
		throw invalid(
			context,
			itemIndex,
			field,
			"must start with '+' and the country code, e.g. +15550100",
			value,
		);
	return phone;
}
