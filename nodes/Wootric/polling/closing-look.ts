import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { declaring, listAll, PER_PAGE, wootricSeconds, type ListRequest } from '../transport';
import type { EndUserProfiles } from './end-users';
import type { ReadRecord } from './cursor';

/*
 * A poll's closing look at one endpoint, after its pages (StreamReading.closeLook): what the pages
 * could not show, because it moved while they were read or was held back on purpose.
 */

/**
 * The records created from `from` to before `stop` that this poll did not read, for a poll that
 * stopped in the updated_at second `stop`: changed to `stop` or later before the read reached them,
 * they wait there, and the next poll, reading on from `stop` with a cursor complete through the
 * second before it, would take one never announced for a change (cursor.ts). Listed by created_at,
 * which no change moves; records created before `from` are not new in any case.
 */
export async function readMovedPastStop(
	context: IPollFunctions,
	listing: Pick<ListRequest, 'path' | 'query' | 'onUnreadable' | 'giveUpAt'>,
	{ from, stop }: { from: number; stop: number },
	read: readonly ReadRecord[],
): Promise<IDataObject[]> {
	if (from > stop - 1) return [];
	const readIds = new Set(read.map(([id]) => id));
	const unread: IDataObject[] = [];
	for await (const page of listAll(context, {
		...listing,
		created: { gte: from, lte: stop - 1 },
		updated: { gte: stop },
		sortKey: 'created_at',
		order: 'asc',
	})) {
		unread.push(...page.filter((record) => !readIds.has(Number(record.id))));
	}
	return unread;
}

/**
 * The earliest second a record was read in by this poll, of those changed since (Infinity: none).
 * Pages are offsets: a record read and then changed before a later page was served moved to the end
 * of the updated_at order, and the record after its old place moved back one, past that page's
 * edge, unread. Such a change is younger than the settle margin when the poll ends, so one look at
 * those seconds finds it, and the next poll reads again from the second the changed record was read
 * in. (A record deleted while a poll pages does the same and cannot be seen.)
 *
 * The look asks for another page only while `mayGoOn` (the poll's time holds one more), and none
 * past a rate limit that resets after `giveUpAt`. Where more records changed in the margin than
 * that lists (a burst just before the poll), it cannot vouch for the poll's pages: the poll fails,
 * declared, within its time (the rate limit's: OutOfTimeError), and the next poll, the burst out of
 * its margin, reads them again. Kept instead, this poll's place would be the first second it read,
 * and the next polls would spend their time on what it read.
 */
export async function changedWhileRead(
	context: IPollFunctions,
	{ path, query, giveUpAt }: Pick<ListRequest, 'path' | 'query' | 'giveUpAt'>,
	read: readonly ReadRecord[],
	{ since, mayGoOn }: { since: number; mayGoOn: () => boolean },
): Promise<number> {
	const readIn = new Map(read.map(([id, second]) => [id, second]));
	let from = Infinity;
	// Records no filter reaches were told of by the read itself.
	const listing = listAll(context, {
		path,
		query,
		updated: { gte: since },
		sortKey: 'updated_at',
		order: 'asc',
		onUnreadable: () => undefined,
		giveUpAt,
	});
	for await (const page of listing) {
		for (const record of page) {
			const before = readIn.get(Number(record.id));
			if (before !== undefined && wootricSeconds(record.updated_at) !== before)
				from = Math.min(from, before);
		}
		// A whole page: there may be more, which the poll has no time for.
		if (page.length === PER_PAGE && !mayGoOn())
			throw declaring(
				new NodeOperationError(
					context.getNode(),
					`More records changed in the 10 s before this poll than its time left to check (GET ${path}): the next poll reads them`,
					{
						description:
							'A burst of records just before a poll: the trigger checks that none it read changed while it paged, and n8n would drop a poll that ran past its time.',
					},
				),
				{ cause: 'temporarily-unavailable' },
			);
	}
	return from;
}

/**
 * New responses held for their comment that reached Treat as Complete After without one: emitted as
 * they are, read in one listing of their created seconds (their updated_at did not move, so the
 * updated stream does not bring them). One no longer listed was deleted or invalidated, and is
 * dropped; one whose end user could not be read in the poll's time stays held for the next poll.
 */
export async function emitTimedOut(
	context: IPollFunctions,
	{
		endUsers,
		...listing
	}: Pick<ListRequest, 'path' | 'query' | 'onUnreadable' | 'giveUpAt'> & {
		endUsers?: EndUserProfiles;
	},
	waiting: Map<number, number>,
	createdBy: number,
	emit: (record: IDataObject, created: number) => void,
): Promise<void> {
	const due = [...waiting].filter(([, created]) => created <= createdBy);
	if (due.length === 0) return;
	// A loop, not Math.min(...): a spread of many thousand arguments overflows the stack.
	const range = due.reduce(
		(bounds, [, created]) => ({
			gte: Math.min(bounds.gte, created),
			lte: Math.max(bounds.lte, created),
		}),
		{ gte: Infinity, lte: -Infinity },
	);
	const listed: IDataObject[] = [];
	for await (const page of listAll(context, {
		...listing,
		created: range,
		sortKey: 'created_at',
		order: 'asc',
	})) {
		listed.push(
			...page.filter((record) => (waiting.get(Number(record.id)) ?? Infinity) <= createdBy),
		);
	}
	const endUsersRead = await endUsers?.read(listed);
	const stillHeld = new Set(
		listed.filter((record) => endUsersRead?.lacks(record)).map((record) => Number(record.id)),
	);
	for (const record of listed) {
		const id = Number(record.id);
		if (stillHeld.has(id) || !waiting.has(id)) continue;
		const created = waiting.get(id)!;
		waiting.delete(id);
		emit(record, created);
	}
	for (const [id] of due) if (!stillHeld.has(id)) waiting.delete(id);
}
