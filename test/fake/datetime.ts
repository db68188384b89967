/**
 * The textual datetime forms the real service returns (API-FACTS, "Datetime forms actually
 * returned"). Times are stored as UNIX seconds and shown in the account's time zone.
 */
export type DatetimeForm = 'spaceOffset' | 'naive' | 'isoMillis' | 'spaceColonOffset';

/**
 * An account's time zone: a fixed UTC offset, or Rails' own UTC zone, which the service (a Rails
 * application) prints by name: `2026-11-25 12:00:00 UTC`, ISO `2026-11-25T12:00:00.000Z`.
 */
export interface TimeZone {
	utcOffsetMinutes: number;
	railsUtc: boolean;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function offsetText(offsetMinutes: number, separator: string): string {
	const sign = offsetMinutes < 0 ? '-' : '+';
	const magnitude = Math.abs(offsetMinutes);
	return `${sign}${pad(Math.floor(magnitude / 60))}${separator}${pad(magnitude % 60)}`;
}

/** Calendar fields of a UNIX time as seen at a UTC offset. */
export function localParts(unixSeconds: number, offsetMinutes: number) {
	const local = new Date((unixSeconds + offsetMinutes * 60) * 1000);
	return {
		date: `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`,
		time: `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`,
	};
}

export function formatDatetime(
	unixSeconds: number | null,
	zone: TimeZone,
	form: DatetimeForm,
): string | null {
	if (unixSeconds === null) return null;
	const offsetMinutes = zone.railsUtc ? 0 : zone.utcOffsetMinutes;
	const { date, time } = localParts(unixSeconds, offsetMinutes);
	switch (form) {
		case 'spaceOffset':
			return `${date} ${time} ${zone.railsUtc ? 'UTC' : offsetText(offsetMinutes, '')}`;
		case 'naive':
			return `${date} ${time}`;
		case 'isoMillis':
			return `${date}T${time}.000${zone.railsUtc ? 'Z' : offsetText(offsetMinutes, ':')}`;
		case 'spaceColonOffset':
			return `${date} ${time}${offsetText(offsetMinutes, ':')}`;
	}
}

/**
 * `YYYY-MM-DD` at a UTC offset → UNIX seconds of that local midnight, or undefined when malformed.
 */
export function localMidnight(day: string, offsetMinutes: number): number | undefined {
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
	if (!match) return undefined;
	const utc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
	const check = new Date(utc);
	if (check.getUTCMonth() !== Number(match[2]) - 1 || check.getUTCDate() !== Number(match[3]))
		return undefined;
	return utc / 1000 - offsetMinutes * 60;
}
