import type { seededRandom } from './wootric';

type Random = ReturnType<typeof seededRandom>;

/** Values of every JSON type, none of them what a field usually holds. */
const ODD_VALUES: unknown[] = [null, '', 0, -1, 1.5, true, 'x', [], {}, [1], { a: 1 }];
const UNREADABLE_TIMES: unknown[] = ['', 'not a time', '2026-13-45 99:99:99', 0, -1, true, {}];
const VERY_LONG = 'x'.repeat(20_000);

/** A JSON value's type: null and lists apart from objects. */
const typeOf = (value: unknown) =>
	value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value;

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The records of a body: itself, or each entry of a list. */
const recordsOf = (body: unknown): Array<Record<string, unknown>> =>
	(Array.isArray(body) ? body : [body]).filter(isObject);

/**
 * The records and the lists a value holds at any depth, itself included (a template's languages in
 * the list of templates in an answer's record, …); at most 500 of each.
 */
function partsOf(
	value: unknown,
	parts: { records: Array<Record<string, unknown>>; lists: unknown[][] } = {
		records: [],
		lists: [],
	},
) {
	if (parts.records.length >= 500 || parts.lists.length >= 500) return parts;
	if (Array.isArray(value)) parts.lists.push(value);
	else if (isObject(value)) parts.records.push(value);
	else return parts;
	for (const entry of Object.values(value)) partsOf(entry, parts);
	return parts;
}

/** A record, or one of the records it holds at any depth (an end user in a response, …). */
function someRecord(random: Random, record: Record<string, unknown>): Record<string, unknown> {
	const nested = partsOf(record).records.slice(1);
	return nested.length > 0 && random.chance(0.3) ? random.pick(nested) : record;
}

/**
 * The ways an answer of the API can be malformed, each a function of the body the fake would have
 * sent (see the fake's `mangle` fault): the whole body another value, a list where a record goes and
 * back, fields missing or of another type, times unreadable, very long strings.
 */
const MANGLES: Record<string, (random: Random, body: unknown) => unknown> = {
	// Not an empty list: to a list endpoint, that is a well-formed answer (nothing there).
	'another value': (random) =>
		random.pick([
			...ODD_VALUES.filter((value) => !Array.isArray(value) || value.length > 0),
			undefined,
		]),
	'list and record swapped': (_, body) => (Array.isArray(body) ? (body[0] ?? {}) : [body]),
	'a field missing': (random, body) => {
		for (const record of recordsOf(body)) {
			const target = someRecord(random, record);
			const keys = Object.keys(target);
			if (keys.length > 0) delete target[random.pick(keys)];
		}
		return body;
	},
	'a field of another type': (random, body) => {
		for (const record of recordsOf(body)) {
			const target = someRecord(random, record);
			const keys = Object.keys(target);
			if (keys.length === 0) continue;
			const key = random.pick(keys);
			target[key] = random.pick(
				ODD_VALUES.filter((value) => typeOf(value) !== typeOf(target[key])),
			);
		}
		return body;
	},
	'times unreadable': (random, body) => {
		for (const record of recordsOf(body))
			for (const target of [record, ...Object.values(record).filter(isObject)])
				for (const key of Object.keys(target))
					if (/_at$|date|time/.test(key)) target[key] = random.pick(UNREADABLE_TIMES);
		return body;
	},
	'very long strings': (random, body) => {
		for (const record of recordsOf(body)) {
			const target = someRecord(random, record);
			const strings = Object.keys(target).filter((key) => typeof target[key] === 'string');
			if (strings.length > 0) target[random.pick(strings)] = VERY_LONG;
		}
		return body;
	},
	// The body's own list half the time, else any list it holds (a template's languages, …).
	'a list entry not a record': (random, body) => {
		const lists = partsOf(body).lists.filter((list) => list.length > 0);
		if (lists.length === 0) return body;
		const list = lists[0] === body && random.chance(0.5) ? lists[0] : random.pick(lists);
		list[random.int(0, list.length - 1)] = random.pick(ODD_VALUES);
		return body;
	},
};

/** One mangle picked at random: its name and what it does to a body (a copy). */
export function pickMangle(random: Random): { name: string; mangle: (body: unknown) => unknown } {
	const name = random.pick(Object.keys(MANGLES));
	return { name, mangle: (body) => MANGLES[name](random, structuredClone(body)) };
}

/**
 * Whether an error is n8n's own, thrown on purpose, rather than a fault of the code reading an
 * answer: a TypeError or a RangeError, as such or as the message n8n wrapped it in.
 */
export function isCrash(error: { name?: string; message?: string; cause?: unknown }): boolean {
	const chain: Array<{ name?: string; message?: string; cause?: unknown }> = [];
	for (
		let current: typeof error | undefined = error;
		current && chain.length < 5;
		current = current.cause as typeof error | undefined
	)
		chain.push(current);
	return chain.some(
		({ name, message }) =>
			name === 'TypeError' ||
			name === 'RangeError' ||
			/Cannot read prop|Cannot convert|is not a function|is not iterable|of undefined|of null|Invalid time value|Maximum call stack|Invalid array length/.test(
				message ?? '',
			),
	);
}

/**
 * The path segments an odd value, or nothing, becomes in a template path (`/v1/end_users/${id}`),
 * as the request's URL encodes it: an ID it cannot be.
 */
const ODD_SEGMENTS = new Set(
	[...ODD_VALUES, undefined, Number.NaN]
		.map((value) => new URL(`http://host/${String(value)}`).pathname.slice(1))
		.filter((segment) => !/^[1-9]\d*$/.test(segment)),
);

/**
 * A segment of a request's path made of a value an answer held where an ID belongs: a write or a
 * read the user never asked for (`PUT /v1/end_users/undefined`), if any.
 */
export function oddSegmentIn(path: string): string | undefined {
	return path
		.split('/')
		.slice(1)
		.find((segment) => ODD_SEGMENTS.has(segment));
}
