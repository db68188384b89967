import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { wootricSeconds } from './datetime';
import { DEFAULT_PAGES_IN_FLIGHT } from './defaults';
import { declaring } from './failures';
import type { ParamHash } from './encoding';
import { canSendAhead, wootricRequest, type WootricContext } from './request';

export const PER_PAGE = 50;
export const MAX_PAGE = 30;

/**
 * A `created[...]` or `updated[...]` range in UNIX seconds, as the list endpoints take it (a type,
 * so it is a ParamHash too).
 */
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
 * Records that may exist and that no filter the API takes can reach: past those read from both ends
 * of one created_at and one updated_at second (or, on a list without an `updated` filter, one
 * created_at second) when the two ends do not show they met, or past a window without a readable
 * time to move by. Whether there are any, and how many, is unknown.
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
	/**
	 * Filters other than `created` and `updated`, and no paging or sorting (this helper owns those).
	 */
	query?: ParamHash;
	created?: TimeRange;
	updated?: TimeRange;
	/** Oldest first (default) or newest first. */
	order?: 'asc' | 'desc';
	/**
	 * created_at (default) or updated_at: the list moves its window along that time, so it reads any
	 * number of records. Another key (e.g. email for end users): the window cannot move, so at most
	 * 1,500 records can be read, and asking for more is an error. null: the endpoint takes no
	 * sort_key and no `updated` filter (the category lists), and sorts by created_at itself.
	 */
	sortKey?: string | null;
	/** Stop after this many records; all when undefined. */
	limit?: number;
	/** What the list belongs to, named in a 404: e.g. "end user 123". */
	subject?: string;
	itemIndex?: number;
	/**
	 * Told of records no filter can reach (then the list goes on past them); without it, they are an
	 * error.
	 */
	onUnreadable?: (unreadable: UnreadableRecords) => void;
	/** Told the service's time of each page's answer (see WootricRequest). */
	onServiceTime?: (unixSeconds: number) => void;
	/**
	 * For each page's request (see WootricRequest): past it, the list ends with OutOfTimeError. A
	 * function is asked as each page is: a poll's reading ends earlier as its pages come slower.
	 */
	giveUpAt?: number | (() => number);
	/** For each page's request, and pages asked for ahead (see WootricRequest). */
	keepRequests?: number;
	/**
	 * The page the first window starts at (sorted by a time): the records of its first second
	 * before it were read by an earlier listing (a poll that stopped inside that second). Unset: 1.
	 */
	startPage?: number;
}

/** How a list is read; unset, the defaults (defaults.ts). */
export interface ListOptions {
	/**
	 * How many pages of the list may be on their way at once. Only the bench sets it: its read-ahead
	 * curve (test/bench/bench.ts) reads with 1, 2, 4 and 8, the values DEFAULT_PAGES_IN_FLIGHT was
	 * chosen from.
	 */
	pagesInFlight?: number;
}

/** One listing's progress, shared by the windows it reads. */
interface Listing {
	context: WootricContext;
	request: ListRequest;
	options: ListOptions;
	/** Ids already yielded: windows overlap at their edge second. */
	seen: Set<unknown>;
	remaining: number;
	/**
	 * Whether a second can be split by the other time (the endpoint takes both filters and sort
	 * keys).
	 */
	splittable: boolean;
	/**
	 * Full pages read since the listing began or last read a second holding a whole window (see
	 * readWindow): how far ahead the reading may go.
	 */
	fullPagesRead: number;
}

/**
 * One query's sort: the time whose seconds the records are read in (undefined: another sort key).
 */
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
	/** The records at the window's end that share lastSecond (fresh or not), in the order read. */
	lastSecondRecords: IDataObject[];
	/** Every record id the window returned, fresh or not. */
	ids: unknown[];
}

/** How readWindow reads: see there. */
interface WindowOptions {
	firstPage?: number;
	until?: (record: IDataObject) => boolean;
	/** false: one page at a time, none asked for ahead. */
	readAhead?: boolean;
}

/**
 * The records of one second holding a whole window, as a walk read them: in `order`, from that end.
 */
interface SecondRead {
	order: 'asc' | 'desc';
	records: IDataObject[];
}

/** The first and last whole second a range keeps (undefined: open at that end). */
function secondsKept({ eq, gt, gte, lt, lte }: TimeRange) {
	const defined = (...bounds: Array<number | undefined>) =>
		bounds.filter((bound): bound is number => bound !== undefined);
	const lower = defined(gte, gt === undefined ? undefined : gt + 1, eq);
	const upper = defined(lte, lt === undefined ? undefined : lt - 1, eq);
	return {
		from: lower.length > 0 ? Math.max(...lower) : undefined,
		to: upper.length > 0 ? Math.min(...upper) : undefined,
	};
}

/** The user's range as whole-second bounds, with the moving edge of the window split out. */
function windowBounds(range: TimeRange, order: 'asc' | 'desc') {
	const { from, to } = secondsKept(range);
	return order === 'asc'
		? { edgeKey: 'gte' as const, edge: from, fixed: { lte: to }, last: to }
		: { edgeKey: 'lte' as const, edge: to, fixed: { gte: from }, last: from };
}

/**
 * A list page that does not answer its query: Wootric accepted a filter or sort it ignores (an older
 * variant of the API has no `updated` index for responses and declines). Trusted, such a page would
 * hand the walk the same window again and again, or move a trigger's cursor past records it never
 * read.
 */
export class IgnoredParametersError extends NodeOperationError {}

const isoSecond = (second: number) => new Date(second * 1000).toISOString();

/** "a", "a and b", "a, b and c". */
const listed = (names: string[]) =>
	names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];

/** The first record of `records` whose readable `field` time lies outside `range`, told. */
function outsideWindow(
	records: IDataObject[],
	field: TimeField,
	range: TimeRange,
): string | undefined {
	const { from = -Infinity, to = Infinity } = secondsKept(range);
	for (const record of records) {
		const second = wootricSeconds(record[`${field}_at`]);
		if (second === undefined || (second >= from && second <= to)) continue;
		const window = [
			from === -Infinity ? '' : `from ${isoSecond(from)}`,
			to === Infinity ? '' : `to ${isoSecond(to)}`,
		].filter(Boolean);
		return `record ${String(record.id)} has ${field}_at ${isoSecond(second)}, outside the ${field}_at asked for (${window.join(' ')})`;
	}
	return undefined;
}

/** The first two records of `records` (readable `field` times only) against `order`, told. */
function outOfOrder(
	records: IDataObject[],
	field: TimeField,
	order: 'asc' | 'desc',
): string | undefined {
	const key = `${field}_at`;
	let before: { id: unknown; second: number } | undefined;
	for (const record of records) {
		const second = wootricSeconds(record[key]);
		if (second === undefined) continue;
		if (before && (order === 'asc' ? second < before.second : second > before.second))
			return `record ${String(record.id)} (${key} ${isoSecond(second)}) follows record ${String(before.id)} (${key} ${isoSecond(before.second)}) on one page, against sort_order=${order}`;
		before = { id: record.id, second };
	}
	return undefined;
}

/**
 * Throws an IgnoredParametersError, before anything of the page is used, when a record lies outside
 * a time window asked for, or two follow each other against the order asked for. Records without a
 * readable time do not count. Each page is checked on its own: across pages, offset paging lets a
 * record stored meanwhile show one page late, out of order.
 */
function checkAnswersQuery(
	listing: Listing,
	ranges: Ranges,
	sort: Sort,
	records: IDataObject[],
): void {
	const ignored: string[] = [];
	const evidence: string[] = [];
	for (const field of ['created', 'updated'] as const) {
		const range = ranges[field];
		const outside = range && outsideWindow(records, field, range);
		if (!outside) continue;
		const keys = Object.keys(range).filter((key) => range[key as keyof TimeRange] !== undefined);
		ignored.push(...keys.map((key) => `${field}[${key}]`));
		evidence.push(outside);
	}
	const disordered = sort.field && outOfOrder(records, sort.field, sort.order);
	if (disordered) {
		ignored.push(sort.key ? `sort_key=${sort.key}` : `sort_order=${sort.order}`);
		evidence.push(disordered);
	}
	if (ignored.length === 0) return;
	const { context, request } = listing;
	throw declaring(
		new IgnoredParametersError(
			context.getNode(),
			`Wootric ignored ${listed(ignored)} on ${request.path}: ${evidence.join('; ')}`,
			{ itemIndex: request.itemIndex },
		),
		{ cause: 'configuration-invalid' },
	);
}

/**
 * The pages of one query in order, from `firstPage` up to page 30. `mayAskAhead(ahead)` says
 * whether another page can go out while the one being read and `ahead` more are on their way. A
 * page asked for ahead is sent once: if it fails it is asked for again the usual way, with retries.
 * Those still on their way when the reading stops are let finish, so no request outlives the
 * listing.
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
			const current = sentEarly
				? sentEarly.then((answered) => (answered ? answered.records : fetchPage(page)))
				: fetchPage(page);
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
 * The records of one query from `firstPage` (at most 30 pages), yielding those not read before, up
 * to the limit. `until` ends the reading after the page holding a record it accepts.
 */
async function* readWindow(
	listing: Listing,
	ranges: Ranges,
	sort: Sort,
	options: WindowOptions = {},
): AsyncGenerator<IDataObject[], WindowRead> {
	const { firstPage = 1, until, readAhead = true } = options;
	const { context, request, options: listOptions } = listing;
	const fetchPage = async (page: number, once?: boolean) =>
		await wootricRequest<IDataObject[]>(context, {
			method: 'GET',
			path: request.path,
			answer: 'records',
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
			giveUpAt: typeof request.giveUpAt === 'function' ? request.giveUpAt() : request.giveUpAt,
			keepRequests: request.keepRequests,
		});
	// Pages ahead: as many more as full pages were read so far, up to the pages in flight (so a short
	// list costs no page past its end, and page 1 of a listing goes alone); only while the pages on
	// their way cannot reach the limit, and the rate limit leaves room for one more. The count
	// restarts after a second holding a whole window (walk): the window past it may well be empty, so
	// its page 1 goes alone too. A window moved past an ordinary second keeps the count: a list that
	// filled 30 pages most likely goes on. The other end of a large second reads no page ahead
	// (readSecond).
	const mayAskAhead = (ahead: number) =>
		readAhead &&
		ahead + 1 <
			Math.min(listOptions.pagesInFlight ?? DEFAULT_PAGES_IN_FLIGHT, 1 + listing.fullPagesRead) &&
		listing.remaining > PER_PAGE * (ahead + 1) &&
		canSendAhead(context, 'GET', request.path, request.keepRequests);
	const timeKey = sort.field && `${sort.field}_at`;
	let lastSecond: number | undefined;
	let lastSecondRecords: IDataObject[] = [];
	const ids: unknown[] = [];
	for await (const page of windowPages(fetchPage, mayAskAhead, firstPage)) {
		// A list of records: the transport refused any other answer (`answer: 'records'`).
		const records = page as IDataObject[];
		checkAnswersQuery(listing, ranges, sort, records);
		const fresh: IDataObject[] = [];
		let done = records.length < PER_PAGE;
		if (!done) listing.fullPagesRead++;
		for (const record of records) {
			ids.push(record.id);
			// A record without a readable time stays with the second before it.
			const second = timeKey ? wootricSeconds(record[timeKey]) : undefined;
			if (second !== undefined && second !== lastSecond) {
				lastSecond = second;
				lastSecondRecords = [];
			}
			lastSecondRecords.push(record);
			if (until?.(record)) done = true;
			if (listing.seen.has(record.id) || fresh.length >= listing.remaining) continue;
			listing.seen.add(record.id);
			fresh.push(record);
		}
		listing.remaining -= fresh.length;
		if (fresh.length > 0) yield fresh;
		if (done || listing.remaining <= 0) return { full: false, lastSecond, lastSecondRecords, ids };
	}
	return { full: true, lastSecond, lastSecondRecords, ids };
}

/**
 * Every record within `ranges` in `field` order. One filter reaches at most 30 pages of 50 (1,500
 * records), so past that the window moves: it restarts at the last second seen (`[gte]`, or `[lte]`
 * newest first), skipping the ids already read; that also reads same-second clusters larger than a
 * page. The restarted window begins at the page holding the first record of that second not read
 * yet: the service lists the second's records in the same order again, as it must for its pages to
 * follow one another. A second holding a whole window is read on its own (readSecond), then the
 * window moves past it, its page 1 alone (see readWindow).
 */
async function* walk(
	listing: Listing,
	field: TimeField,
	ranges: Ranges,
	order: 'asc' | 'desc',
): AsyncGenerator<IDataObject[]> {
	const { edgeKey, fixed, edge: firstEdge, last } = windowBounds(ranges[field] ?? {}, order);
	const sort: Sort = { field, key: listing.splittable ? `${field}_at` : undefined, order };
	let edge = firstEdge;
	// The records of the edge second read so far, in the order read.
	let edgeRecords: IDataObject[] = [];
	let startPage = listing.request.startPage;
	for (;;) {
		const firstPage = startPage ?? Math.floor(edgeRecords.length / PER_PAGE) + 1;
		startPage = undefined;
		const window = yield* readWindow(
			listing,
			{ ...ranges, [field]: { ...fixed, [edgeKey]: edge } },
			sort,
			{ firstPage },
		);
		if (!window.full) return;
		// A window without one readable time stands at its edge; with no edge either, nothing places
		// it.
		const second = window.lastSecond ?? edge;
		if (second === undefined) {
			reportUnreadable(
				listing,
				ranges,
				window.ids.length,
				`the records read have no readable ${field}_at to move the window by`,
			);
			return;
		}
		// A window that ends in its edge second holds nothing else: with the pages it skipped, that
		// second's first 1,500.
		const secondRecords =
			second === edge
				? [...edgeRecords.slice(0, (firstPage - 1) * PER_PAGE), ...window.lastSecondRecords]
				: window.lastSecondRecords;
		if (secondRecords.length < PER_PAGE * MAX_PAGE) {
			edge = second;
			edgeRecords = secondRecords;
			continue;
		}
		yield* readSecond(listing, field, second, ranges, { order, records: secondRecords });
		// Past such a second there may well be nothing: the next window's page 1 goes alone (see
		// readWindow).
		listing.fullPagesRead = 0;
		edge = order === 'asc' ? second + 1 : second - 1;
		edgeRecords = [];
		if (
			listing.remaining <= 0 ||
			(last !== undefined && (order === 'asc' ? edge > last : edge < last))
		)
			return;
	}
}

/**
 * The records of one `field` second holding more than a window, of which `read` holds the first
 * 1,500 from one end. First its other end: the same filter (`field[eq]`) in the opposite order, one
 * page at a time (where it meets the first end is not known, and a page asked for past that is
 * wasted), until it comes to a record of `read`. The two ends cover the second when that record is
 * the last one of `read`: the other end is the first one reversed (newest first is oldest first
 * backwards). Another record of `read` first (e.g. its first, with ties listed by id both ways)
 * shows that ties are ordered otherwise: that end stops there, after its first page when it starts
 * where the first end did.
 *
 * If the two ends do not cover the second, it is split by the other time where the endpoint filters
 * on it and no window pins it yet (`created` walked within `updated[eq]`, or the reverse), unless
 * every record of the second read so far shares one second of the other time as well: the split
 * would read those records again and could not tell them apart either. Then only the records either
 * side of that other second are read (nothing is lost that a filter reaches), and the rest, as a
 * second pinned on both times, are reported.
 */
async function* readSecond(
	listing: Listing,
	field: TimeField,
	second: number,
	ranges: Ranges,
	read: SecondRead,
): AsyncGenerator<IDataObject[]> {
	const pinned: Ranges = { ...ranges, [field]: { eq: second } };
	const other: TimeField = field === 'created' ? 'updated' : 'created';
	const readFirst = new Set(read.records.map((record) => record.id));
	const lastRead = read.records[read.records.length - 1].id;
	let met: IDataObject | undefined;
	const meets = (record: IDataObject) => {
		if (!met && readFirst.has(record.id)) met = record;
		return met !== undefined;
	};
	const sort: Sort = {
		field,
		key: listing.splittable ? `${field}_at` : undefined,
		order: read.order === 'asc' ? 'desc' : 'asc',
	};
	const otherEnd = yield* readWindow(listing, pinned, sort, { until: meets, readAhead: false });
	// Done when the ends met as the first one reversed, or the other end came to the end of the
	// second.
	if (listing.remaining <= 0 || (met ? met.id === lastRead : !otherEnd.full)) return;
	const otherKey = `${other}_at`;
	const otherSeconds = new Set(
		[...read.records, ...otherEnd.lastSecondRecords].map((record) =>
			wootricSeconds(record[otherKey]),
		),
	);
	const [otherSecond] = otherSeconds;
	const sharedOther = listing.splittable && otherSeconds.size === 1 ? otherSecond : undefined;
	const splittable = listing.splittable && pinned[other]?.eq === undefined;
	if (splittable && sharedOther === undefined) {
		yield* walk(listing, other, pinned, 'asc');
		return;
	}
	if (splittable) {
		// Every record read shares one second of the other time too: records of this second with
		// another one are reached on either side of it (a request each when there are none); only the
		// rest are out of reach.
		listing.fullPagesRead = 0;
		yield* walk(listing, other, { ...pinned, [other]: { lt: sharedOther } }, 'asc');
		yield* walk(listing, other, { ...pinned, [other]: { gt: sharedOther } }, 'asc');
	}
	const unreached =
		sharedOther === undefined ? pinned : { ...pinned, [other]: { eq: sharedOther } };
	reportUnreadable(
		listing,
		unreached,
		new Set([...readFirst, ...otherEnd.ids]).size,
		'none of its filters tells these records apart',
	);
}

/**
 * Tells onUnreadable (or, without it, fails) that records past the `read` ones may exist that no
 * filter reaches, as `why`.
 */
function reportUnreadable(listing: Listing, ranges: Ranges, read: number, why: string): void {
	const { context, request } = listing;
	const seconds = (['created', 'updated'] as const)
		.filter((field) => ranges[field]?.eq !== undefined)
		.map((field) => `${field}_at ${new Date(ranges[field]!.eq! * 1000).toISOString()}`);
	const which =
		seconds.length > 0
			? `Records of ${request.path} that share ${seconds.join(' and ')}`
			: `Records of ${request.path}`;
	const message =
		`${which} could not all be read: ${read} were read, and more may exist that cannot be reached, as Wootric lists at most ` +
		`${PER_PAGE * MAX_PAGE} records per filter and ${why}. Read the rest with Get Many for one end user, or with another filter.`;
	if (!request.onUnreadable)
		throw declaring(
			new NodeOperationError(context.getNode(), message, { itemIndex: request.itemIndex }),
			{ cause: 'configuration-invalid' },
		);
	request.onUnreadable({
		path: request.path,
		created: ranges.created?.eq,
		updated: ranges.updated?.eq,
		read,
		message,
	});
}

/**
 * The time a sort key orders by; undefined for another key. The category lists (null) sort by
 * created_at.
 */
function timeFieldOf(sortKey: string | null | undefined): TimeField | undefined {
	if (sortKey === 'updated_at') return 'updated';
	return sortKey === undefined || sortKey === null || sortKey === 'created_at'
		? 'created'
		: undefined;
}

/**
 * Whether the list holds more than `count` records: read by created_at, which reaches any number,
 * until one more shows. Records that no filter reaches count as more, as there may be.
 */
async function holdsMoreThan(
	context: WootricContext,
	request: ListRequest,
	count: number,
	options: ListOptions,
): Promise<boolean> {
	let read = 0;
	let unreadable = false;
	const byCreated = listAll(
		context,
		{
			...request,
			sortKey: 'created_at',
			order: 'asc',
			limit: count + 1,
			onUnreadable: () => (unreadable = true),
		},
		options,
	);
	for await (const records of byCreated) read += records.length;
	return read > count || unreadable;
}

/**
 * Every record of a list endpoint in created_at (or updated_at) order, each once, however many
 * share a second (see walk and readSecond). Several pages are on their way at once (see windowPages
 * and readWindow) while the rate limit leaves room: a read that ends before page 30 may have asked
 * for up to that many less one past its end (the pages in flight, below).
 *
 * Requests for N records: at most ceil(N/50) + ceil(N/1500) + the pages in flight, while no second
 * fills a window (1,500 records) and the seconds where the window moves hold a few records each. A
 * move re-reads the records of its second past the last page of them read whole, under a page; with
 * hundreds in each second, the window may move twice per 1,500 records, each move costing up to a
 * request more.
 *
 * A second of the sort time holding M > 1,500 records costs, beyond the 30 pages that found its
 * first 1,500 (counted above): its other end, one page at a time, floor((M - 1,500)/50) + 1
 * requests when newest first is oldest first reversed and M < 3,000 (then the two ends cover it); 1
 * when the other end's first page starts with the first end's first records (ties listed alike both
 * ways); at most 30 otherwise. Then, only if the two ends do not cover it: where the list filters
 * on the other time, not pinned yet, and the records of the second read so far do not all share one
 * second of it, the walk along the other time through the M records, within the bound above for M;
 * where they do, the records either side of that second (2 requests when there are none) and a
 * warning; else only the warning. Then the window past the second starts with its page 1 alone: 1
 * request when nothing follows. So 1,600 records sharing one created_at and one updated_at second,
 * with nothing after them, cost 30 + 3 + 1 requests with ties reversed, else 30 + 1 + 2 + 1 and a
 * warning that 1,500 were read (where the list filters on both times; 30 + 1 + 1 where it does
 * not); 1,600 of one second spread over seconds of the other time cost 30 + 3 + 1 reversed, else at
 * most 30 + 1 + (32 + 2 + the pages in flight) + 1.
 *
 * Sorted by another key (email), the list is one window of at most 1,500 records: a full one is
 * checked by counting the list by created_at up to 1,501, and more records than it holds are an
 * error.
 *
 * Every page is checked against its query (checkAnswersQuery): one that shows Wootric ignored a
 * time filter or the sort fails the listing with an IgnoredParametersError, before the window moves.
 */
export async function* listAll(
	context: WootricContext,
	request: ListRequest,
	options: ListOptions = {},
): AsyncGenerator<IDataObject[]> {
	const order = request.order ?? 'asc';
	const listing: Listing = {
		context,
		request,
		options,
		seen: new Set(),
		remaining: request.limit ?? Infinity,
		splittable: request.sortKey !== null,
		// An earlier listing read startPage full and went on: it and the next page go together, as a
		// poll resuming inside a second needs both.
		fullPagesRead: request.startPage === undefined ? 0 : 1,
	};
	const ranges: Ranges = { created: request.created, updated: request.updated };
	const field = timeFieldOf(request.sortKey);
	if (field) {
		yield* walk(listing, field, ranges, order);
		return;
	}
	const window = yield* readWindow(listing, ranges, { key: request.sortKey!, order });
	if (window.full && (await holdsMoreThan(context, request, window.ids.length, options))) {
		throw declaring(
			new NodeOperationError(
				context.getNode(),
				`Wootric lists at most ${PER_PAGE * MAX_PAGE} records sorted by ${request.sortKey}; sort by created_at or updated_at to read more`,
				{ itemIndex: request.itemIndex },
			),
			{ cause: 'configuration-invalid' },
		);
	}
}
