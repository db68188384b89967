import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { wootricSeconds } from './datetime';
import type { ParamHash } from './encoding';
import { canSendAhead, wootricRequest, type WootricContext } from './request';

export const PER_PAGE = 50;
export const MAX_PAGE = 30;

/** A `created[...]` range in UNIX seconds, as the list endpoints take it (a type, so it is a ParamHash too). */
export type CreatedRange = {
	eq?: number;
	lt?: number;
	lte?: number;
	gt?: number;
	gte?: number;
};

export interface ListRequest {
	/** A list endpoint that sorts by created_at, e.g. /v1/responses. */
	path: string;
	/** Filters other than `created`, and no paging or sorting (this helper owns those). */
	query?: ParamHash;
	created?: CreatedRange;
	/** Oldest first (default) or newest first. */
	order?: 'asc' | 'desc';
	/**
	 * Another sort than created_at (e.g. email for end users): the window cannot move then, so at most
	 * 1,500 records can be read, and asking for more is an error. null: the endpoint takes no sort_key
	 * (the category lists), and sorts by created_at itself.
	 */
	sortKey?: string | null;
	/** Stop after this many records; all when undefined. */
	limit?: number;
	/** What the list belongs to, named in a 404: e.g. "end user 123". */
	subject?: string;
	itemIndex?: number;
}

/** The user's range as whole-second bounds, with the moving edge of the window split out. */
function windowBounds(created: CreatedRange, order: 'asc' | 'desc') {
	const { eq, gt, gte, lt, lte } = created;
	const defined = (...bounds: Array<number | undefined>) => bounds.filter((bound): bound is number => bound !== undefined);
	const lower = defined(gte, gt === undefined ? undefined : gt + 1, eq);
	const upper = defined(lte, lt === undefined ? undefined : lt - 1, eq);
	const from = lower.length > 0 ? Math.max(...lower) : undefined;
	const to = upper.length > 0 ? Math.min(...upper) : undefined;
	return order === 'asc'
		? { edgeKey: 'gte' as const, edge: from, fixed: { lte: to } }
		: { edgeKey: 'lte' as const, edge: to, fixed: { gte: from } };
}

/**
 * The pages of one `created` window in order, up to page 30. Page 1 goes alone, so a short list (an idle
 * trigger poll) costs one request; from page 2 on, while `readAhead()` says so, the next page is on its way
 * while one is read. That page is sent once: if it fails it is asked for again the usual way, with retries.
 * It is let finish when the reading stops, so no request outlives the listing.
 */
async function* windowPages(fetchPage: (page: number, once?: boolean) => Promise<unknown>, readAhead: () => boolean): AsyncGenerator<unknown> {
	let ahead: Promise<{ records: unknown } | undefined> | undefined;
	try {
		for (let page = 1; page <= MAX_PAGE; page++) {
			const current = ahead ? ahead.then((answered) => (answered ? answered.records : fetchPage(page))) : fetchPage(page);
			ahead = undefined;
			if (page > 1 && page < MAX_PAGE && readAhead()) {
				ahead = fetchPage(page + 1, true).then(
					(records) => ({ records }),
					() => undefined,
				);
			}
			yield await current;
		}
	} finally {
		await ahead;
	}
}

/**
 * Every record of a list endpoint in created_at order, each once. One filter reaches at most 30 pages
 * of 50 (1,500 records), so past that the `created` window moves: it restarts at the last second seen
 * (`created[gte]`, or `created[lte]` newest first), skipping the ids already read. That also reads
 * same-second clusters larger than a page completely.
 * Two requests are on their way from page 2 on (which about halves the time a long list takes over a real
 * network), unless a rate limit has fewer than two requests left. Requests for N records: at most
 * ceil(N/50) + ceil(N/1500) + 1 (the one ahead of the end included).
 */
export async function* listAll(context: WootricContext, request: ListRequest): AsyncGenerator<IDataObject[]> {
	const order = request.order ?? 'asc';
	const { edgeKey, fixed, edge: firstEdge } = windowBounds(request.created ?? {}, order);
	let edge = firstEdge;
	const seen = new Set<unknown>();
	let remaining = request.limit ?? Infinity;
	const fetchPage = async (page: number, once?: boolean) =>
		await wootricRequest(context, {
			method: 'GET',
			path: request.path,
			query: {
				...request.query,
				created: { ...fixed, [edgeKey]: edge },
				sort_key: request.sortKey === null ? undefined : (request.sortKey ?? 'created_at'),
				sort_order: order,
				page,
				per_page: PER_PAGE,
			},
			subject: request.subject,
			itemIndex: request.itemIndex,
			once,
		});
	// Another page is wanted only if the one being read cannot reach the limit.
	const readAhead = () => remaining > PER_PAGE && canSendAhead(context, 'GET', request.path);

	for (;;) {
		let lastSecond: number | undefined;
		for await (const records of windowPages(fetchPage, readAhead)) {
			if (!Array.isArray(records)) {
				throw new NodeOperationError(context.getNode(), `Wootric answered ${request.path} with something other than a list`, { itemIndex: request.itemIndex });
			}
			const fresh: IDataObject[] = [];
			for (const record of records as IDataObject[]) {
				lastSecond = wootricSeconds(record.created_at) ?? lastSecond;
				if (seen.has(record.id)) continue;
				seen.add(record.id);
				fresh.push(record);
			}
			const taken = fresh.slice(0, remaining);
			remaining -= taken.length;
			if (taken.length > 0) yield taken;
			if (remaining <= 0 || records.length < PER_PAGE) return;
		}
		if (typeof request.sortKey === 'string' && request.sortKey !== 'created_at') {
			throw new NodeOperationError(
				context.getNode(),
				`Wootric lists at most ${PER_PAGE * MAX_PAGE} records sorted by ${request.sortKey}; sort by created_at to read more`,
				{ itemIndex: request.itemIndex },
			);
		}
		if (lastSecond === undefined || lastSecond === edge) {
			throw new NodeOperationError(
				context.getNode(),
				`More than ${PER_PAGE * MAX_PAGE} records of ${request.path} share one created_at second; the API cannot page past them`,
				{ itemIndex: request.itemIndex },
			);
		}
		edge = lastSecond;
	}
}
