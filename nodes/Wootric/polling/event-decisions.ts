import type { IDataObject } from 'n8n-workflow';

import { changedSinceCreated, isComplete, responseEvents, type EventName } from '../events';
import { wootricSeconds } from '../transport';
import type { Sighting, StreamCursor } from './cursor';
import type { TriggerSettings } from './settings';
import { UndoLog } from './undo-log';

/** What the decisions of one reading need to know beyond the cursor and the settings. */
export interface DecisionsContext {
	/** The endpoint's new-record event: response or decline. */
	newEvent: EventName;
	/** Records created from this second on are new to this poll (with Lookback's window). */
	emitFrom: number;
	/** The service's time now (UNIX seconds). */
	now: () => number;
	/** Whether a record was stored before a second (ReadPosition.storedBefore). */
	storedBefore: (id: number, second: number) => boolean;
}

/**
 * The events each sighting of a record stands for, in one endpoint's reading of one poll, and the
 * cursor's lists those decisions leave: responses Wait Until Complete holds (`waiting`, with the
 * second a held late import arrived with, `arrivals`) and new responses that do not match the
 * filters yet (`unmatched`).
 *
 * Invariant: the lists are the cursor's as the decisions so far left them; every change to them is
 * logged, so that the decisions on records taken back (their end user not read in the poll's time)
 * are undone at once (mark, undoTo). Bound: the cursor's lists and what one poll's records add; the
 * log, one page's changes (clear).
 */
export class EventDecisions {
	/** New responses Wait Until Complete holds, by id: their created second. */
	private readonly waiting: Map<number, number>;
	/** The updated_at second held late imports arrived with: that state is no change. */
	private readonly arrivals: Map<number, number>;
	/** New responses that do not match the filters yet, by id: the last second they are new in. */
	private readonly unmatched: Map<number, number>;
	private readonly changes = new UndoLog();

	constructor(
		private readonly cursor: StreamCursor,
		private readonly settings: TriggerSettings,
		private readonly context: DecisionsContext,
	) {
		this.waiting = new Map(cursor.waiting?.map(([id, created]) => [id, created]));
		this.arrivals = new Map(
			(cursor.waiting ?? []).flatMap(([id, , arrived]) =>
				arrived === undefined ? [] : [[id, arrived] as const],
			),
		);
		this.unmatched = new Map(cursor.unmatched ?? []);
	}

	/**
	 * The events one sighting of a record stands for. A Response Created only for a response not
	 * announced yet and within reach: read for the first time (new, in the state it is found in),
	 * held by Wait Until Complete (new, as it is once complete), or not matching the filters yet
	 * while still new (`unmatched`, by the rule's Treat as Complete After).
	 */
	eventsOf(
		record: IDataObject,
		created: number,
		{ changed, isNew }: Pick<Sighting, 'changed' | 'isNew'>,
	): EventName[] {
		const { settings, changes } = this;
		const { newEvent, emitFrom } = this.context;
		const firstSeen = isNew && created >= emitFrom;
		if (newEvent !== 'response')
			return firstSeen && settings.events.includes(newEvent) ? [newEvent] : [];
		const id = Number(record.id);
		const held = this.waiting.has(id);
		const announcing =
			settings.events.includes('response') && (firstSeen || held || this.unmatched.has(id));
		// A record stored late with an older created_at (an import) arrives: its updated_at is when
		// it was stored, not a change. Unless a record stored after it was read in a second well
		// before its updated_at: then it was stored before (a response stored invalidated, which the
		// list leaves out, and counted since), and its updated_at is a change.
		const arrivesLate =
			firstSeen &&
			created <= this.cursor.complete &&
			!this.context.storedBefore(id, wootricSeconds(record.updated_at) ?? created);
		if (
			announcing &&
			settings.waitUntilComplete &&
			!isComplete(record, created, this.context.now(), settings.newForSeconds)
		) {
			// Held: what changes meanwhile reaches the workflow with its Response Created.
			changes.set(this.waiting, id, created);
			if (arrivesLate) changes.set(this.arrivals, id, wootricSeconds(record.updated_at) ?? created);
			return [];
		}
		const isChange = changed || this.changedSinceStored(record, arrivesLate);
		changes.delete(this.waiting, id);
		changes.delete(this.arrivals, id);
		changes.delete(this.unmatched, id);
		const events = responseEvents(stateOf(record, created, isChange, firstSeen || held), settings);
		if (!announcing) return events.filter((event) => event !== 'response');
		const lastNewSecond = created + settings.newForSeconds;
		if (
			!events.includes('response') &&
			(wootricSeconds(record.updated_at) ?? created) <= lastNewSecond
		)
			changes.set(this.unmatched, id, lastNewSecond);
		return events;
	}

	/**
	 * The events of a held response emitted as it is now, by the closing look (emitTimedOut): no
	 * longer held, and its arrival no longer needed to tell a change.
	 */
	eventsOfHeld(record: IDataObject, created: number): EventName[] {
		const state = stateOf(record, created, this.changedSinceStored(record, false), true);
		this.arrivals.delete(Number(record.id));
		return responseEvents(state, this.settings);
	}

	/**
	 * The held responses, by id with their created second: lent to the closing look, which lists
	 * those due and takes each it emits out (emitTimedOut).
	 */
	get held(): Map<number, number> {
		return this.waiting;
	}

	mark(): number {
		return this.changes.mark();
	}

	/** Undoes the decisions since `mark`. */
	undoTo(mark: number): void {
		this.changes.undoTo(mark);
	}

	/** A page's decisions stand: they are no longer undone. */
	settle(): void {
		this.changes.clear();
	}

	/** The cursor's lists as the decisions left them. */
	lists(): {
		waiting: Array<[number, number, number?]>;
		unmatched: Array<[number, number]>;
	} {
		return {
			waiting: [...this.waiting].map(([id, created]): [number, number, number?] => {
				const arrived = this.arrivals.get(id);
				return arrived === undefined ? [id, created] : [id, created, arrived];
			}),
			unmatched: [...this.unmatched],
		};
	}

	/** Whether a record is changed since it was stored, by what this trigger knows of its arrival. */
	private changedSinceStored(record: IDataObject, arrivesLate: boolean): boolean {
		const updated = wootricSeconds(record.updated_at);
		const arrived = this.arrivals.get(Number(record.id));
		return changedSinceCreated(record) && !arrivesLate && updated !== arrived;
	}
}

/** One state of a response, for the rule both triggers share (responseEvents). */
function stateOf(record: IDataObject, created: number, isChange: boolean, firstSeen: boolean) {
	return {
		record,
		createdSecond: created,
		changedSecond: wootricSeconds(record.updated_at),
		isChange,
		firstSeen,
	};
}
