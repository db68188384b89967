/**
 * The textual datetime forms the real service returns (API-FACTS, "Datetime forms actually
 * returned"). Times are stored as UNIX seconds and shown in the account's UTC offset.
 */
export type DatetimeForm = 'spaceOffset' | 'naive' | 'isoMillis' | 'spaceColonOffset';

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
	offsetMinutes: number,
	form: DatetimeForm,
): string | null {
	if (unixSeconds === null) return null;
	const { date, time } = localParts(unixSeconds, offsetMinutes);
	switch (form) {
		case 'spaceOffset':
			return `${date} ${time} ${offsetText(offsetMinutes, '')}`;
		case 'naive':
			return `${date} ${time}`;
		case 'isoMillis':
			return `${date}T${time}.000${offsetText(offsetMinutes, ':')}`;
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
