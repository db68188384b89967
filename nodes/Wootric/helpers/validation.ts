import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Reading parameters as the API needs them, before anything is sent. A bad value stops the item with an
 * error that names the field, the item and the value received.
 */
export function invalid(context: IExecuteFunctions, itemIndex: number, field: string, rule: string, value: unknown): NodeOperationError {
	const shown = typeof value === 'string' ? `"${value}"` : JSON.stringify(value) ?? String(value);
	return new NodeOperationError(context.getNode(), `${field} ${rule} (item ${itemIndex}: got ${shown})`, { itemIndex });
}

/** A whole number within bounds; numeric strings from expressions are accepted. */
export function integerValue(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	bounds: { min?: number; max?: number } = {},
): number {
	const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
	const { min, max } = bounds;
	const inRange = typeof number === 'number' && Number.isInteger(number) && (min === undefined || number >= min) && (max === undefined || number <= max);
	if (!inRange) {
		const range = min !== undefined && max !== undefined ? ` from ${min} to ${max}` : min !== undefined ? ` of at least ${min}` : '';
		throw invalid(context, itemIndex, field, `must be a whole number${range}`, value);
	}
	return number as number;
}

/** A record id: a positive whole number. */
export function idParameter(context: IExecuteFunctions, itemIndex: number, name: string, field: string): number {
	return integerValue(context, itemIndex, field, context.getNodeParameter(name, itemIndex), { min: 1 });
}

/** UNIX seconds from an ISO date string, an n8n/Luxon DateTime, a Date, or a number of seconds. */
export function unixSeconds(context: IExecuteFunctions, itemIndex: number, field: string, value: unknown): number {
	let milliseconds = Number.NaN;
	if (typeof value === 'number' && Number.isFinite(value)) milliseconds = value * 1000;
	else if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) milliseconds = Number(value) * 1000;
	else if (typeof value === 'string' && value.trim() !== '') milliseconds = Date.parse(value);
	else if (value instanceof Date) milliseconds = value.getTime();
	else if (value && typeof value === 'object' && typeof (value as { toMillis?: unknown }).toMillis === 'function') {
		milliseconds = (value as { toMillis(): number }).toMillis();
	}
	if (!Number.isFinite(milliseconds)) throw invalid(context, itemIndex, field, 'must be a date (ISO 8601, e.g. 2026-01-31T12:00:00Z) or UNIX seconds', value);
	return Math.floor(milliseconds / 1000);
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email address of the usual shape (something@domain.tld), trimmed. */
export function emailValue(context: IExecuteFunctions, itemIndex: number, field: string, value: unknown): string {
	const email = typeof value === 'string' ? value.trim() : '';
	if (!EMAIL_SHAPE.test(email)) throw invalid(context, itemIndex, field, 'must be an email address like name@example.com', value);
	return email;
}

/** A phone number in international form, as the service looks them up: it must start with '+'. */
export function phoneValue(context: IExecuteFunctions, itemIndex: number, field: string, value: unknown): string {
	const phone = typeof value === 'string' ? value.replace(/[\s()-]/g, '') : String(value ?? '');
	if (!/^\+\d{4,15}$/.test(phone)) throw invalid(context, itemIndex, field, "must start with '+' and the country code, e.g. +15550100", value);
	return phone;
}
