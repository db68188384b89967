import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	type FakeWootric,
	type Fault,
	type TieOrder,
} from '../fake';
import type { EndUser, SurveyResponse } from '../fake/store';
import { replayCommand, schedulesOf } from './test-size';
import { fakeWootricOverTime, seededRandom, TriggerSession, useFastRetries } from './wootric';

/**
 * The trigger against a model of the service over time: seeded schedules of polls from 1 s to 2 h
 * apart (exactly 60 s and 300 s among them), records stored at any moment, in the second of a read
 * too, stamped up to a few seconds before they can be read, late imports with an older created_at,
 * comments, completions, tags, deletions and invalidations in any order, changes while a poll
 * pages, polls that run out of n8n's time budget part way (their pages taking seconds), faults,
 * restarts, the n8n host's clock off the service's by up to 30 s, Include End User (its reads
 * slow, failing and rate-limited past the poll's time too), two polls started at once on n8n's own poller, and n8n's durable poller,
 * which drops what a poll stored when it abandons the poll or when the poll at publishing emits
 * nothing (see Keeping). The host's clock (Date) is the test's: it moves only when a schedule says
 * so. The oracle says, for every record, whether it must, may or must not be emitted, and every
 * item is checked against the record's history: nothing emitted twice, nothing lost, nothing else,
 * each with its end user where asked.
 */
const SCHEDULES = schedulesOf('TRIGGER_MODEL_SCHEDULES', 1000);
/** How many run again against an API that ignores the updated filter (New events only). */
const OLDER_API_SCHEDULES = Math.ceil(SCHEDULES / 10);
const GAPS = [1, 2, 5, 9, 10, 11, 30, 59, 60, 60, 60, 61, 120, 300, 300, 900, 3600, 7200];
/**
 * The most seconds the service takes to make a record readable after the time it stamps on it (the
 * node's margin is larger).
 */
const MAX_STAMP_DELAY = 4;
const CATEGORIES = ['detractor', 'passive', 'promoter'] as const;
const categoryOf = (score: number) =>
	score <= 6 ? 'detractor' : score <= 8 ? 'passive' : 'promoter';
/**
 * The transport's faults; a hang (which costs a request timeout) less often, so 1,000 schedules
 * stay quick.
 */
const FAULTS: Fault[] = [
	{ kind: 'status', status: 500 },
	{ kind: 'status', status: 503 },
	{ kind: 'dropConnection' },
	{ kind: 'malformedJson' },
	{ kind: 'unauthorized' },
	{ kind: 'status', status: 500 },
	{ kind: 'dropConnection' },
	{ kind: 'unauthorized' },
	{ kind: 'hang' },
];

type Random = ReturnType<typeof seededRandom>;
type EventName = 'response' | 'responseUpdated' | 'decline';
/**
 * What n8n keeps of a poll that succeeded. Its own poller keeps what the poll stored. Its durable
 * poller (n8n 2.36 and later) commits it with the execution the poll starts, or alone when the poll
 * emits nothing, except: the poll at publishing that emits nothing is dropped ('droppedIfEmpty'), and
 * a poll it abandons (its time ran out, or its lease expired and a re-run took the task) is dropped
 * whole, its items with it ('dropped').
 */
type Keeping = 'kept' | 'droppedIfEmpty' | 'dropped';
/** How often the durable poller abandons a poll, in the schedules that run on it. */
const ABANDONED = 0.12;
/** How often n8n's own poller starts two polls at once, in the schedules that run on it. */
const AT_ONCE = 0.1;

/** What the model knows of one record: when it was stored, and what happened to it. */
interface Tracked {
	kind: 'response' | 'decline';
	id: number;
	created: number;
	/** The service's time when the record was stored (readable from then on). */
	storedAt: number;
	/** Stored by an import with an older created_at. */
	late: boolean;
	/**
	 * The trigger's `complete` second of the record's endpoint when it was stored (undefined before
	 * the first poll).
	 */
	completeBefore?: number;
	score: number;
	textAtStore: boolean;
	completeAtStore: boolean;
	excludedAtStore: boolean;
	/**
	 * Deleted, or invalidated after it was stored: whether it is emitted depends on whether a poll
	 * saw it first.
	 */
	gone: boolean;
	/** The versions it had, each with the service's time it became readable. */
	versions: Array<{
		stamp: number;
		/** updated_at differs from created_at. */
		changed: boolean;
		text: boolean;
		excluded: boolean;
		/** The polls that had succeeded when it was made. */
		pollsBefore: number;
		/** Made while a poll paged, to a record on a page that poll had read. */
		whileRead: boolean;
	}>;
}

interface Settings {
	events: EventName[];
	categories: Array<(typeof CATEGORIES)[number]>;
	onlyWithComment: boolean;
	includeExcluded: boolean;
	lookbackSeconds: number;
	waitSeconds?: number;
	startFrom?: number;
	includeEndUser: boolean;
}

/** `newOnly`: New Response and New Decline only, without Wait Until Complete. */
function chooseSettings(random: Random, now: number, newOnly: boolean): Settings {
	const events = random.pick<EventName[]>(
		newOnly
			? [['response'], ['decline'], ['response', 'decline']]
			: [
					['response'],
					['decline'],
					['responseUpdated'],
					['response', 'decline'],
					['response', 'responseUpdated'],
					['response', 'responseUpdated', 'decline'],
				],
	);
	return {
		events,
		categories: CATEGORIES.filter(() => random.chance(0.3)),
		onlyWithComment: random.chance(0.2),
		includeExcluded: random.chance(0.2),
		lookbackSeconds: random.pick([0, 0, 0, 60, 600, 3600, 7 * 24 * 3600]),
		waitSeconds:
			random.chance(0.35) && !newOnly ? random.pick([60, 300, 3600, 24 * 3600]) : undefined,
		startFrom: random.chance(0.15) ? now - random.int(0, 7200) : undefined,
		includeEndUser: random.chance(0.25),
	};
}

function parametersOf(settings: Settings): INodeParameters {
	const options: INodeParameters = { lookbackMinutes: settings.lookbackSeconds / 60 };
	if (settings.waitSeconds !== undefined)
		Object.assign(options, {
			waitUntilComplete: true,
			completeAfterMinutes: settings.waitSeconds / 60,
		});
	if (settings.startFrom !== undefined)
		options.startFrom = new Date(settings.startFrom * 1000).toISOString();
	if (settings.includeEndUser) options.includeEndUser = true;
	return {
		events: settings.events,
		filters: {
			categories: settings.categories,
			onlyWithComment: settings.onlyWithComment,
			includeExcluded: settings.includeExcluded,
		},
		options,
	};
}

/** "2026-11-23 04:48:53 -0800", the service's list form → UNIX seconds. */
const secondsOf = (datetime: unknown) =>
	Date.parse(String(datetime).replace(/^(\S+) (\S+) ([+-]\d\d)(\d\d)$/, '$1T$2$3:$4')) / 1000;
const versionKey = (item: IDataObject) =>
	JSON.stringify([
		item.updated_at,
		item.text,
		item.tags,
		item.completed,
		item.excluded_from_calculations,
	]);

/**
 * One schedule's world: the fake, the host's clock, the records and what the trigger emitted when.
 */
class World {
	readonly records = new Map<string, Tracked>();
	/** The items the trigger emitted, each with the service's time it reached the workflow. */
	readonly emitted: Array<{ event: EventName; id: number; item: IDataObject; at: number }> = [];
	/** Service times of the polls that succeeded (and n8n kept). */
	readonly polls: number[] = [];
	/** The service's time when the first of them ended. */
	firstPollEnded?: number;
	/** n8n's time budget for the next poll (slowDown); unset, n8n-core's default. */
	private pollBudgetMs?: number;
	/** The cursors' `complete` seconds after the last poll, by record kind. */
	private completes: Partial<Record<Tracked['kind'], number>> = {};
	/** The end users who answer, by id. */
	readonly users = new Map<number, EndUser>();
	/** The versions marked `whileRead` during the poll under way. */
	private readonly changedWhileRead: Array<Tracked['versions'][number]> = [];

	constructor(
		readonly fake: FakeWootric,
		readonly random: Random,
		readonly settings: Settings,
		seed: number,
	) {
		for (let index = random.int(1, 3); index > 0; index--) {
			const user = createEndUser(fake.account, fake.store, `model${seed}-${index}@example.com`);
			this.users.set(user.id, user);
		}
	}

	private someUser(): number {
		return this.random.pick([...this.users.keys()]);
	}

	/** The service's time, in seconds. */
	now(): number {
		return this.fake.clock.now();
	}

	/** Moves both clocks on (the host's by jest's fake Date, the service's with it). */
	advance(milliseconds: number): void {
		jest.setSystemTime(Date.now() + milliseconds);
	}

	private stampDelay(): number {
		return this.random.chance(0.5) ? 0 : this.random.int(1, MAX_STAMP_DELAY);
	}

	storeResponse(late = false, created?: number): void {
		const now = this.now();
		const stamp = now - this.stampDelay();
		const text = this.random.chance(0.4) ? `said ${stamp}` : null;
		const completed = text !== null || this.random.chance(0.3);
		const excluded = this.random.chance(0.08);
		const score = this.random.int(0, 10);
		const createdAt = created ?? stamp;
		const response = addResponse(this.fake.account, this.fake.store, {
			endUserId: this.someUser(),
			score,
			text,
			completed,
			excludedFromCalculations: excluded,
			createdAt,
			updatedAt: late ? stamp : createdAt,
		});
		this.track('response', response.id, createdAt, now, late, {
			score,
			textAtStore: text !== null,
			completeAtStore: completed,
			excludedAtStore: excluded,
			versions: [
				{
					stamp: late ? stamp : createdAt,
					changed: late,
					text: text !== null,
					excluded,
					pollsBefore: this.polls.length,
					whileRead: false,
				},
			],
		});
	}

	storeDecline(late = false, created?: number): void {
		const now = this.now();
		const stamp = now - this.stampDelay();
		const createdAt = created ?? stamp;
		const decline = addDecline(this.fake.account, this.fake.store, {
			endUserId: this.someUser(),
			createdAt,
			updatedAt: late ? stamp : createdAt,
		});
		this.track('decline', decline.id, createdAt, now, late, {
			score: 0,
			textAtStore: false,
			completeAtStore: true,
			excludedAtStore: false,
			versions: [],
		});
	}

	/** Follows a record stored at `storedAt` (the service's time), not gone yet. */
	private track(
		kind: Tracked['kind'],
		id: number,
		created: number,
		storedAt: number,
		late: boolean,
		state: Pick<
			Tracked,
			'score' | 'textAtStore' | 'completeAtStore' | 'excludedAtStore' | 'versions'
		>,
	): void {
		this.records.set(`${kind}:${id}`, {
			kind,
			id,
			created,
			storedAt,
			late,
			completeBefore: this.completes[kind],
			...state,
			gone: false,
		});
	}

	/**
	 * A comment, a completion, a tag or an invalidation, stamped up to a few seconds back (never
	 * before the last change).
	 */
	private changeable(): Tracked[] {
		return [...this.records.values()].filter(
			(record) =>
				record.kind === 'response' && !record.gone && this.fake.account.responses.has(record.id),
		);
	}

	/** `stamp`: the change's updated_at second, committed late (else up to MAX_STAMP_DELAY back). */
	changeSomeResponse(responses = this.changeable(), whileRead = false, stamp?: number): void {
		if (responses.length === 0) return;
		const record = this.random.pick(responses);
		const stored = this.fake.account.responses.get(record.id)!;
		const now = this.now();
		const at = stamp ?? Math.max(stored.updatedAt, now - this.stampDelay());
		const kind = this.random.int(0, 9);
		const change =
			kind < 4
				? { text: `comment ${now}`, completed: true }
				: kind < 6
					? { completed: true }
					: kind < 9
						? { tags: [...stored.tags, `tag${now}`] }
						: { excludedFromCalculations: !stored.excludedFromCalculations };
		const before = JSON.stringify(stored);
		changeResponse(this.fake.account, this.fake.store, record.id, change, at);
		if ('excludedFromCalculations' in change && !this.settings.includeExcluded) record.gone = true;
		const changed = this.fake.account.responses.get(record.id)!;
		// Completing a response that was complete changes nothing: no version, nothing to emit.
		if (JSON.stringify(changed) === before) return;
		const version = {
			stamp: at,
			changed: changed.updatedAt !== changed.createdAt,
			text: changed.text !== null,
			excluded: changed.excludedFromCalculations,
			pollsBefore: this.polls.length,
			whileRead,
		};
		record.versions.push(version);
		if (whileRead) this.changedWhileRead.push(version);
	}

	deleteSome(): void {
		const present = [...this.records.values()].filter((record) => !record.gone);
		if (present.length === 0) return;
		const record = this.random.pick(present);
		(record.kind === 'response' ? this.fake.account.responses : this.fake.account.declines).delete(
			record.id,
		);
		record.gone = true;
	}

	/** Something stored or changed at this moment, as the schedule's dice say. */
	act(): void {
		const { random } = this;
		const roll = random.next();
		if (roll < 0.45) {
			const count = random.chance(0.08) ? random.int(51, 130) : random.int(1, 4);
			for (let index = 0; index < count; index++) {
				if (random.chance(0.3)) this.storeDecline();
				else this.storeResponse();
			}
		} else if (roll < 0.55) {
			// An import: created_at anywhere from just before now to past the longest lookback.
			const created =
				this.now() -
				random.pick([random.int(5, 120), random.int(120, 4000), random.int(4000, 8 * 24 * 3600)]);
			if (random.chance(0.3)) this.storeDecline(true, created);
			else this.storeResponse(true, created);
		} else if (roll < 0.9) {
			this.changeSomeResponse();
		} else if (roll < 0.95) {
			this.deleteSome();
		}
	}

	/**
	 * While the next poll pages through responses: a change to one on a page it has read, which moves
	 * it to the end of the updated_at order and every response after its old place one back (read by
	 * creation time, where the API ignores the updated filter, an invalidation shifts them so).
	 */
	changeWhileRead(): void {
		let changed = false;
		const field = this.fake.updatedIndex ? 'updated' : 'created';
		const timeOf = (response: SurveyResponse) =>
			field === 'updated' ? response.updatedAt : response.createdAt;
		this.fake.arrivalHooks.push((request) => {
			const page = Number(request.query.page);
			const from = Number((request.query[field] as { gte?: string } | undefined)?.gte);
			if (changed || request.path !== '/v1/responses' || !(page >= 2) || !Number.isFinite(from))
				return;
			changed = true;
			const inOrder = [...this.fake.account.responses.values()]
				.filter((response) => timeOf(response) >= from)
				.sort((a, b) => timeOf(a) - timeOf(b) || a.id - b.id);
			const readAlready = new Set(inOrder.slice(0, (page - 1) * 50).map((response) => response.id));
			this.changeSomeResponse(
				this.changeable().filter((record) => readAlready.has(record.id)),
				true,
			);
		});
	}

	/**
	 * Records entering a second before the page a poll resuming there checks (F33 item 2): just after
	 * a poll, more than two pages of responses stamped in the first second its cursor has not read for
	 * good, committed late (within the SETTLE_SECONDS the cursor allows, past MAX_STAMP_DELAY); the next
	 * poll comes within a second and reads them. Once it has asked for its second page, an older
	 * response changes into that second (committed late too), listed among the records the poll read
	 * there (ties by id); its later pages take seconds, so it stops inside that second and a later
	 * poll resumes there. False when that second is too old for it (or no responses are read).
	 */
	enterSecondBeingRead(session: TriggerSession): boolean {
		const cursor = session.staticData.responses as { complete?: number } | undefined;
		if (cursor?.complete === undefined) return false;
		const second = cursor.complete + 1;
		// The service makes a record readable before 10 s have passed since the second it stamps on it.
		const commitBy = (second + 10) * 1000;
		const left = commitBy - this.fake.clock.nowMs();
		if (left < 50) return false;
		for (let index = this.random.int(101, 260); index > 0; index--)
			this.storeResponse(false, second);
		this.advance(this.random.int(0, Math.floor(left / 2)));
		this.pollBudgetMs = 10_000;
		let entered = false;
		this.fake.arrivalHooks.push((request) => {
			const page = Number(request.query.page);
			const from = Number((request.query.updated as { gte?: string } | undefined)?.gte);
			if (request.path !== '/v1/responses' || from !== second || !(page >= 2)) return;
			if (!entered && this.fake.clock.nowMs() < commitBy) {
				entered = true;
				const older = this.changeable()
					.filter(({ id }) => this.fake.account.responses.get(id)!.updatedAt < second)
					.sort((a, b) => a.id - b.id)
					.slice(0, 1);
				this.changeSomeResponse(older, false, second);
			}
			if (page >= 3) this.advance(this.random.int(1000, 5000));
		});
		return true;
	}

	/**
	 * A slow service for the next poll: each page (and end user) takes 1 to 9 s, and n8n gives the
	 * poll 10 s, so it stops when 8 have passed (poll.ts, readOn), after a page or a few, and the next poll
	 * reads on.
	 */
	slowDown(): void {
		this.pollBudgetMs = 10_000;
		this.fake.arrivalHooks.push((request) => {
			if (/^\/v1\/(responses|declines|end_users\/\d+)$/.test(request.path))
				this.advance(this.random.int(1000, 9000));
		});
	}

	/**
	 * For the next poll: end users limited to fewer reads a minute than there are end users, and n8n
	 * giving the poll 10 s (the durable poller gives 36), so that the limit resets after the poll's
	 * time: the poll stops before the first record whose end user it could not read.
	 */
	limitEndUsers(): void {
		this.pollBudgetMs = 10_000;
		this.fake.rateLimits.set('GET /v1/end_users/:id', this.random.int(0, this.users.size - 1), 60);
	}

	/** Faults for the next poll's requests, as the transport already models them. */
	injectFaults(): void {
		const { random, fake } = this;
		if (random.chance(0.3)) this.changeWhileRead();
		if (random.chance(0.15)) this.slowDown();
		if (random.chance(0.15)) {
			fake.faults.inject({
				method: 'GET',
				path: /^\/v1\/(responses|declines)$/,
				when: (request) => request.query.page === String(random.int(1, 3)),
				times: random.int(1, 5),
				fault: random.pick(FAULTS),
			});
		}
		if (random.chance(0.03)) {
			fake.faults.inject({
				method: 'GET',
				path: /^\/v1\/(responses|declines)$/,
				times: random.int(1, 2),
				fault: { kind: 'rateLimited', resetInSeconds: -1 },
			});
		}
		if (this.settings.includeEndUser && random.chance(0.15)) this.limitEndUsers();
		if (this.settings.includeEndUser && random.chance(0.15)) {
			fake.faults.inject({
				method: 'GET',
				path: /^\/v1\/end_users\/\d+$/,
				times: random.int(1, 5),
				fault: random.pick(FAULTS),
			});
		}
	}

	/**
	 * A poll, and what n8n keeps of it (Keeping); `atOnce` polls started together on n8n's own
	 * poller (two Poll Times of one second, or a poll longer than the gap to the next).
	 */
	async poll(session: TriggerSession, keeping: Keeping = 'kept', atOnce = 1): Promise<void> {
		const at = this.now();
		const stored = structuredClone(session.staticData);
		this.changedWhileRead.length = 0;
		const run = await session.pollAtOnce(atOnce, this.pollBudgetMs);
		this.pollBudgetMs = undefined;
		this.fake.rateLimits.clear();
		this.fake.faults.clear();
		this.fake.arrivalHooks.length = 0;
		if (run.emitted.length === 0 && run.errors.length > 0) return;
		if (keeping === 'dropped' || (keeping === 'droppedIfEmpty' && run.emitted.length === 0)) {
			session.restart(stored);
			// Nothing read in the poll counts as read.
			for (const version of this.changedWhileRead) version.whileRead = false;
			return;
		}
		this.polls.push(at);
		// A slow poll's items reach the workflow when it ends, seconds after it started.
		const emittedAt = this.now();
		this.firstPollEnded ??= emittedAt;
		const completeOf = (stream: string) =>
			(session.staticData[stream] as { complete?: number } | undefined)?.complete;
		this.completes = { response: completeOf('responses'), decline: completeOf('declines') };
		for (const item of run.emitted.flat()) {
			if (item.event === 'warning')
				throw new Error(`unexpected warning item: ${JSON.stringify(item)}`);
			this.emitted.push({
				event: item.event as EventName,
				id: Number(item.id),
				item,
				at: emittedAt,
			});
		}
	}
}

/**
 * Whether a response's category and exclusion let the filters through (its score never changes).
 */
function passesFixedFilters(record: Tracked, settings: Settings): boolean {
	if (record.kind === 'decline') return true;
	return settings.categories.length === 0 || settings.categories.includes(categoryOf(record.score));
}

/**
 * The failures of one schedule: each record's emissions against what it must, may and must not get.
 * `from`: the first created second the trigger may emit, and the one from which it must (Start From
 * for both; or the first poll n8n kept, which starts the trigger at some second while it runs).
 */
function judge(world: World, from: { may: number; must: number }): string[] {
	const { settings } = world;
	const failures: string[] = [];
	const newEvent = (kind: Tracked['kind']): EventName =>
		kind === 'response' ? 'response' : 'decline';
	const byKey = new Map<string, typeof world.emitted>();
	for (const entry of world.emitted) {
		const key = `${entry.event === 'decline' ? 'decline' : 'response'}:${entry.id}`;
		byKey.set(key, [...(byKey.get(key) ?? []), entry]);
	}
	for (const [key, record] of world.records) {
		const emissions = byKey.get(key) ?? [];
		const asNew = emissions.filter((entry) => entry.event === newEvent(record.kind));
		const watched = settings.events.includes(newEvent(record.kind));
		// New: must when it was stored on time (or within the Lookback) after activation and matches as
		// stored; never before activation, nor one the fixed filters refuse.
		const inReach =
			record.created >= from.must &&
			(!record.late || record.created >= record.storedAt - settings.lookbackSeconds);
		const matchesAsStored =
			passesFixedFilters(record, settings) &&
			// Invalidated when stored and counted later: new to a trigger that saw it first then.
			(settings.includeExcluded ||
				!record.excludedAtStore ||
				record.versions.some((version) => !version.excluded)) &&
			(!settings.onlyWithComment ||
				record.kind === 'decline' ||
				record.textAtStore ||
				record.versions.some((version) => version.text));
		const must =
			watched &&
			inReach &&
			matchesAsStored &&
			!record.gone &&
			(!settings.onlyWithComment || record.kind === 'decline' || record.textAtStore);
		const may = watched && record.created >= from.may && matchesAsStored;
		if (asNew.length > 1) failures.push(`${key} emitted ${asNew.length} times as new`);
		if (must && asNew.length === 0)
			failures.push(
				`${key} (created ${record.created}, stored ${record.storedAt}${record.late ? ', late' : ''}) never emitted`,
			);
		if (!may && asNew.length > 0)
			failures.push(
				`${key} (created ${record.created}, stored ${record.storedAt}) emitted though out of reach or filtered`,
			);
		for (const entry of asNew) {
			if (settings.waitSeconds !== undefined && record.kind === 'response') {
				const complete =
					entry.item.completed === true ||
					(typeof entry.item.text === 'string' && entry.item.text !== '') ||
					entry.at - record.created >= settings.waitSeconds;
				if (!complete) failures.push(`${key} emitted at ${entry.at} before it was complete`);
			}
		}
		if (record.kind !== 'response' || !settings.events.includes('responseUpdated')) continue;
		const updates = emissions.filter((entry) => entry.event === 'responseUpdated');
		const versions = updates.map((entry) => versionKey(entry.item));
		if (new Set(versions).size !== versions.length)
			failures.push(`${key} emitted a change twice: ${versions.join(' | ')}`);
		// A late import in reach of a watched New Response, older than the window it arrived in,
		// arrived: it did not change.
		const arrived =
			watched &&
			record.late &&
			inReach &&
			record.completeBefore !== undefined &&
			record.created <= record.completeBefore;
		// Made after a poll had read the record (one succeeded since it was stored): a change, whatever
		// its second.
		const afterARead = (version: Tracked['versions'][number]) =>
			version.pollsBefore > record.versions[0].pollsBefore;
		// In its creation second, a change is known only to a poll that read the record before; one
		// made while a poll paged was read before if that poll succeeds.
		const changedInCreationSecond = record.versions
			.slice(1)
			.some(
				(version) => version.stamp === record.created && (afterARead(version) || version.whileRead),
			);
		// Likewise in its arrival second.
		const changedInArrivalSecond = record.versions
			.slice(1)
			.some(
				(version) =>
					version.stamp === record.versions[0].stamp && (afterARead(version) || version.whileRead),
			);
		for (const entry of updates) {
			if (entry.item.updated_at === entry.item.created_at && !changedInCreationSecond)
				failures.push(`${key} emitted as a change without one`);
			if (
				arrived &&
				secondsOf(entry.item.updated_at) === record.versions[0].stamp &&
				!changedInArrivalSecond
			)
				failures.push(`${key} emitted its late arrival as a change`);
		}
		// A change that reaches the workflow as new comes as a change too, under its own key: the
		// workflow may have seen the response as new already (from the webhook trigger, or another n8n
		// process), and would fold the change away with it. A late import's updated_at is when it was
		// stored: it arrived, and is one or the other.
		for (const entry of asNew)
			if (
				!record.late &&
				entry.item.updated_at !== entry.item.created_at &&
				!versions.includes(versionKey(entry.item))
			)
				failures.push(`${key} emitted a change only as new`);
		const stored = world.fake.account.responses.get(record.id);
		const lastChange = record.versions.at(-1);
		// A late import's first sighting is its arrival: a change counts once a poll has seen it
		// stored.
		const changedLast =
			lastChange &&
			record.versions.length > 1 &&
			(lastChange.changed || afterARead(lastChange)) &&
			(!record.late || afterARead(lastChange));
		const listed = stored && (settings.includeExcluded || !stored.excludedFromCalculations);
		if (
			stored &&
			listed &&
			changedLast &&
			!record.gone &&
			lastChange.stamp >= from.must &&
			passesFixedFilters(record, settings) &&
			(!settings.onlyWithComment || stored.text)
		) {
			// Its last item, new or changed: a change learned with the creation comes with New Response.
			const last = emissions.at(-1);
			if (
				!last ||
				last.item.text !== stored.text ||
				JSON.stringify(last.item.tags) !== JSON.stringify(stored.tags) ||
				last.item.completed !== stored.completed
			) {
				failures.push(
					`${key} last change (text ${stored.text}, tags ${stored.tags.join(',')}) not emitted last`,
				);
			}
		}
	}
	for (const entry of world.emitted) {
		const key = `${entry.event === 'decline' ? 'decline' : 'response'}:${entry.id}`;
		const endUser = entry.item.end_user as IDataObject | undefined;
		const user = world.users.get(Number(entry.item.end_user_id));
		if (settings.includeEndUser && (endUser?.email !== user?.email || endUser?.id !== user?.id))
			failures.push(`emitted ${key} without its end user: ${JSON.stringify(endUser)}`);
		if (!world.records.has(key))
			failures.push(`emitted ${entry.event} ${entry.id}, a record the schedule never stored`);
		if (!settings.events.includes(entry.event))
			failures.push(`emitted ${entry.event} ${entry.id}, an event not watched`);
	}
	return failures;
}

/**
 * One seeded schedule, judged. `olderApi`: against an API that ignores the updated filter, watching
 * New Response and New Decline only (the events that can do without it).
 */
async function runSchedule(fake: FakeWootric, seed: number, olderApi = false): Promise<string[]> {
	const random = seededRandom(seed);
	fake.updatedIndex = !olderApi;
	fake.account.responses.clear();
	fake.account.declines.clear();
	fake.faults.clear();
	fake.tieOrder = random.pick<TieOrder>(['reversed', 'idAscending']);
	// The n8n host's clock is off the service's by up to half a minute either way.
	const skewMs = random.int(-30_000, 30_000);
	fake.clock.advance(-skewMs / 1000);
	const world = new World(fake, random, chooseSettings(random, fake.clock.now(), olderApi), seed);
	const parameters = parametersOf(world.settings);
	let session = new TriggerSession(fake, parameters);
	const durable = random.chance(0.3);

	await world.poll(session, durable ? 'droppedIfEmpty' : 'kept');
	if (world.polls.length === 0 && !durable) return ['the first poll failed'];
	const steps = random.int(4, 9);
	for (let step = 0; step < steps; step++) {
		// Something may be stored in the very second the last poll read, just after it.
		if (random.chance(0.3)) world.act();
		const gap =
			(random.chance(0.8) ? random.pick(GAPS) : random.int(1, 7200)) * 1000 + random.int(-400, 400);
		if (random.chance(0.08) && world.enterSecondBeingRead(session)) {
			await world.poll(session);
			continue;
		}
		let elapsed = 0;
		for (let action = random.int(0, 5); action > 0; action--) {
			const at = random.int(elapsed, gap);
			world.advance(at - elapsed);
			elapsed = at;
			world.act();
		}
		world.advance(gap - elapsed);
		if (random.chance(0.1)) session = new TriggerSession(fake, parameters, session.staticData);
		world.injectFaults();
		if (durable) await world.poll(session, random.chance(ABANDONED) ? 'dropped' : 'kept');
		else await world.poll(session, 'kept', random.chance(AT_ONCE) ? 2 : 1);
	}
	// Quiet: every wait runs out, every second settles, and the trigger reads what is left.
	world.advance(((world.settings.waitSeconds ?? 0) + 120) * 1000);
	await world.poll(session);
	world.advance(120_000);
	await world.poll(session);
	fake.clock.advance(skewMs / 1000);
	const { startFrom } = world.settings;
	return judge(world, {
		may: startFrom ?? world.polls[0],
		must: startFrom ?? world.firstPollEnded!,
	});
}

/**
 * The seeds of one half of `count` schedules from TRIGGER_MODEL_FIRST_SEED. Two test files run a
 * half each, side by side: a schedule mostly waits (request timeouts, rate-limit resets), so two
 * workers finish the model in about half the time.
 */
function seedsOf(count: number, half: 1 | 2): number[] {
	const first = Number(process.env.TRIGGER_MODEL_FIRST_SEED ?? 1);
	const middle = Math.ceil(count / 2);
	const [from, to] = half === 1 ? [0, middle] : [middle, count];
	return Array.from({ length: to - from }, (_, index) => first + from + index);
}

/** The model's tests over one half of the seeds (see seedsOf). */
export function describeTriggerModel(half: 1 | 2): void {
	const schedules = seedsOf(SCHEDULES, half);
	const olderApiSchedules = seedsOf(OLDER_API_SCHEDULES, half);

	describe(`Wootric Trigger: the model of the service over time (half ${half} of the seeds)`, () => {
		useFastRetries(2, 150);
		const fakeWootric = fakeWootricOverTime(Date.UTC(2026, 10, 23, 12, 0, 0));

		/**
		 * The failures of the seeded schedules, the first five of each, with the command that
		 * replays the schedule (the first half's file runs the first seed it is given).
		 */
		const runSchedules = async (seeds: number[], olderApi = false) => {
			const failed: Array<{ seed: number; replay: string; failures: string[] }> = [];
			for (const seed of seeds) {
				const failures = await runSchedule(fakeWootric(), seed, olderApi);
				if (failures.length > 0)
					failed.push({
						seed,
						replay: replayCommand(
							'test/integration/trigger-model.first-half.test.ts',
							'TRIGGER_MODEL_FIRST_SEED',
							'TRIGGER_MODEL_SCHEDULES',
							seed,
						),
						failures: failures.slice(0, 5),
					});
			}
			return { schedulesFailed: failed.length, first: failed.slice(0, 5) };
		};

		it(`emits every record exactly once per event over ${schedules.length} seeded schedules`, async () => {
			expect(await runSchedules(schedules)).toEqual({ schedulesFailed: 0, first: [] });
		}, 1_200_000);

		it(`emits every new record exactly once over ${olderApiSchedules.length} seeded schedules against an API that ignores the updated filter`, async () => {
			expect(await runSchedules(olderApiSchedules, true)).toEqual({
				schedulesFailed: 0,
				first: [],
			});
		}, 600_000);
	});
}
