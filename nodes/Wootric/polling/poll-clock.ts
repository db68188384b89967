/**
 * Requests of an endpoint a poll keeps for its closing look after its reading (changedWhileRead and
 * readMovedPastStop, a page each when little moved): of its rate limit, and of its time.
 */
export const CLOSING_REQUESTS = 2;

/** What a poll asks for: its endpoints' lists, or an end user (Include End User). */
export type RequestKind = 'list' | 'endUser';

/**
 * A poll's time, from n8n's budget for it (getPollBudgetMs; n8n abandons a poll a quarter past it,
 * keeping nothing). Invariant: a request of the reading starts only when, as slow as the slowest
 * answer of its kind this poll has had, it ends by `readingEndsAt`: 80 % of the budget, and early
 * enough that the closing look's CLOSING_REQUESTS list requests, as slow, still end within the
 * budget. So every request a poll makes ends within n8n's time whatever the service's answer times,
 * as long as an answer is no slower than the slowest before it of its kind; the first of a kind is
 * let go while the reading's time lasts, so a poll always reads something. State: the slowest answer
 * of each kind, gone with the poll.
 */
export class PollClock {
	private readonly slowest: Record<RequestKind, number> = { list: 0, endUser: 0 };

	constructor(
		private readonly started: number,
		private readonly budgetMs: number,
	) {}

	/** n8n's end of the poll (ms since the epoch): no rate limit is waited for past it. */
	get giveUpAt(): number {
		return this.started + this.budgetMs;
	}

	/** When the reading must have ended (ms since the epoch), its closing look kept within the budget. */
	get readingEndsAt(): number {
		return Math.min(
			this.started + this.budgetMs * 0.8,
			this.giveUpAt - CLOSING_REQUESTS * this.slowest.list,
		);
	}

	/** Whether a request of the reading may start now. */
	mayStart(kind: RequestKind): boolean {
		return Date.now() + this.slowest[kind] <= this.readingEndsAt;
	}

	/** Notes an answer of this kind asked for at `askedAt` (ms since the epoch), arriving now. */
	noteAnswer(kind: RequestKind, askedAt: number): void {
		this.slowest[kind] = Math.max(this.slowest[kind], Date.now() - askedAt);
	}
}
