/**
 * What an answer's body looks like, and how two such looks differ: the live check compares the real
 * service's answers with the fake's, field by field, never value by value.
 */

/** The forms of a time the service is known or said to send (API-FACTS, Datetime forms). */
const TIME_FORMS: Array<[RegExp, string]> = [
	[/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/, 'time 2016-12-16 09:05:00 -0800'],
	[/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/, 'time 2015-04-20 04:46:51-08:00'],
	[/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} (UTC|GMT)$/, 'time 2026-11-25 12:00:00 UTC'],
	[/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'time 2014-12-01 18:36:59'],
	[/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/, 'time ISO 8601'],
	[/^\d{4}-\d{2}-\d{2}$/, 'date 2026-11-25'],
	[/^[A-Z][a-z]{2} \d{1,2}, \d{4} +\d{1,2}:\d{2}[AP]M$/, 'time Jan 11, 2024  9:01AM'],
];

/** A value's type as the comparison tells them apart: a string that is a time by its form. */
export function typeOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'list';
	if (typeof value === 'object') return 'record';
	if (typeof value === 'string')
		return TIME_FORMS.find(([form]) => form.test(value))?.[1] ?? 'string';
	return typeof value;
}

/**
 * A body's look: its kind (record, list, nothing, …) and, for a record or a list of records, the
 * types each field was seen with, nested records' fields as `outer.inner`.
 */
export interface Shape {
	kind: string;
	fields: Record<string, string[]>;
	/** How many records it held (a list's entries, 1 for a record). */
	records: number;
}

function addFields(fields: Map<string, Set<string>>, record: object, prefix = ''): void {
	for (const [name, value] of Object.entries(record)) {
		const field = `${prefix}${name}`;
		fields.set(field, (fields.get(field) ?? new Set()).add(typeOf(value)));
		if (typeOf(value) === 'record' && prefix === '')
			addFields(fields, value as object, `${field}.`);
	}
}

/** The look of several bodies of one endpoint taken together. */
export function shapeOf(bodies: unknown[]): Shape {
	const kinds = new Set(bodies.map((body) => (body === undefined ? 'nothing' : typeOf(body))));
	const fields = new Map<string, Set<string>>();
	let records = 0;
	for (const body of bodies) {
		for (const record of Array.isArray(body) ? body : [body]) {
			if (typeOf(record) !== 'record') continue;
			records++;
			addFields(fields, record as object);
		}
	}
	return {
		kind: [...kinds].sort().join(' or '),
		fields: Object.fromEntries([...fields].map(([name, types]) => [name, [...types].sort()])),
		records,
	};
}

/**
 * How `seen` differs from `expected`, in words: its kind, a field the fake has that it lacks, a field
 * it has that the fake lacks, a field of a type the fake never gives it. Fields are compared only
 * where both hold records.
 */
export function shapeDifferences(expected: Shape, seen: Shape): string[] {
	const differences: string[] = [];
	if (expected.kind !== seen.kind)
		differences.push(`the answer is ${seen.kind} (the fake: ${expected.kind})`);
	if (expected.records === 0 || seen.records === 0) return differences;
	for (const [field, types] of Object.entries(expected.fields)) {
		const seenTypes = seen.fields[field];
		if (!seenTypes) differences.push(`${field}: missing`);
		else {
			const others = seenTypes.filter((type) => !types.includes(type));
			if (others.length > 0)
				differences.push(`${field}: ${others.join(', ')} (the fake: ${types.join(', ')})`);
		}
	}
	for (const field of Object.keys(seen.fields))
		if (!expected.fields[field]) differences.push(`${field}: not in the fake`);
	return differences;
}
