import type { IDataObject } from 'n8n-workflow';

import { PER_PAGE, wootricSeconds } from '../transport';
import { SETTLE_SECONDS, type ReadRecord, type Sighting, type StreamCursor } from './cursor';

/**
 * A poll resumes inside a second it stopped in (cursor.stoppedIn) when fewer than this many of its
 * records were read; a larger second is the listing's to read, from both ends (transport/paging).
 */
const RESUMED_SECONDS_UNDER = 1_400;

/** Where a reading stood: what taking back the records read since goes back to. */
export interface PositionMark {
	read: number;
	second: number;
	inSecond: number;
	readPastComplete: number;
}

/**
 * Where one endpoint's reading in one poll stands: the records it read, in the order read, and the
 * second of the last and how many of that second's it read. The reading places each record as it
 * comes (place) and takes records back to a mark (restore).
 *
 * Invariant: `second` is the second of the last record in `read` (the cursor's complete second
 * before any); `inSecond` counts the records of `second` read, in the service's order, an earlier
 * poll's too where this one resumed inside the second it stopped in; `readPastComplete` counts the
 * records of `read` past the cursor's complete second. Bound: one poll of one endpoint, at most
 * MAX_RECORDS_PER_POLL records past the cursor (stream-reading.ts), with Lookback's window and the
 * closing look's.
 */
export class ReadPosition {
	private readonly read: ReadRecord[] = [];
	private second: number;
	private inSecond = 0;
	private readPastComplete = 0;
	/**
	 * Resuming inside the second an earlier poll stopped in (cursor.stoppedIn): the page it starts
	 * at, and how many of that second's records come before it; unset once the first page is read.
	 */
	private resuming?: { second: number; page: number; before: number };

	constructor(
		private readonly cursor: StreamCursor,
		private readonly timeField: 'updated_at' | 'created_at',
		/** The first second the listing reads: a record whose time cannot be read is no earlier. */
		private readonly listedFrom: number,
	) {
		this.second = cursor.complete;
		const [stoppedSecond, readInIt] = cursor.stoppedIn ?? [];
		// The page before the first one not read, to check that nothing moved before it; a second
		// read to 1,400 or more is left to the listing's own reading of large seconds.
		if (
			timeField === 'updated_at' &&
			stoppedSecond === cursor.complete + 1 &&
			readInIt !== undefined &&
			readInIt >= PER_PAGE &&
			readInIt < RESUMED_SECONDS_UNDER
		) {
			const page = Math.floor(readInIt / PER_PAGE);
			this.resuming = { second: stoppedSecond, page, before: (page - 1) * PER_PAGE };
		}
	}

	/** The page a reading resuming inside a second starts at; undefined: the list's first. */
	get startPage(): number | undefined {
		return this.resuming?.page;
	}

	/** The records read, in the order read. */
	get records(): readonly ReadRecord[] {
		return this.read;
	}

	get count(): number {
		return this.read.length;
	}

	/** The second of the last record read. */
	get lastSecond(): number {
		return this.second;
	}

	/** The reading's second of a record about to be read (a record without one stands with the last). */
	secondOf(record: IDataObject): number {
		return wootricSeconds(record[this.timeField]) ?? Math.max(this.second, this.listedFrom);
	}

	/** Reads a record of the pages, as `entry`, at `second` (secondOf). */
	place(entry: ReadRecord, second: number): void {
		if (second !== this.second)
			this.inSecond = second === this.resuming?.second ? this.resuming.before : 0;
		this.inSecond++;
		this.second = second;
		this.read.push(entry);
		if (this.readPastCursor()) this.readPastComplete++;
	}

	/** Notes a record the closing look read, which moves no position. */
	add(entry: ReadRecord): void {
		this.read.push(entry);
	}

	mark(): PositionMark {
		const { read, second, inSecond, readPastComplete } = this;
		return { read: read.length, second, inSecond, readPastComplete };
	}

	/** Back to `mark`: as if the records read since had not been. */
	restore(mark: PositionMark): void {
		this.read.length = mark.read;
		this.second = mark.second;
		this.inSecond = mark.inSecond;
		this.readPastComplete = mark.readPastComplete;
	}

	/** Whether the reading got past the cursor's last complete second. */
	readPastCursor(): boolean {
		return this.second > this.cursor.complete;
	}

	/** Whether it read this many records past the cursor's last complete second. */
	readPast(records: number): boolean {
		return this.readPastComplete >= records;
	}

	/** Whether the reading read a record no earlier poll had read up to. */
	wentOn(): boolean {
		const [second, read] = this.cursor.stoppedIn ?? [];
		return this.readPastCursor() && (this.second !== second || this.inSecond > (read ?? 0));
	}

	/** Whether the reading read a record the cursor did not know, in that state. */
	readUnknown(sighting: (entry: ReadRecord, createdSecond: number) => Sighting): boolean {
		return this.read.some((entry) => !sighting(entry, this.cursor.complete).known);
	}

	/**
	 * After the first page of a resumed reading (read from `readBefore` on): whether it is a whole
	 * page of the stopped second's records the earlier poll read, as they were. Then the pages
	 * before it hold only those, in the service's order of that second (as the listing's windows
	 * rely on), and none was skipped. Only a record leaving the second moves them; none entered it,
	 * settled when read (cursor.stoppedIn). Not resuming: true. Asked once; the reading is then no
	 * longer resuming.
	 */
	resumedWhereItStopped(readBefore: number): boolean {
		const resumed = this.resuming;
		if (!resumed) return true;
		this.resuming = undefined;
		const page = this.read.slice(readBefore);
		const known = new Set(
			this.cursor.recent.filter(([, second]) => second === resumed.second).map(String),
		);
		return page.length === PER_PAGE && page.every((entry) => known.has(String(entry)));
	}

	/** Where the reading stopped, inside its last second, when it stopped before the list's end. */
	stoppedIn(): [second: number, read: number] {
		return [this.second, this.inSecond];
	}

	/**
	 * Whether record `id` was stored before `second`: a record with a higher id (stored after it, as
	 * Wootric numbers records) was read, in `recent` or in this poll, at an updated_at SETTLE_SECONDS
	 * or more before it. A record is readable within SETTLE_SECONDS of its stamps, so that one was
	 * stored, and this one before it, earlier than `second`. Along created_at (an import's is older
	 * than its storing) nothing tells.
	 */
	storedBefore(id: number, second: number): boolean {
		if (this.timeField === 'created_at') return false;
		const earlier = ([other, stamped]: ReadRecord) =>
			other > id && stamped <= second - SETTLE_SECONDS;
		return this.read.some(earlier) || this.cursor.recent.some(earlier);
	}
}
