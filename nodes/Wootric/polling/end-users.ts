import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { answerId, declaring, isNotFound, OutOfTimeError, wootricRequest } from '../transport';
import type { PollClock } from './poll-clock';

/** End users read at the same time: over a real network a poll's time goes to their round trips. */
const READ_AT_ONCE = 4;

/** A read of an end user not started because the poll's time for reading ran out. */
const NOT_STARTED = Symbol('not started in time');

type Profile = IDataObject | null;

/**
 * What one `read` learnt of its records' end users, whatever other reads of the poll do meanwhile:
 * the profiles it got, by end user id, and the first rate limit out of the poll's time it met.
 */
export class EndUsersRead {
	constructor(
		private readonly profiles: ReadonlyMap<number, Profile>,
		readonly ranOut?: OutOfTimeError,
	) {}

	/** Whether this read left the record's end user unread (out of the poll's time). */
	lacks(record: IDataObject): boolean {
		const id = endUserIdOf(record);
		return id !== undefined && !this.profiles.has(id);
	}

	/** The record with its end user, as this read got it (a deleted user: `deleted: true`). */
	withEndUser(record: IDataObject): IDataObject {
		const id = endUserIdOf(record);
		if (id === undefined || !this.profiles.has(id)) return record;
		const atSurvey = (record.end_user as IDataObject | undefined) ?? {};
		return {
			...record,
			end_user: { ...atSurvey, ...(this.profiles.get(id) ?? { deleted: true }) },
		};
	}
}

/**
 * Include End User: one request per distinct end user of a poll's records, for the email, external
 * id and current properties on each item. A poll reads them as it reads its pages, so that n8n's
 * time for the poll bounds them with the reading: a read starts only when it can end by the
 * reading's end (PollClock), a rate limit that resets after the poll's budget is not waited for,
 * and the poll leaves the records whose end users were not read, and the rest after them, to the
 * next.
 *
 * Invariant: this object is the one owner of the poll's end-user reads, which both endpoints'
 * readings share: `profiles` holds one read per end user, in flight or read; a read that ended
 * unread (out of time) is dropped in the same step that learns it, so that a later `read` starts it
 * again. A reading never asks this object what another reading left: each `read` answers for its
 * own records (EndUsersRead), from the reads it waited for.
 * Bound: one entry per end user of the records read in this poll (at most one per record, 10,000
 * per endpoint), gone with the poll.
 */
export class EndUserProfiles {
	private readonly profiles = new Map<number, Promise<Profile | typeof NOT_STARTED>>();
	private reading = 0;
	private readonly queue: Array<() => void> = [];

	/** `clock`: the poll's time, which bounds the reads (none: a manual run's, unbounded). */
	constructor(
		private readonly context: IPollFunctions,
		private readonly clock?: PollClock,
	) {}

	/**
	 * Reads the end users of these records not read yet, READ_AT_ONCE at a time, and waits for those
	 * another reading started; every read is let finish before a failure fails the poll, so no
	 * request outlives it. A read given up for the poll's time (a rate limit that resets after it, or
	 * its turn coming after `startBy`) leaves its records lacking in what this returns.
	 */
	async read(records: IDataObject[]): Promise<EndUsersRead> {
		const reads: Array<[number, Promise<Profile | typeof NOT_STARTED>]> = [];
		for (const id of new Set(records.map(endUserIdOf))) {
			if (id === undefined) continue;
			let profile = this.profiles.get(id);
			if (!profile) {
				profile = this.inTurn(async () =>
					this.clock?.mayStart('endUser') === false ? NOT_STARTED : await this.profileOf(id),
				);
				this.profiles.set(id, profile);
			}
			reads.push([id, profile]);
		}
		const settled = await Promise.allSettled(reads.map(([, profile]) => profile));
		const got = new Map<number, Profile>();
		let ranOut: OutOfTimeError | undefined;
		for (const [index, read] of settled.entries()) {
			const [id, profile] = reads[index];
			if (read.status === 'fulfilled' && read.value !== NOT_STARTED) {
				got.set(id, read.value);
				continue;
			}
			if (read.status === 'rejected') {
				if (!(read.reason instanceof OutOfTimeError)) throw read.reason;
				ranOut ??= read.reason;
			}
			if (this.profiles.get(id) === profile) this.profiles.delete(id);
		}
		return new EndUsersRead(got, ranOut);
	}

	/**
	 * The records with their end users (read first where not yet). One left unread fails the poll,
	 * declaring why: a rate limit's reset, or the poll's time.
	 */
	async withEndUsers(records: IDataObject[]): Promise<IDataObject[]> {
		const endUsers = await this.read(records);
		if (records.some((record) => endUsers.lacks(record))) throw this.whyLacking(endUsers);
		return records.map((record) => endUsers.withEndUser(record));
	}

	/**
	 * Why a read left end users unread, as the poll's failure: their rate limit, declaring its reset;
	 * else the poll's time.
	 */
	whyLacking(endUsers: EndUsersRead): Error {
		return (
			endUsers.ranOut ??
			declaring(
				new NodeOperationError(
					this.context.getNode(),
					"The poll's time ran out before the end users of its records were read (Include End User)",
					{ description: 'The next poll reads them again.' },
				),
				{ cause: 'temporarily-unavailable' },
			)
		);
	}

	private async profileOf(id: number): Promise<Profile> {
		const askedAt = Date.now();
		const user = await wootricRequest<IDataObject>(this.context, {
			method: 'GET',
			path: `/v1/end_users/${id}`,
			answer: 'record',
			subject: `end user ${id}`,
			giveUpAt: this.clock?.giveUpAt,
		})
			.catch((error: unknown) => {
				// A user deleted since answering has no profile; anything else fails the read.
				if (isNotFound(error)) return null;
				throw error;
			})
			.finally(() => this.clock?.noteAnswer('endUser', askedAt));
		return (
			user && {
				id: user.id,
				email: user.email,
				external_id: user.external_id,
				current_properties: user.properties,
			}
		);
	}

	/** Runs `work` when one of the READ_AT_ONCE turns is free; a turn ending is handed on. */
	private async inTurn<T>(work: () => Promise<T>): Promise<T> {
		if (this.reading < READ_AT_ONCE) this.reading++;
		else await new Promise<void>((turn) => this.queue.push(turn));
		try {
			return await work();
		} finally {
			const next = this.queue.shift();
			if (next) next();
			else this.reading--;
		}
	}
}

/** The record's end user's id, checked (answerId): it becomes a path segment. */
function endUserIdOf(record: IDataObject): number | undefined {
	return answerId(record.end_user_id);
}
