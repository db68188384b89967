import type { ParamObject, ParamValue } from './brackets';
import { paramList, paramObject } from './brackets';
import { invalidValue, missingValue } from './errors';

/**
 * Reading typed values out of bracket-parsed parameters; anything malformed is a 400 naming the
 * field.
 */
export class Params {
	constructor(
		private readonly values: ParamObject,
		private readonly prefix = '',
	) {}

	private name(key: string) {
		return this.prefix ? `${this.prefix}[${key}]` : key;
	}

	/** Own properties only: a client's `constructor` or `toString` is not an inherited function. */
	private value(key: string): ParamValue | undefined {
		return Object.hasOwn(this.values, key) ? this.values[key] : undefined;
	}

	has(key: string): boolean {
		return this.value(key) !== undefined;
	}

	string(key: string): string | undefined {
		const value = this.value(key);
		if (value === undefined) return undefined;
		if (typeof value !== 'string') throw invalidValue(this.name(key));
		return value;
	}

	requiredString(key: string): string {
		const value = this.string(key);
		if (value === undefined || value.trim() === '') throw missingValue(this.name(key));
		return value;
	}

	integer(key: string, range: { min?: number; max?: number } = {}): number | undefined {
		const text = this.string(key);
		if (text === undefined) return undefined;
		if (!/^-?\d+$/.test(text.trim())) throw invalidValue(this.name(key));
		const value = Number(text);
		if (
			(range.min !== undefined && value < range.min) ||
			(range.max !== undefined && value > range.max)
		) {
			throw invalidValue(this.name(key));
		}
		return value;
	}

	boolean(key: string): boolean | undefined {
		const text = this.string(key);
		if (text === undefined) return undefined;
		if (text === 'true' || text === '1') return true;
		if (text === 'false' || text === '0') return false;
		throw invalidValue(this.name(key));
	}

	oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
		const text = this.string(key);
		if (text === undefined) return undefined;
		if (!allowed.includes(text as T)) throw invalidValue(this.name(key));
		return text as T;
	}

	/** A nested hash such as `created[...]` or `end_user[properties][...]`. */
	nested(key: string): Params | undefined {
		const value = this.value(key);
		if (value === undefined) return undefined;
		const object = paramObject(value);
		if (!object) throw invalidValue(this.name(key));
		return new Params(object, this.name(key));
	}

	/** A flat string→string hash, e.g. `properties[plan]=pro`. */
	stringHash(key: string): Record<string, string> | undefined {
		const nested = this.nested(key);
		if (!nested) return undefined;
		return Object.fromEntries(nested.keys().map((name) => [name, nested.string(name) ?? '']));
	}

	/** `emails[]=a&emails[]=b` */
	stringList(key: string): string[] | undefined {
		const value = this.value(key);
		if (value === undefined) return undefined;
		const list = paramList(value);
		if (!list || list.some((entry: ParamValue) => typeof entry !== 'string'))
			throw invalidValue(`${this.name(key)}[]`);
		return list as string[];
	}

	/** `context[][name]=x` */
	hashList(key: string): ParamObject[] | undefined {
		const value = this.value(key);
		if (value === undefined) return undefined;
		const list = paramList(value);
		if (!list || list.some((entry) => !paramObject(entry)))
			throw invalidValue(`${this.name(key)}[]`);
		return list as ParamObject[];
	}

	keys(): string[] {
		return Object.keys(this.values);
	}

	raw(): ParamObject {
		return this.values;
	}
}

export const paramsOf = (values: ParamObject) => new Params(values);
