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

// Parameter names come from the client: read and write own properties only, so names such as
// `constructor` are plain keys and `__proto__[x]` cannot reach Object.prototype.
const own = (target: ParamObject, key: string): ParamValue | undefined =>
	Object.hasOwn(target, key) ? target[key] : undefined;

function put<T extends ParamValue>(target: ParamObject, key: string, value: T): T {
	Object.defineProperty(target, key, {
		value,
		writable: true,
		enumerable: true,
		configurable: true,
	});
	return value;
}

function assign(target: ParamObject, path: string[], value: string): void {
	const [name, ...rest] = path;
	if (rest.length === 0) {
		put(target, name, value);
		return;
	}
	const current = own(target, name);
	if (rest[0] === '') {
		const list = Array.isArray(current) ? current : put<ParamValue[]>(target, name, []);
		const after = rest.slice(1);
		if (after.length === 0) {
			list.push(value);
			return;
		}
		// Rails starts a new hash in `a[][k]` when the last one already holds that key path.
		let last = list[list.length - 1];
		if (!isObject(last) || hasKeyPath(last, after)) {
			last = {};
			list.push(last);
		}
		assign(last, after, value);
		return;
	}
	const child = isObject(current) ? current : put<ParamObject>(target, name, {});
	assign(child, rest, value);
}

/** Rails' params_hash_has_key?: a path with an array step (`[]`) never counts as present. */
function hasKeyPath(hash: ParamObject, path: string[]): boolean {
	if (path.includes('')) return false;
	let node: ParamValue | undefined = hash;
	for (const key of path) {
		if (!isObject(node)) return false;
		node = own(node, key);
		if (node === undefined) return false;
	}
	return true;
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
