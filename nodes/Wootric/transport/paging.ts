import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { wootricSeconds } from './datetime';
import type { ParamHash } from './encoding';
import { canSendAhead, wootricRequest, type WootricContext } from './request';

export const PER_PAGE = 50;
export const MAX_PAGE = 30;

/** A `created[...]` or `updated[...]` range in UNIX seconds, as the list endpoints take it (a type, so it is a ParamHash too). */
export type TimeRange = {
	eq?: number;
	lt?: number;
	lte?: number;
	gt?: number;
	gte?: number;
};

/** The two times every list endpoint with a sort_key filters and sorts on. */
export type TimeField = 'created' | 'updated';

type Ranges = Partial<Record<TimeField, TimeRange>>;

/**
 * Records that may exist and that no filter the API takes can reach: past the 1,500 read from each end of
 * one created_at and one updated_at second (or, on a list without an `updated` filter, one created_at
 * second) when the two ends do not show they met, or past a window without a readable time to move by.
 * Whether there are any, and how many, is unknown.
 */
export interface UnreadableRecords {
	path: string;
	/** The seconds they share. */
	created?: number;
	updated?: number;
	/** How many records of those seconds were read. */
	read: number;
	/** Says that the rest could not be read, how many were, and how to get the rest. */
	message: string;
}

export interface ListRequest {
	/** A list endpoint, e.g. /v1/responses. */
	path: string;
	/** Filters other than `created` and `updated`, and no paging or sorting (this helper owns those). */
	query?: ParamHash;
	created?: TimeRange;
	updated?: TimeRange;
	/** Oldest first (default) or newest first. */
	order?: 'asc' | 'desc';
	/**
	 * created_at (default) or updated_at: the list moves its window along that time, so it reads any number
	 * of records. Another key (e.g. email for end users): the window cannot move, so at most 1,500 records
	 * can be read, and asking for more is an error. null: the endpoint takes no sort_key and no `updated`
	 * filter (the category lists), and sorts by created_at itself.
	 */
	sortKey?: string | null;
	/** Stop after this many records; all when undefined. */
	limit?: number;
	/** What the list belongs to, named in a 404: e.g. "end user 123". */
	subject?: string;
	itemIndex?: number;
	/** Told of records no filter can reach (then the list goes on past them); without it, they are an error. */
	onUnreadable?: (unreadable: UnreadableRecords) => void;
	/** Told the service's time of each page's answer (see WootricRequest). */
	onServiceTime?: (unixSeconds: number) => void;
}

/** One listing's progress, shared by the windows it reads. */
interface Listing {
	context: WootricContext;
	request: ListRequest;
	/** Ids already yielded: windows overlap at their edge second. */
	seen: Set<unknown>;
	remaining: number;
	/** Whether a second can be split by the other time (the endpoint takes both filters and sort keys). */
	splittable: boolean;
	/** Full pages read so far, in every window: how far ahead the reading may go. */
	fullPagesRead: number;
}

/** One query's sort: the time whose seconds the records are read in (undefined: another sort key). */
interface Sort {
	field?: TimeField;
	/** The sort_key sent; undefined sends none. */
	key?: string;
	order: 'asc' | 'desc';
}

interface WindowRead {
	/** All 30 pages were full: there may be more. */
	full: boolean;
	/** The `field` second of the last record read. */
	lastSecond?: number;
	/** The ids of the records at the window's end that share lastSecond, in the order read. */
	lastSecondIds: unknown[];
	/** Every record id the window returned, fresh or not. */
	ids: unknown[];
}

/** The records of one second holding a whole window, as a walk read them: in `order`, from that end. */
interface SecondRead {
	order: 'asc' | 'desc';
	ids: unknown[];
}

/** The user's range as whole-second bounds, with the moving edge of the window split out. */
function windowBounds(range: TimeRange, order: 'asc' | 'desc') {
	const { eq, gt, gte, lt, lte } = range;
	const defined = (...bounds: Array<number | undefined>) => bounds.filter((bound): bound is number => bound !== undefined);
	const lower = defined(gte, gt === undefined ? undefined : gt + 1, eq);
	const upper = defined(lte, lt === undefined ? undefined : lt - 1, eq);
	const from = lower.length > 0 ? Math.max(...lower) : undefined;
	const to = upper.length > 0 ? Math.min(...upper) : undefined;
	return order === 'asc'
		? { edgeKey: 'gte' as const, edge: from, fixed: { lte: to }, last: to }
		: { edgeKey: 'lte' as const, edge: to, fixed: { gte: from }, last: from };
}

/**
 * How many pages of one list may be on their way at once. Over a real network a page costs a round trip
 * and, on n8n's request path, a new connection; pages asked for together cost about one (README,
 * Performance: the curve this value was chosen from). The bench sets it to draw that curve.
 */
export const listReading = { pagesInFlight: 4 };

/**
 * The pages of one query in order, from `firstPage` up to page 30. `mayAskAhead(ahead)` says whether
 * another page can go out while the one being read and `ahead` more are on their way. A page asked for
 * ahead is sent once: if it fails it is asked for again the usual way, with retries. Those still on their
 * way when the reading stops are let finish, so no request outlives the listing.
 */
async function* windowPages(
	fetchPage: (page: number, once?: boolean) => Promise<unknown>,
	mayAskAhead: (ahead: number) => boolean,
	firstPage: number,
): AsyncGenerator<unknown> {
	const early = new Map<number, Promise<{ records: unknown } | undefined>>();
	let asked = 0;
	try {
		for (let page = firstPage; page <= MAX_PAGE; page++) {
			const sentEarly = early.get(page);
			early.delete(page);
			const current = sentEarly ? sentEarly.then((answered) => (answered ? answered.records : fetchPage(page))) : fetchPage(page);
			asked = Math.max(asked, page);
			while (asked < MAX_PAGE && mayAskAhead(asked - page)) {
				asked++;
				early.set(
					asked,
					fetchPage(asked, true).then(
						(records) => ({ records }),
						() => undefined,
					),
				);
			}
			yield await current;
		}
	} finally {
		await Promise.all(early.values());
	}
}

/**
 * The records of one query from `firstPage` (at most 30 pages), yielding those not read before, up to the
 * limit. `until` ends the reading after the page holding a record it accepts.
 */
async function* readWindow(
	listing: Listing,
	ranges: Ranges,
	sort: Sort,
	firstPage = 1,
	until?: (record: IDataObject) => boolean,
): AsyncGenerator<IDataObject[], WindowRead> {
	const { context, request } = listing;
	const fetchPage = async (page: number, once?: boolean) =>
		await wootricRequest(context, {
			method: 'GET',
			path: request.path,
			query: {
				updated: ranges.updated,
				...request.query,
				created: ranges.created,
				sort_key: sort.key,
				sort_order: sort.order,
				page,
				per_page: PER_PAGE,
			},
			subject: request.subject,
			itemIndex: request.itemIndex,
			once,
			onServiceTime: request.onServiceTime,
		});
	// Pages ahead: as many more as full pages were read so far, up to listReading.pagesInFlight (so a short
	// list costs no page past its end, and page 1 of a listing goes alone); only while the pages on their
	// way cannot reach the limit, and the rate limit leaves room for one more.
	const mayAskAhead = (ahead: number) =>
		ahead + 1 < Math.min(listReading.pagesInFlight, 1 + listing.fullPagesRead) &&
		listing.remaining > PER_PAGE * (ahead + 1) &&
		canSendAhead(context, 'GET', request.path);
	const timeKey = sort.field && `${sort.field}_at`;
	let lastSecond: number | undefined;
	let lastSecondIds: unknown[] = [];
	const ids: unknown[] = [];
	for await (const records of windowPages(fetchPage, mayAskAhead, firstPage)) {
		if (!Array.isArray(records)) {
			throw new NodeOperationError(context.getNode(), `Wootric answered ${request.path} with something other than a list`, { itemIndex: request.itemIndex });
		}
		const fresh: IDataObject[] = [];
		let done = records.length < PER_PAGE;
		if (!done) listing.fullPagesRead++;
		for (const record of records as IDataObject[]) {
			ids.push(record.id);
			// A record without a readable time stays with the second before it.
			const second = timeKey ? wootricSeconds(record[timeKey]) : undefined;
			if (second !== undefined && second !== lastSecond) {
				lastSecond = second;
				lastSecondIds = [];
			}
			lastSecondIds.push(record.id);
			if (until?.(record)) done = true;
			if (listing.seen.has(record.id) || fresh.length >= listing.remaining) continue;
			listing.seen.add(record.id);
			fresh.push(record);
		}
		listing.remaining -= fresh.length;
		if (fresh.length > 0) yield fresh;
		if (done || listing.remaining <= 0) return { full: false, lastSecond, lastSecondIds, ids };
	}
	return { full: true, lastSecond, lastSecondIds, ids };
}

/**
 * Every record within `ranges` in `field` order. One filter reaches at most 30 pages of 50 (1,500
 * records), so past that the window moves: it restarts at the last second seen (`[gte]`, or `[lte]` newest
 * first), skipping the ids already read; that also reads same-second clusters larger than a page. The
 * restarted window begins at the page holding the first record of that second not read yet: the service
 * lists the second's records in the same order again, as it must for its pages to follow one another. A
 * second holding a whole window is read on its own (readSecond), then the window moves past it.
 */
async function* walk(listing: Listing, field: TimeField, ranges: Ranges, order: 'asc' | 'desc'): AsyncGenerator<IDataObject[]> {
	const { edgeKey, fixed, edge: firstEdge, last } = windowBounds(ranges[field] ?? {}, order);
	const sort: Sort = { field, key: listing.splittable ? `${field}_at` : undefined, order };
	let edge = firstEdge;
	// The ids of the edge second read so far, in the order read.
	let edgeIds: unknown[] = [];
	for (;;) {
		const firstPage = Math.floor(edgeIds.length / PER_PAGE) + 1;
		const window = yield* readWindow(listing, { ...ranges, [field]: { ...fixed, [edgeKey]: edge } }, sort, firstPage);
		if (!window.full) return;
		// A window without one readable time stands at its edge; with no edge either, nothing places it.
		const second = window.lastSecond ?? edge;
		if (second === undefined) {
			reportUnreadable(listing, ranges, window.ids.length, `the records read have no readable ${field}_at to move the window by`);
			return;
		}
		// A window that ends in its edge second holds nothing else: with the pages it skipped, that second's first 1,500.
		const secondIds = second === edge ? [...edgeIds.slice(0, (firstPage - 1) * PER_PAGE), ...window.lastSecondIds] : window.lastSecondIds;
		if (secondIds.length < PER_PAGE * MAX_PAGE) {
			edge = second;
			edgeIds = secondIds;
			continue;
		}
		yield* readSecond(listing, field, second, ranges, { order, ids: secondIds });
		edge = order === 'asc' ? second + 1 : second - 1;
		edgeIds = [];
		if (listing.remaining <= 0 || (last !== undefined && (order === 'asc' ? edge > last : edge < last))) return;
	}
}

/**
 * The records of one `field` second holding more than a window, of which `read` holds the first 1,500
 * from one end: split by the other time where the endpoint filters on it (`created[eq]` walked along
 * `updated`, or the reverse), else (or when both seconds are pinned already) read from the other end too.
 */
async function* readSecond(listing: Listing, field: TimeField, second: number, ranges: Ranges, read: SecondRead): AsyncGenerator<IDataObject[]> {
	const pinned: Ranges = { ...ranges, [field]: { eq: second } };
	const other: TimeField = field === 'created' ? 'updated' : 'created';
	if (listing.splittable && pinned[other]?.eq === undefined) {
		yield* walk(listing, other, pinned, 'asc');
		return;
	}
	// The two ends cover the second only where the other end is the first one reversed, as it shows when
	// the first record of `read` it comes to is the last one of `read`. Ties ordered another way (e.g. by
	// id both ways) may give both ends the same records and leave those between them unread.
	const readFirst = new Set(read.ids);
	const lastRead = read.ids[read.ids.length - 1];
	let metEarlier = false;
	const metReversed = (record: IDataObject) => {
		const reversed = !metEarlier && record.id === lastRead;
		metEarlier ||= readFirst.has(record.id);
		return reversed;
	};
	const sort: Sort = { field, key: listing.splittable ? `${field}_at` : undefined, order: read.order === 'asc' ? 'desc' : 'asc' };
	const otherEnd = yield* readWindow(listing, pinned, sort, 1, metReversed);
	if (otherEnd.full) reportUnreadable(listing, pinned, new Set([...read.ids, ...otherEnd.ids]).size, 'none of its filters tells these records apart');
}

/** Tells onUnreadable (or, without it, fails) that records past the `read` ones may exist that no filter reaches, as `why`. */
function reportUnreadable(listing: Listing, ranges: Ranges, read: number, why: string): void {
	const { context, request } = listing;
	const seconds = (['created', 'updated'] as const)
		.filter((field) => ranges[field]?.eq !== undefined)
		.map((field) => `${field}_at ${new Date(ranges[field]!.eq! * 1000).toISOString()}`);
	const which = seconds.length > 0 ? `Records of ${request.path} that share ${seconds.join(' and ')}` : `Records of ${request.path}`;
	const message =
		`${which} could not all be read: ${read} were read, and more may exist that cannot be reached, as Wootric lists at most ` +
		`${PER_PAGE * MAX_PAGE} records per filter and ${why}. Read the rest with Get Many for one end user, or with another filter.`;
	if (!request.onUnreadable) throw new NodeOperationError(context.getNode(), message, { itemIndex: request.itemIndex });
	request.onUnreadable({ path: request.path, created: ranges.created?.eq, updated: ranges.updated?.eq, read, message });
}

/** The time a sort key orders by; undefined for another key. The category lists (null) sort by created_at. */
function timeFieldOf(sortKey: string | null | undefined): TimeField | undefined {
	if (sortKey === 'updated_at') return 'updated';
	return sortKey === undefined || sortKey === null || sortKey === 'created_at' ? 'created' : undefined;
}

/**
 * Whether the list holds more than `count` records: read by created_at, which reaches any number, until
 * one more shows. Records that no filter reaches count as more, as there may be.
 */
async function holdsMoreThan(context: WootricContext, request: ListRequest, count: number): Promise<boolean> {
	let read = 0;
	let unreadable = false;
	const byCreated = listAll(context, { ...request, sortKey: 'created_at', order: 'asc', limit: count + 1, onUnreadable: () => (unreadable = true) });
	for await (const records of byCreated) read += records.length;
	return read > count || unreadable;
}

/**
 * Every record of a list endpoint in created_at (or updated_at) order, each once, however many share a
 * second (see walk and readSecond). Several pages are on their way at once (see windowPages and readWindow)
 * while the rate limit leaves room: a read that ends before page 30 may have asked for up to that many
 * less one past its end (the pages in flight, below).
 *
 * Requests for N records: at most ceil(N/50) + ceil(N/1500) + the pages in flight, while no second fills a
 * window (1,500 records) and the seconds where the window moves hold a few records each. A move re-reads
 * the records of its second past the last page of them read whole, under a page; with hundreds in each
 * second, the window may move twice per 1,500 records, each move costing up to a request more. A second
 * that fills a window, with M records, costs beyond the 1,500 found there (read once): where the endpoint
 * splits it by the other time, that time's walk through all M, within the bound above for M; else the
 * other end up to where the two ends meet, floor((M - 1,500)/50) + 1 requests and the pages in flight when
 * newest first is oldest first reversed, or all 30 pages and a warning when it is not or M > 3,000.
 *
 * Sorted by another key (email), the list is one window of at most 1,500 records: a full one is checked by
 * counting the list by created_at up to 1,501, and more records than it holds are an error.
 */
export async function* listAll(context: WootricContext, request: ListRequest): AsyncGenerator<IDataObject[]> {
	const order = request.order ?? 'asc';
	const listing: Listing = { context, request, seen: new Set(), remaining: request.limit ?? Infinity, splittable: request.sortKey !== null, fullPagesRead: 0 };
	const ranges: Ranges = { created: request.created, updated: request.updated };
	const field = timeFieldOf(request.sortKey);
	if (field) {
		yield* walk(listing, field, ranges, order);
		return;
	}
	const window = yield* readWindow(listing, ranges, { key: request.sortKey!, order });
	if (window.full && (await holdsMoreThan(context, request, window.ids.length))) {
		throw new NodeOperationError(
			context.getNode(),
			`Wootric lists at most ${PER_PAGE * MAX_PAGE} records sorted by ${request.sortKey}; sort by created_at or updated_at to read more`,
			{ itemIndex: request.itemIndex },
		);
	}
}
