/**
 * The service writes datetimes in several forms (`2016-12-16 09:05:00 -0800`, `2015-04-20
 * 04:46:51-08:00`, `2014-12-01 18:36:59`, `2015-02-12T06:29:27.000-08:00`); these read any of them,
 * and every form Ruby on Rails (whose format the documented one is) prints a time in: in a UTC zone
 * it writes `2026-11-25 12:00:00 UTC`, and Ruby's own `Time#inspect` adds fractional seconds.
 */
const DATETIME =
	/^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$/;
const UTC_ZONES = new Set(['Z', 'UTC', 'GMT']);

/**
 * Milliseconds since the epoch, or undefined when the text is not one of the service's forms. A
 * form without an offset is read as UTC.
 */
export function parseWootricDatetime(text: string): number | undefined {
	const match = DATETIME.exec(text.trim());
	if (!match) return undefined;
	const [, date, time, fraction = '', zone = 'Z'] = match;
	const offset = UTC_ZONES.has(zone) ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
	const milliseconds = Date.parse(`${date}T${time}${fraction}${offset}`);
	return Number.isNaN(milliseconds) ? undefined : milliseconds;
}

/** Whole UNIX seconds of a datetime the service returned (its filters compare whole seconds). */
export function wootricSeconds(text: unknown): number | undefined {
	if (typeof text !== 'string') return undefined;
	const milliseconds = parseWootricDatetime(text);
	return milliseconds === undefined ? undefined : Math.floor(milliseconds / 1000);
}
