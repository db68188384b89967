/**
 * Requests of an endpoint a poll keeps for its closing look after its reading (changedWhileRead and
 * readMovedPastStop, a page each when little moved): of its rate limit, and of its time. The look
 * asks for more pages only while the budget holds them (mayClose).
 */
export const CLOSING_REQUESTS = 2;

/** What a poll asks for: its endpoints' lists, or an end user (Include End User). */
export type RequestKind = 'list' | 'endUser';

/**
 * How long an end-user read is taken to be before one has ended in the poll: the slowest the least
 * a poll needs allows (docs/polling-trigger.md), 2 s of n8n's least budget of 5 s (of a smaller
 * budget, the same share). The first read may come late in the reading (the first records that
 * match behind many that do not), and as slow as that it still ends in time. A list request needs
 * none: the first starts with the poll.
 */
const FIRST_END_USER_READ_MS = 2_000;
const LEAST_BUDGET_MS = 5_000;

/**
 * A poll's time, from n8n's budget for it (getPollBudgetMs; n8n abandons a poll a quarter past it,
 * keeping nothing). Invariant: a request of the reading starts only when, as slow as the slowest
 * answer of its kind this poll has had, it ends by `readingEndsAt`: 80 % of the budget, and early
 * enough that the closing look's CLOSING_REQUESTS list requests, as slow, still end within the
 * budget. So every request a poll makes ends within n8n's time whatever the service's answer times,
 * as long as an answer is no slower than the slowest before it of its kind; before the first
 * end-user answer, as slow as FIRST_END_USER_READ_MS; the first page is let go at the poll's start,
 * so a poll always reads something. State: the slowest answer of each kind, gone with the poll.
 */
export class PollClock {
	private readonly slowest: Partial<Record<RequestKind, number>> = {};

	constructor(
		private readonly started: number,
		private readonly budgetMs: number,
	) {}

	private get firstEndUserReadMs(): number {
		return Math.min(
			FIRST_END_USER_READ_MS,
			(this.budgetMs * FIRST_END_USER_READ_MS) / LEAST_BUDGET_MS,
		);
	}

	/** n8n's end of the poll (ms since the epoch): no rate limit is waited for past it. */
	get giveUpAt(): number {
		return this.started + this.budgetMs;
	}

	/** When the reading must have ended (ms since the epoch), its closing look kept within the budget. */
	get readingEndsAt(): number {
		return Math.min(
			this.started + this.budgetMs * 0.8,
			this.giveUpAt - CLOSING_REQUESTS * (this.slowest.list ?? 0),
		);
	}

	/** Whether a request of the reading may start now. */
	mayStart(kind: RequestKind): boolean {
		const takes = this.slowest[kind] ?? (kind === 'endUser' ? this.firstEndUserReadMs : 0);
		return Date.now() + takes <= this.readingEndsAt;
	}

	/**
	 * Whether the closing look may ask for another page: as slow as the slowest list answer so far,
	 * it ends within the budget.
	 */
	mayClose(): boolean {
		return Date.now() + (this.slowest.list ?? 0) <= this.giveUpAt;
	}

	/** Notes an answer of this kind asked for at `askedAt` (ms since the epoch), arriving now. */
	noteAnswer(kind: RequestKind, askedAt: number): void {
		this.slowest[kind] = Math.max(this.slowest[kind] ?? 0, Date.now() - askedAt);
	}
}
