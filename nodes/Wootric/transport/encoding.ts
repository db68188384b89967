/**
 * The service's parameter encoding (a Rails app): nested values in bracket notation, brackets left
 * literal as Rails clients send them: `created[gt]=1`, `properties[plan]=pro`,
 * `emails[]=a&emails[]=b`, `context[][name]=x`. Booleans are `true`/`false`; undefined and null
 * values are left out.
 */
export type ParamValue = string | number | boolean | null | undefined | ParamValue[] | ParamHash;
export interface ParamHash {
	[key: string]: ParamValue;
}

/**
 * Each leaf as a `[bracketed name, text]` pair, in order: `emails[]`, `end_user[properties][plan]`,
 * …
 */
export function flattenParams(params: ParamHash): Array<[string, string]> {
	const out: Array<[string, string]> = [];
	const visit = (name: string, value: ParamValue) => {
		if (value === undefined || value === null) return;
		if (Array.isArray(value)) {
			for (const entry of value) visit(`${name}[]`, entry);
		} else if (typeof value === 'object') {
			for (const [key, entry] of Object.entries(value)) visit(`${name}[${key}]`, entry);
		} else {
			out.push([name, String(value)]);
		}
	};
	for (const [name, value] of Object.entries(params)) visit(name, value);
	return out;
}

/** Percent-encodes names and values but leaves the brackets literal, as Rails clients send them. */
export function encodeParams(params: ParamHash): string {
	// Names repeat (`emails[]` a hundred times in a survey request): each is encoded once.
	const encodedNames = new Map<string, string>();
	const encodeName = (name: string) => {
		let encoded = encodedNames.get(name);
		if (encoded === undefined) {
			encoded = name
				.split(/([[\]])/)
				.map((part) => (part === '[' || part === ']' ? part : encodeURIComponent(part)))
				.join('');
			encodedNames.set(name, encoded);
		}
		return encoded;
	};
	return flattenParams(params)
		.map(([name, value]) => `${encodeName(name)}=${encodeURIComponent(value)}`)
		.join('&');
}
