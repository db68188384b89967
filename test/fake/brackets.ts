/**
 * Bracket-notation parameters as the service (a Rails app) reads them:
 * `created[gt]=1` → { created: { gt: '1' } }, `emails[]=a&emails[]=b` → { emails: ['a', 'b'] },
 * `context[][name]=x&context[][name]=y` → { context: [{ name: 'x' }, { name: 'y' }] }.
 */
export type ParamValue = string | ParamValue[] | ParamObject;
export interface ParamObject {
	[key: string]: ParamValue;
}

export function parseBracketParams(pairs: Iterable<[string, string]>): ParamObject {
	const root: ParamObject = {};
	for (const [key, value] of pairs) assign(root, keyPath(key), value);
	return root;
}

/** `a[b][][c]` → ['a', 'b', '', 'c']; '' means "append to an array". */
function keyPath(key: string): string[] {
	const head = /^[^[]*/.exec(key)![0];
	const rest = [...key.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((match) => match[1]);
	return [head, ...rest];
}

function assign(target: ParamObject, path: string[], value: string): void {
	const [name, ...rest] = path;
	if (rest.length === 0) {
		target[name] = value;
		return;
	}
	if (rest[0] === '') {
		const list = Array.isArray(target[name]) ? (target[name] as ParamValue[]) : (target[name] = []);
		const after = rest.slice(1);
		if (after.length === 0) {
			list.push(value);
			return;
		}
		// Rails starts a new hash in `a[][k]` when the last one already has key k.
		let last = list[list.length - 1];
		if (!isObject(last) || after[0] in last) {
			last = {};
			list.push(last);
		}
		assign(last, after, value);
		return;
	}
	const child = isObject(target[name]) ? (target[name] as ParamObject) : (target[name] = {});
	assign(child, rest, value);
}

function isObject(value: ParamValue | undefined): value is ParamObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function paramObject(value: ParamValue | undefined): ParamObject | undefined {
	return isObject(value) ? value : undefined;
}

export function paramString(value: ParamValue | undefined): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

export function paramList(value: ParamValue | undefined): ParamValue[] | undefined {
	return Array.isArray(value) ? value : undefined;
}
