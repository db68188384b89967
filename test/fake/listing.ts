import { invalidValue } from './errors';
import type { Params } from './params';

export const MAX_PAGE = 30;
export const MAX_PER_PAGE = 50;
const DEFAULT_PER_PAGE = 25;

const COMPARISONS = {
	eq: (value: number, bound: number) => value === bound,
	lt: (value: number, bound: number) => value < bound,
	lte: (value: number, bound: number) => value <= bound,
	gt: (value: number, bound: number) => value > bound,
	gte: (value: number, bound: number) => value >= bound,
} as const;
type Comparison = keyof typeof COMPARISONS;

/** How one list endpoint filters, sorts and pages (the spec's "Common list parameters" and its defaults). */
export interface ListRules<T> {
	/** Time fields the endpoint filters on, e.g. created → record.createdAt. */
	timeFilters: Partial<Record<'created' | 'updated', (record: T) => number>>;
	sortKeys: Record<string, (record: T) => string | number>;
	defaultSortKey: string;
	defaultSortOrder: 'asc' | 'desc';
	/** Whether sort_key may be sent (the category lists only take sort_order). */
	sortKeyAccepted: boolean;
	id: (record: T) => number;
}

/** Filters on created/updated, sorts (ties broken by id in the same direction, so paging is stable) and pages. */
export function listPage<T>(records: Iterable<T>, params: Params, rules: ListRules<T>): T[] {
	const page = params.integer('page', { min: 1, max: MAX_PAGE }) ?? 1;
	const perPage = params.integer('per_page', { min: 1, max: MAX_PER_PAGE }) ?? DEFAULT_PER_PAGE;
	const order = params.oneOf('sort_order', ['asc', 'desc'] as const) ?? rules.defaultSortOrder;
	const sortKeyName = rules.sortKeyAccepted
		? (params.oneOf('sort_key', Object.keys(rules.sortKeys)) ?? rules.defaultSortKey)
		: rules.defaultSortKey;

	const tests: Array<(record: T) => boolean> = [];
	for (const [name, field] of Object.entries(rules.timeFilters)) {
		const range = params.nested(name);
		if (!range) continue;
		for (const comparison of range.keys()) {
			if (!Object.hasOwn(COMPARISONS, comparison)) throw invalidValue(`${name}[${comparison}]`);
			const bound = range.integer(comparison)!;
			const compare = COMPARISONS[comparison as Comparison];
			tests.push((record) => compare(field!(record), bound));
		}
	}

	const sortValue = rules.sortKeys[sortKeyName];
	const direction = order === 'asc' ? 1 : -1;
	const selected = [...records].filter((record) => tests.every((test) => test(record)));
	selected.sort((a, b) => {
		const left = sortValue(a);
		const right = sortValue(b);
		const byKey = left < right ? -1 : left > right ? 1 : 0;
		return direction * (byKey || rules.id(a) - rules.id(b));
	});
	return selected.slice((page - 1) * perPage, page * perPage);
}
