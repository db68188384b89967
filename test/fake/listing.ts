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

/**
 * The whole seconds a comparison keeps, as [from, to] (both included): timestamps are whole
 * seconds.
 */
const SECONDS_KEPT: Record<Comparison, (bound: number) => [number, number]> = {
	eq: (bound) => [bound, bound],
	lt: (bound) => [-Infinity, bound - 1],
	lte: (bound) => [-Infinity, bound],
	gt: (bound) => [bound + 1, Infinity],
	gte: (bound) => [bound, Infinity],
};

/**
 * How one list endpoint filters, sorts and pages (the spec's "Common list parameters" and its
 * defaults).
 */
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

/**
 * How records sharing a sort value are ordered, which the spec does not say: by id in the sort's
 * direction ('reversed': newest first is oldest first backwards), or by id ascending in both
 * directions ('idAscending').
 */
export type TieOrder = 'reversed' | 'idAscending';

interface Dated {
	id: number;
	createdAt: number;
}

/**
 * Records by id that also keep them in created_at order (ties by id), so a list sorted by
 * created_at finds its `created` window by binary search instead of filtering and sorting every
 * record on every request: paging through 50,000 responses stays cheap. The order is rebuilt after
 * a record is added or removed; created_at never changes once stored (no endpoint changes it), so a
 * test that edits a stored record's createdAt must store it again.
 */
export class RecordTable<T extends Dated> extends Map<number, T> {
	private ordered?: T[];

	set(id: number, record: T): this {
		this.ordered = undefined;
		return super.set(id, record);
	}

	delete(id: number): boolean {
		this.ordered = undefined;
		return super.delete(id);
	}

	clear(): void {
		this.ordered = undefined;
		super.clear();
	}

	/**
	 * The records created from `from` to `to` (seconds, both included), oldest or newest first, ties
	 * as `ties` says.
	 */
	*createdBetween(from: number, to: number, order: 'asc' | 'desc', ties: TieOrder): Generator<T> {
		const ordered = (this.ordered ??= [...this.values()].sort(
			(a, b) => a.createdAt - b.createdAt || a.id - b.id,
		));
		const first = firstCreatedAtOrAfter(ordered, from);
		const end = firstCreatedAtOrAfter(ordered, to + 1);
		if (order === 'asc') for (let index = first; index < end; index++) yield ordered[index];
		else if (ties === 'reversed')
			for (let index = end - 1; index >= first; index--) yield ordered[index];
		else {
			// Seconds newest first, each second's records in the stored (id ascending) order.
			for (let secondEnd = end; secondEnd > first; ) {
				const secondStart = firstCreatedAtOrAfter(ordered, ordered[secondEnd - 1].createdAt);
				for (let index = secondStart; index < secondEnd; index++) yield ordered[index];
				secondEnd = secondStart;
			}
		}
	}
}

/** Binary search: the index of the first record created at `second` or later. */
function firstCreatedAtOrAfter(ordered: Dated[], second: number): number {
	let low = 0;
	let high = ordered.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (ordered[middle].createdAt < second) low = middle + 1;
		else high = middle;
	}
	return low;
}

/**
 * Filters on created/updated (and `where`, the endpoint's own conditions), sorts (ties broken by id
 * as `ties` says, so paging is stable) and pages. A RecordTable sorted by created_at is only walked
 * through its `created` window; any other list is filtered and sorted whole.
 */
export function listPage<T>(
	records: Iterable<T> | RecordTable<T & Dated>,
	params: Params,
	rules: ListRules<T>,
	ties: TieOrder,
	where: (record: T) => boolean = () => true,
): T[] {
	const page = params.integer('page', { min: 1, max: MAX_PAGE }) ?? 1;
	const perPage = params.integer('per_page', { min: 1, max: MAX_PER_PAGE }) ?? DEFAULT_PER_PAGE;
	const order = params.oneOf('sort_order', ['asc', 'desc'] as const) ?? rules.defaultSortOrder;
	const sortKeyName = rules.sortKeyAccepted
		? (params.oneOf('sort_key', Object.keys(rules.sortKeys)) ?? rules.defaultSortKey)
		: rules.defaultSortKey;

	const tests: Array<(record: T) => boolean> = [where];
	// The created window in whole seconds, both ends included: what a RecordTable needs to walk.
	let createdFrom = -Infinity;
	let createdTo = Infinity;
	for (const [name, field] of Object.entries(rules.timeFilters)) {
		const range = params.nested(name);
		if (!range) continue;
		for (const comparison of range.keys()) {
			if (!Object.hasOwn(COMPARISONS, comparison)) throw invalidValue(`${name}[${comparison}]`);
			const bound = range.integer(comparison)!;
			const compare = COMPARISONS[comparison as Comparison];
			tests.push((record) => compare(field!(record), bound));
			if (name !== 'created') continue;
			const [from, to] = SECONDS_KEPT[comparison as Comparison](bound);
			createdFrom = Math.max(createdFrom, from);
			createdTo = Math.min(createdTo, to);
		}
	}
	const matches = (record: T) => tests.every((test) => test(record));

	if (records instanceof RecordTable && sortKeyName === 'created_at') {
		return pageOf(
			records.createdBetween(createdFrom, createdTo, order, ties),
			matches,
			page,
			perPage,
		);
	}
	const sortValue = rules.sortKeys[sortKeyName];
	const direction = order === 'asc' ? 1 : -1;
	const tieDirection = ties === 'reversed' ? direction : 1;
	const selected = [...(records instanceof RecordTable ? records.values() : records)].filter(
		matches,
	);
	selected.sort((a, b) => {
		const left = sortValue(a);
		const right = sortValue(b);
		const byKey = left < right ? -1 : left > right ? 1 : 0;
		return direction * byKey || tieDirection * (rules.id(a) - rules.id(b));
	});
	return selected.slice((page - 1) * perPage, page * perPage);
}

/**
 * The `page`-th `perPage` records of those in order that match, reading no further than that page.
 */
function pageOf<T>(
	inOrder: Iterable<T>,
	matches: (record: T) => boolean,
	page: number,
	perPage: number,
): T[] {
	const skip = (page - 1) * perPage;
	const found: T[] = [];
	let matched = 0;
	for (const record of inOrder) {
		if (!matches(record) || matched++ < skip) continue;
		found.push(record);
		if (found.length === perPage) break;
	}
	return found;
}
