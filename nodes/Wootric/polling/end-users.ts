import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { answerId, isNotFound, OutOfTimeError, wootricRequest } from '../transport';

/** End users read at the same time: over a real network a poll's time goes to their round trips. */
const READ_AT_ONCE = 4;

/**
 * Include End User: one request per distinct end user of a poll's records, for the email, external
 * id and current properties on each item. A poll reads them as it reads its pages, so that n8n's
 * time for the poll bounds them with the reading: a poll that stops early, or whose end users meet
 * a rate limit that resets after its time, leaves the rest of the records, and their end users, to
 * the next.
 *
 * State: one entry per end user read, or being read, in this poll (at most one per record read,
 * 10,000 per endpoint), gone with the poll; one that ran out of the poll's time is dropped, so
 * that `lacks` tells its records.
 */
export class EndUserProfiles {
	/** null: deleted since answering (404). */
	private readonly profiles = new Map<number, Promise<IDataObject | null>>();
	private reading = 0;
	private readonly queue: Array<() => void> = [];

	/** `giveUpAt`: n8n's end of the poll; no rate-limit wait past it (see transport/request). */
	constructor(
		private readonly context: IPollFunctions,
		private readonly giveUpAt?: number,
	) {}

	/**
	 * Reads the end users of these records not read yet, READ_AT_ONCE at a time; every read is let
	 * finish before a failure fails the poll, so no request outlives it. Resolves to the error of a
	 * read given up for the poll's time (a rate limit that resets after it), if one was: then
	 * `lacks` tells the records whose end users are not read, and the poll leaves them to the next.
	 */
	async read(records: IDataObject[]): Promise<OutOfTimeError | undefined> {
		// Those another endpoint's reading started are waited for too: one may yet run out of time.
		const reads: Array<[number, Promise<unknown>]> = [];
		for (const id of new Set(records.map(endUserIdOf))) {
			if (id === undefined) continue;
			let profile = this.profiles.get(id);
			if (!profile) {
				profile = this.inTurn(async () => await this.profileOf(id));
				this.profiles.set(id, profile);
			}
			reads.push([id, profile]);
		}
		const settled = await Promise.allSettled(reads.map(([, profile]) => profile));
		let ranOut: OutOfTimeError | undefined;
		for (const [index, read] of settled.entries()) {
			if (read.status === 'fulfilled') continue;
			if (!(read.reason instanceof OutOfTimeError)) throw read.reason;
			ranOut ??= read.reason;
			const [id, profile] = reads[index];
			if (this.profiles.get(id) === profile) this.profiles.delete(id);
		}
		return ranOut;
	}

	/** Whether the record has an end user whose profile this poll has not read. */
	lacks(record: IDataObject): boolean {
		const id = endUserIdOf(record);
		return id !== undefined && !this.profiles.has(id);
	}

	/** The records with their end users (read first where not yet; out of time, the poll fails). */
	async withEndUsers(records: IDataObject[]): Promise<IDataObject[]> {
		const ranOut = await this.read(records);
		if (ranOut) throw ranOut;
		return await Promise.all(
			records.map(async (record) => {
				const id = endUserIdOf(record);
				if (id === undefined) return record;
				const profile = await this.profiles.get(id)!;
				const atSurvey = (record.end_user as IDataObject | undefined) ?? {};
				return { ...record, end_user: { ...atSurvey, ...(profile ?? { deleted: true }) } };
			}),
		);
	}

	private async profileOf(id: number): Promise<IDataObject | null> {
		const user = await wootricRequest<IDataObject>(this.context, {
			method: 'GET',
			path: `/v1/end_users/${id}`,
			answer: 'record',
			subject: `end user ${id}`,
			giveUpAt: this.giveUpAt,
		}).catch((error: unknown) => {
			// A user deleted since answering has no profile; anything else fails the read.
			if (isNotFound(error)) return null;
			throw error;
		});
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
