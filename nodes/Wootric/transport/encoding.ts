/**
 * The service's parameter encoding (a Rails app): nested values in bracket notation, brackets left
 * literal as Rails clients send them: `created[gt]=1`, `properties[plan]=pro`, `emails[]=a&emails[]=b`,
 * `context[][name]=x`. Booleans are `true`/`false`; undefined and null values are left out.
 */
export type ParamValue = string | number | boolean | null | undefined | ParamValue[] | ParamHash;
export interface ParamHash {
	[key: string]: ParamValue;
}

const encode = (text: string) => encodeURIComponent(text);

function pairs(key: string, value: ParamValue, out: string[]): void {
	if (value === undefined || value === null) return;
	if (Array.isArray(value)) {
		for (const entry of value) pairs(`${key}[]`, entry, out);
		return;
	}
	if (typeof value === 'object') {
		for (const [name, entry] of Object.entries(value)) pairs(`${key}[${encode(name)}]`, entry, out);
		return;
	}
	out.push(`${key}=${encode(String(value))}`);
}

export function encodeParams(params: ParamHash): string {
	const out: string[] = [];
	for (const [name, value] of Object.entries(params)) pairs(encode(name), value, out);
	return out.join('&');
}
