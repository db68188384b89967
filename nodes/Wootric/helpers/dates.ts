import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalid } from './validation';

/**
 * A date, optionally followed by a time and an offset: `2026-01-31`, `2026-01-31T23:30:00`,
 * `2026-01-31 23:30:00.000-08:00`.
 */
const DATE_FIRST =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

interface LuxonLike {
	isValid: boolean;
	toISODate(): string | null;
}

function isLuxonDateTime(value: unknown): value is LuxonLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		(value as { isLuxonDateTime?: unknown }).isLuxonDateTime === true &&
		typeof (value as { toISODate?: unknown }).toISODate === 'function'
	);
}

/** The day of a JS Date in the workflow's time zone (a Date carries no zone of its own). */
function dayInZone(date: Date, timeZone: string): string {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	}).formatToParts(date);
	const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
	return `${part('year')}-${part('month')}-${part('day')}`;
}

function isRealDay(day: string): boolean {
	const [year, month, dayOfMonth] = day.split('-').map(Number);
	const date = new Date(Date.UTC(year, month - 1, dayOfMonth));
	return (
		date.getUTCFullYear() === year &&
		date.getUTCMonth() === month - 1 &&
		date.getUTCDate() === dayOfMonth
	);
}

/**
 * A calendar day as `YYYY-MM-DD`, or undefined when the field is empty. The day is the one written:
 * for `2026-01-31T23:30:00-08:00` it is 2026-01-31, never the UTC day (2026-02-01). Takes a plain
 * date, an ISO date-time (what n8n's date picker stores), a Luxon DateTime from an expression (`{{
 * $now }}`, its own zone's day) or a JS Date (the workflow time zone's day).
 */
function calendarDay(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string | undefined {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
		return undefined;
	let day: string | undefined;
	if (typeof value === 'string') {
		const match = DATE_FIRST.exec(value.trim());
		if (match) day = `${match[1]}-${match[2]}-${match[3]}`;
	} else if (isLuxonDateTime(value)) {
		day = value.isValid ? (value.toISODate() ?? undefined) : undefined;
	} else if (value instanceof Date && !Number.isNaN(value.getTime())) {
		day = dayInZone(value, context.getTimezone());
	}
	if (day === undefined || !isRealDay(day))
		throw invalid(
			context,
			itemIndex,
			field,
			'must be a date like 2026-01-31 (or an ISO date and time)',
			value,
		);
	return day;
}

/**
 * Start Date and End Date: whole days in the account's time zone, of the `span` (what the operation
 * calls them, e.g. "period"). With `whenEmpty` both may be left empty and that says what it means;
 * without it both are required.
 */
export function dayRangeFields(span: string, whenEmpty?: string): INodeProperties[] {
	const day = (displayName: string, name: string, which: string): INodeProperties => {
		const sentences = [
			`${which} day of the ${span}, included. Only the day counts (the time is ignored), in your Wootric account’s time zone.`,
			...(whenEmpty === undefined ? [] : [whenEmpty]),
		];
		return {
			displayName,
			name,
			type: 'dateTime',
			default: '',
			...(whenEmpty === undefined ? { required: true } : {}),
			description: sentences.join(' '),
		};
	};
	return [day('Start Date', 'startDate', 'First'), day('End Date', 'endDate', 'Last')];
}

/**
 * The item's Start Date and End Date (dayRangeFields) as `YYYY-MM-DD`; a start after the end is an
 * error. `required`: an empty one is an error too; otherwise it is undefined.
 */
export function readDayRange(
	context: IExecuteFunctions,
	itemIndex: number,
	required: true,
): { start: string; end: string };
export function readDayRange(
	context: IExecuteFunctions,
	itemIndex: number,
	required: false,
): { start?: string; end?: string };
export function readDayRange(
	context: IExecuteFunctions,
	itemIndex: number,
	required: boolean,
): { start?: string; end?: string } {
	const day = (field: string, name: string) => {
		const value: unknown = context.getNodeParameter(name, itemIndex, '');
		const text = calendarDay(context, itemIndex, field, value);
		if (text === undefined && required)
			throw invalid(context, itemIndex, field, 'is required', value);
		return text;
	};
	const start = day('Start Date', 'startDate');
	const end = day('End Date', 'endDate');
	// YYYY-MM-DD strings compare like the days they name.
	if (start !== undefined && end !== undefined && start > end)
		throw invalid(
			context,
			itemIndex,
			'Start Date',
			`must be on or before the End Date, ${end}`,
			start,
		);
	return { start, end };
}
