import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import type { Decline, SurveyResponse } from '../fake/store';
import { declinePayload, responsePayload, type WebhookPayload } from '../fake/webhook-body';
import { closeWebhookSessions, WebhookSession } from '../support/webhooks';
import { replayCommand, schedulesOf } from '../support/test-size';
import { fakeDateOnly, seededRandom, TriggerSession } from '../support/wootric';

/**
 * The Wootric Webhook Trigger against a model of the service and its delivery over time: seeded
 * schedules of responses scored with and without a comment, comments seconds to hours later,
 * re-scores, tags, exclusions and declines, each change sent as the service sends it; a channel that
 * delays (also past Max Age), repeats (at once and later, with the first timestamp or a fresh one)
 * and reorders deliveries, loses those that reach a process that is down and hangs up on some before
 * n8n answers them (while the node reads its credential, or after it handed n8n its items), then
 * tries those again; copies arriving together whose credential reads resolve in any order, some in
 * the same turn; n8n failing to store an execution (500), the delivery sent again unless another
 * copy of it got a 2xx;
 * n8n restarting, and a second webhook process taking part of the stream; n8n's clock up to a minute
 * off the service's; random Events, Filters and Options.
 *
 * The oracle is the promise to users (docs/instant-trigger.md), not the trigger's code: the
 * system the workflow writes to folds items by idempotency_key, and must end up with every event
 * the deliveries that reached n8n in time carried, under its key (a response's Response Created
 * when one of its states that match the filters, made within Treat as Complete After of the score,
 * arrived; each matching change's Response Updated; each decline), with what that state held;
 * nothing else; no key emitted twice by one process within Max Age, but again after a delivery the
 * service hung up on before n8n answered it; one key per change. A change that reached n8n only through deliveries
 * older than Max Age is counted apart, not as lost: the polling trigger brings those.
 */
const SCHEDULES = schedulesOf('WEBHOOK_MODEL_SCHEDULES', 1000);
/** With the polling trigger beside the webhook: each schedule polls many times, so fewer. */
const JOINT_SCHEDULES = Math.ceil(SCHEDULES / 10);
const FIRST_SEED = Number(process.env.WEBHOOK_MODEL_FIRST_SEED ?? 1);
/** n8n's "every minute", the safety net example's setting. */
const POLL_EVERY = 60;

type EventName = 'response' | 'responseUpdated' | 'decline';
const EVENT_SETS: EventName[][] = [
	['response'],
	['responseUpdated'],
	['response', 'responseUpdated'],
	['response', 'responseUpdated', 'decline'],
	['decline', 'response'],
];
const FILTERS: INodeParameters[] = [
	{},
	{ onlyWithComment: true },
	{ categories: ['detractor'] },
	{ categories: ['detractor'], onlyWithComment: true },
	{ minScore: 3, maxScore: 8 },
	{ includeExcluded: true },
];
/** Seconds after the score a change is made: around Treat as Complete After's values, and hours. */
const CHANGE_AFTER = [
	1, 5, 30, 59, 60, 61, 119, 200, 299, 300, 301, 600, 1799, 1800, 1801, 3600, 7200,
];
/** Seconds before the service tries a delivery that found n8n down again. */
const RETRY_AFTER = [60, 300, 1800, 7200];

interface Settings {
	events: EventName[];
	filters: INodeParameters;
	completeAfterSeconds: number;
	maxAgeSeconds: number;
}

/** One state of a record, as a delivery carries it. */
interface State {
	kind: 'response' | 'decline';
	id: number;
	eventName: 'created' | 'updated';
	/** The service's seconds it was made at (updated_at). */
	at: number;
	record: SurveyResponse | Decline;
}

/** One try of a delivery: when it reaches n8n (service seconds), with which timestamp. */
interface Attempt {
	state: State;
	arrives: number;
	sentAt: number;
	/** Tried again after this one if it finds its process down, or is hung up on. */
	retriesLeft: number;
}

/** How often the service hangs up on a delivery before n8n answers it (its own timeout, a network fault). */
const HANG_UPS = 0.06;
/** How often n8n fails to store an execution a delivery starts (its database busy), answering 500. */
const N8N_FAILS = 0.04;

/** An n8n process receiving webhooks: the main (new after each restart) or a webhook process. */
interface Process {
	name: string;
	session?: Promise<WebhookSession>;
	/** How many of its session's items are in the schedule's emissions. */
	told: number;
	/** Service seconds it is up in: [from, to). */
	up: [number, number];
}

interface Emission {
	process: string;
	/** Whether n8n answered the delivery that started it (the service hung up on it otherwise). */
	answered: boolean;
	/** n8n's seconds. */
	at: number;
	item: IDataObject;
}

/** The service's seconds the first schedule starts at; each starts there, with an empty account. */
const START = Date.UTC(2026, 10, 23, 12, 0, 0) / 1000;

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
const categoryOf = (score: number) =>
	score <= 6 ? 'detractor' : score <= 8 ? 'passive' : 'promoter';

/** Whether a response in this state passes the Filters (docs/polling-trigger.md, Filters). */
function passes(response: SurveyResponse, filters: INodeParameters): boolean {
	if (response.excludedFromCalculations && filters.includeExcluded !== true) return false;
	if (
		response.score < Number(filters.minScore ?? 0) ||
		response.score > Number(filters.maxScore ?? 10)
	)
		return false;
	const categories = (filters.categories as string[] | undefined) ?? [];
	if (categories.length > 0 && !categories.includes(categoryOf(response.score))) return false;
	return filters.onlyWithComment !== true || (response.text ?? '').trim() !== '';
}

/** What an item says of the state it carries: id, score, comment and the second it was made. */
const contentOf = (item: IDataObject) =>
	JSON.stringify([
		item.id,
		item.score ?? null,
		item.text ?? null,
		Date.parse(String(item.updated_at ?? item.created_at)) / 1000,
	]);
const contentOfState = ({ record, at }: State) =>
	JSON.stringify([
		record.id,
		'score' in record ? record.score : null,
		'text' in record ? record.text : null,
		at,
	]);

class Schedule {
	readonly random;
	readonly settings: Settings;
	/** Service seconds minus n8n's. */
	readonly skew: number;
	readonly freshTimestampOnRetry: boolean;
	readonly states: State[] = [];
	readonly emissions: Emission[] = [];
	/** Attempts n8n answered 200 (took in), and whether the node judged them older than Max Age. */
	readonly reached: Array<{ attempt: Attempt; tooOld: boolean }> = [];
	private readonly processes: Process[];
	private readonly pending: Attempt[] = [];
	private readonly start = START;
	/** The safety net: the polling trigger in the main, with the same Events, Filters and Options. */
	private polling?: TriggerSession;
	/** The service's seconds of each poll that succeeded. */
	readonly polls: number[] = [];

	constructor(
		private readonly fake: FakeWootric,
		seed: number,
		readonly joint = false,
	) {
		this.random = seededRandom(seed);
		const { random } = this;
		this.settings = {
			events: random.pick(EVENT_SETS),
			filters: random.pick(FILTERS),
			completeAfterSeconds: random.pick([1, 5, 30]) * 60,
			maxAgeSeconds: random.pick([10, 60, 240]) * 60,
		};
		this.skew = random.int(-60, 60);
		this.freshTimestampOnRetry = random.chance(0.5);
		// The main restarts up to twice, down 30 s to 15 minutes each time: a new process, remembering
		// nothing. A webhook process, if any, stays up.
		this.processes = [];
		let from = -Infinity;
		for (let restarts = random.int(0, 2); restarts >= 0; restarts--) {
			const downAt = restarts === 0 ? Infinity : this.start + random.int(60, 3 * 3600);
			this.processes.push({
				name: `main ${this.processes.length + 1}`,
				told: 0,
				up: [from, downAt],
			});
			from = downAt + random.int(30, 900);
		}
		if (random.chance(0.4))
			this.processes.push({ name: 'webhook process', told: 0, up: [-Infinity, Infinity] });
		// n8n's clock, and the service's `skew` ahead of it.
		this.setClock(this.start);
		fake.clock.set(this.start);
	}

	get parameters(): INodeParameters {
		return {
			events: this.settings.events,
			filters: this.settings.filters,
			options: {
				completeAfterMinutes: this.settings.completeAfterSeconds / 60,
				maxAgeMinutes: this.settings.maxAgeSeconds / 60,
			},
		};
	}

	/** The service's history: responses and their changes, declines, each sent as a webhook. */
	plan(): Array<{ at: number; make: () => State }> {
		const { random, fake } = this;
		const user = createEndUser(fake.account, fake.store, `user${random.int(1, 1e9)}@example.com`);
		const moments: Array<{ at: number; make: () => State }> = [];
		for (let count = random.int(2, 4); count > 0; count--) {
			const createdAt = this.start + random.int(0, 1200);
			let response: SurveyResponse | undefined;
			moments.push({
				at: createdAt,
				make: () => {
					response = addResponse(fake.account, fake.store, {
						endUserId: user.id,
						score: random.int(0, 10),
						text: random.chance(0.3) ? 'Said at once' : null,
						excludedFromCalculations: random.chance(0.1),
						createdAt,
						updatedAt: createdAt,
					});
					return this.stateOf('response', 'created', createdAt, response);
				},
			});
			const offsets = [
				...new Set(Array.from({ length: random.int(0, 3) }, () => random.pick(CHANGE_AFTER))),
			];
			for (const offset of offsets.sort((a, b) => a - b)) {
				const at = createdAt + offset;
				moments.push({
					at,
					make: () => {
						const changes = random.pick([
							{ text: `Words at +${offset} s` },
							{ score: random.int(0, 10) },
							{ score: random.int(0, 10), text: `Rescored at +${offset} s` },
							{ tags: [`tag${offset}`] },
							{ excludedFromCalculations: true },
						]);
						const changed = changeResponse(fake.account, fake.store, response!.id, changes, at);
						return this.stateOf('response', 'updated', at, changed);
					},
				});
			}
		}
		if (random.chance(0.5)) {
			const at = this.start + random.int(0, 1200);
			moments.push({
				at,
				make: () =>
					this.stateOf(
						'decline',
						'created',
						at,
						addDecline(fake.account, fake.store, {
							endUserId: user.id,
							createdAt: at,
							updatedAt: at,
						}),
					),
			});
		}
		return moments.sort((a, b) => a.at - b.at);
	}

	private stateOf(
		kind: State['kind'],
		eventName: State['eventName'],
		at: number,
		record: SurveyResponse | Decline,
	): State {
		return { kind, id: record.id, eventName, at, record: structuredClone(record) };
	}

	/** The service sends a state: delayed, maybe repeated at once or later. */
	send(state: State): void {
		const { random } = this;
		const sentAt = state.at + random.int(0, 3);
		const delay = random.chance(0.85)
			? random.int(0, 5)
			: random.chance(0.6)
				? random.int(60, 1800)
				: random.int(3600, 4 * 3600);
		const first: Attempt = {
			state,
			sentAt,
			arrives: sentAt + delay,
			retriesLeft: RETRY_AFTER.length,
		};
		this.pending.push(first);
		if (random.chance(0.15)) this.pending.push({ ...first });
		if (random.chance(0.1)) {
			const later = first.arrives + random.int(60, 7200);
			this.pending.push({
				...first,
				arrives: later,
				sentAt: this.freshTimestampOnRetry ? later : sentAt,
			});
		}
	}

	/** The service's second of the last change made; polls are skipped while nothing changes. */
	lastChange = -Infinity;

	/** Deliveries and polls due by `until` (service seconds), in the order of their times. */
	async advanceTo(until: number): Promise<void> {
		for (;;) {
			const arrival = Math.min(Infinity, ...this.pending.map(({ arrives }) => arrives));
			const poll = this.nextPoll();
			const next = Math.min(arrival, poll);
			if (next > until || next === Infinity) return;
			if (arrival <= poll) await this.deliverAt(arrival);
			else await this.pollAt(poll);
		}
	}

	/**
	 * Every attempt due at `at`, copies due at once together: where several reach one process, their
	 * credential reads (the node's first await) resolve in a random order, some in the same turn. The
	 * service sends again a delivery none of whose copies got a 2xx: copies due at once of one
	 * delivery (its retry overlapping its first attempt, a proxy's duplicate) are one delivery to it.
	 */
	private async deliverAt(at: number): Promise<void> {
		const together = this.pending.filter((attempt) => attempt.arrives === at);
		for (const attempt of together) this.pending.splice(this.pending.indexOf(attempt), 1);
		this.setClock(at);
		const receivers = together.map((attempt) => this.receiverOf(attempt));
		for (const receiver of new Set(receivers)) {
			const copies = receivers.filter((each) => each === receiver).length;
			if (receiver && copies > 1)
				(await this.sessionOf(receiver)).trigger.credentialsHelper.holdReadsTogether(
					copies,
					(count) => this.readOrder(count),
				);
		}
		const statuses = await Promise.all(
			together.map(async (attempt, index) => await this.deliver(attempt, receivers[index])),
		);
		const deliveries = new Map<Attempt, boolean>();
		together.forEach((attempt, index) => {
			const one = together.find(
				(other) => other.state === attempt.state && other.sentAt === attempt.sentAt,
			)!;
			deliveries.set(one, (deliveries.get(one) ?? false) || (statuses[index] ?? 599) < 300);
		});
		for (const [attempt, answered] of deliveries) if (!answered) this.retry(attempt);
		for (const receiver of this.processes) {
			if (!receiver.session) continue;
			const { emissions } = await receiver.session;
			for (const { json: item, answered } of emissions.slice(receiver.told))
				this.emissions.push({ process: receiver.name, at: at - this.skew, item, answered });
			receiver.told = emissions.length;
		}
	}

	/** A random order of `count` reads, in groups that resolve in the same turn. */
	private readOrder(count: number): number[][] {
		const order = Array.from({ length: count }, (_, index) => index);
		for (let index = count - 1; index > 0; index--) {
			const other = this.random.int(0, index);
			[order[index], order[other]] = [order[other], order[index]];
		}
		const groups: number[][] = [];
		for (const index of order)
			if (groups.length > 0 && this.random.chance(0.5)) groups.at(-1)!.push(index);
			else groups.push([index]);
		return groups;
	}

	/**
	 * When the polling trigger polls next: every minute while a main is up, the first before anything
	 * is stored; none while nothing has changed for two minutes (it would read nothing), until the
	 * next change.
	 */
	private nextPoll(): number {
		if (!this.joint) return Infinity;
		const last = this.polls.at(-1);
		if (last === undefined) return this.start - 1;
		if (this.lastChange < last - 2 * POLL_EVERY) return Infinity;
		let next = last + POLL_EVERY;
		while (!this.mainIsUp(next)) next += POLL_EVERY;
		return next;
	}

	private mainIsUp(at: number): boolean {
		return this.processes.some(
			({ name, up: [from, to] }) => name.startsWith('main') && at >= from && at < to,
		);
	}

	/** One poll of the polling trigger, in the main, at service second `at`. */
	async pollAt(at: number): Promise<void> {
		this.polling ??= new TriggerSession(this.fake, this.parameters);
		this.setClock(at);
		const run = await this.polling.poll();
		if (run.error) throw new Error(`a poll failed: ${run.error.message}`);
		this.polls.push(at);
		for (const item of run.items)
			this.emissions.push({ process: 'polling trigger', at: at - this.skew, item, answered: true });
	}

	/** The process an attempt reaches, if any is up. */
	private receiverOf(attempt: Attempt): Process | undefined {
		const alive = this.processes.filter(
			({ up: [from, to] }) => attempt.arrives >= from && attempt.arrives < to,
		);
		// Where both are up, the load balancer sends some to the webhook process.
		return alive.length > 1 && this.random.chance(0.7) ? alive[0] : alive.at(-1);
	}

	private async sessionOf(receiver: Process): Promise<WebhookSession> {
		receiver.session ??= WebhookSession.start(this.fake, this.parameters);
		return await receiver.session;
	}

	/** One copy of a delivery, to `receiver` (n8n down: none); the status the service got, if any. */
	private async deliver(attempt: Attempt, receiver?: Process): Promise<number | undefined> {
		if (!receiver) return undefined;
		const session = await this.sessionOf(receiver);
		// The service gives up waiting as the node reads its credential, or after the node handed n8n
		// the items, before n8n answers: unanswered, it tries again later.
		if (this.random.chance(HANG_UPS))
			session.trigger.hangUpNext(this.random.pick(['whileReceiving', 'afterWebhook'] as const));
		// n8n fails to store the next execution it starts, and answers 500.
		if (this.random.chance(N8N_FAILS)) session.trigger.failExecutionStarts(1);
		const answer = await session.deliver(this.payloadOf(attempt)).catch(() => undefined);
		if (answer === undefined) return undefined;
		if (answer.status === 500 || answer.status === 503) return answer.status;
		if (answer.status !== 200)
			throw new Error(`${receiver.name} answered ${answer.status}: ${answer.text}`);
		// n8n took it in: what it carried is owed.
		const tooOld = attempt.arrives - this.skew - attempt.sentAt > this.settings.maxAgeSeconds;
		this.reached.push({ attempt, tooOld });
		return answer.status;
	}

	/** The service sends an attempt that got no answer again, while it has retries left. */
	private retry(attempt: Attempt): void {
		const index = RETRY_AFTER.length - attempt.retriesLeft;
		if (attempt.retriesLeft === 0) return;
		const arrives = attempt.arrives + RETRY_AFTER[index];
		this.pending.push({
			...attempt,
			arrives,
			sentAt: this.freshTimestampOnRetry ? arrives : attempt.sentAt,
			retriesLeft: attempt.retriesLeft - 1,
		});
	}

	private payloadOf({ state, sentAt }: Attempt): WebhookPayload {
		return state.kind === 'decline'
			? declinePayload(this.fake.account, state.record as Decline, sentAt)
			: responsePayload(this.fake.account, state.record as SurveyResponse, state.eventName, sentAt);
	}

	/** The service's second the schedule has reached. */
	at = -Infinity;

	/** n8n's clock at service second `at`; the fake's runs `skew` ahead. */
	setClock(at: number): void {
		this.at = Math.max(this.at, at);
		jest.setSystemTime((at - this.skew) * 1000);
	}
}

/** What an item folded by key leaves the workflow, judged against the promise. */
interface Verdict {
	lost: string[];
	wrong: string[];
	twiceInOneProcess: string[];
	keysDiffering: string[];
	/** Events that reached n8n only in deliveries older than Max Age. */
	onlyThroughRefused: number;
	refusedDeliveries: number;
	owed: number;
}

function judge(schedule: Schedule): Verdict {
	const { settings, states, emissions, reached, joint, polls } = schedule;
	const watching = (event: EventName) => settings.events.includes(event);
	const verdict: Verdict = {
		lost: [],
		wrong: [],
		twiceInOneProcess: [],
		keysDiffering: [],
		onlyThroughRefused: 0,
		refusedDeliveries: reached.filter(({ tooOld }) => tooOld).length,
		owed: 0,
	};
	const arrival = (state: State) => {
		const attempts = reached.filter(({ attempt }) => attempt.state === state);
		return {
			inTime: attempts.some(({ tooOld }) => !tooOld),
			onlyTooOld: attempts.length > 0 && attempts.every(({ tooOld }) => tooOld),
		};
	};
	// What the system downstream keeps: the first item of each key.
	const kept = new Map<string, IDataObject>();
	for (const { item } of emissions) {
		const key = item.idempotency_key as string;
		if (!kept.has(key)) kept.set(key, item);
	}
	/** Which keys an event may be emitted under, and the states whose content it may carry. */
	const permitted = new Map<string, Set<string>>();
	const permit = (key: string, state: State) =>
		permitted.set(key, (permitted.get(key) ?? new Set()).add(contentOfState(state)));
	/** `polled`: the polling trigger promises it (joint), whatever reached n8n. */
	const owe = (key: string, carriers: State[], polled = false) => {
		const arrivals = carriers.map(arrival);
		if (polled || arrivals.some(({ inTime }) => inTime)) {
			verdict.owed++;
			if (!kept.has(key)) verdict.lost.push(key);
		} else if (arrivals.some(({ onlyTooOld }) => onlyTooOld)) verdict.onlyThroughRefused++;
	};

	const byRecord = new Map<string, State[]>();
	for (const state of states) {
		const record = `${state.kind}:${state.id}`;
		byRecord.set(record, [...(byRecord.get(record) ?? []), state]);
	}
	for (const [record, history] of byRecord) {
		const [creation] = history;
		// The polling trigger reads every record stored after its first poll, each in its last state.
		const last = history.at(-1)!;
		if (creation.kind === 'decline') {
			if (watching('decline')) {
				permit(record, creation);
				owe(record, [creation], joint);
			}
			continue;
		}
		const createdAt = creation.at;
		const matches = (state: State) => passes(state.record as SurveyResponse, settings.filters);
		const isNew = (state: State) => state.at - createdAt <= settings.completeAfterSeconds;
		// New: a state that matches, made within Treat as Complete After of the score; to the polling
		// trigger also one it may have read first (by its second poll since), new to it as it is then.
		const secondPoll = polls.filter((at) => at >= createdAt)[1] ?? Infinity;
		const firstRead = (state: State) => joint && state.at <= secondPoll;
		const asNew = history.filter((state) => matches(state) && (isNew(state) || firstRead(state)));
		if (watching('response') && asNew.length > 0) {
			for (const state of asNew) permit(`response:${creation.id}`, state);
			owe(`response:${creation.id}`, asNew.filter(isNew), joint && matches(last) && isNew(last));
		}
		// Changed: every change that matches, under its own key.
		if (watching('responseUpdated'))
			for (const state of history.filter(
				(state) => state.eventName === 'updated' && matches(state),
			)) {
				const key = `responseUpdated:${state.id}:${iso(state.at)}`;
				permit(key, state);
				owe(key, [state], joint && state === last);
			}
	}
	const changeKeys = new Map<string, string>();
	for (const [key, contents] of permitted)
		for (const content of contents) changeKeys.set(content, key);
	const lastEmitted = new Map<string, { at: number; answered: boolean }>();
	for (const { process, at, item, answered } of emissions) {
		const key = item.idempotency_key as string;
		const content = contentOf(item);
		if (!permitted.get(key)?.has(content)) {
			const expected = changeKeys.get(content);
			if (expected && expected !== key && item.event === 'responseUpdated')
				verdict.keysDiffering.push(`${key} for the change of ${expected}`);
			else verdict.wrong.push(`${key} carrying ${content}`);
		}
		// Within one process, a key is remembered for Max Age at least, but for a delivery the service
		// hung up on before n8n answered: its retry starts it again.
		const last = lastEmitted.get(`${process}/${key}`);
		if (last?.answered && at - last.at < settings.maxAgeSeconds)
			verdict.twiceInOneProcess.push(`${key} at ${process}, ${at - last.at} s apart`);
		lastEmitted.set(`${process}/${key}`, { at, answered });
	}
	return verdict;
}

async function runSchedule(fake: FakeWootric, seed: number, joint: boolean): Promise<Verdict> {
	fake.account.responses.clear();
	fake.account.declines.clear();
	const schedule = new Schedule(fake, seed, joint);
	for (const { at, make } of schedule.plan()) {
		await schedule.advanceTo(at - 1);
		schedule.setClock(at);
		const state = make();
		schedule.lastChange = at;
		schedule.states.push(state);
		schedule.send(state);
	}
	await schedule.advanceTo(Infinity);
	if (joint) {
		// Quiet: every window runs out, and the polling trigger reads what is left, twice.
		const end = schedule.at + schedule.settings.completeAfterSeconds;
		await schedule.pollAt(end + 120);
		await schedule.pollAt(end + 240);
	}
	await closeWebhookSessions();
	return judge(schedule);
}

describe('Wootric Webhook Trigger: the model of the service and its delivery over time', () => {
	let fake: FakeWootric;

	beforeAll(async () => {
		fakeDateOnly(Date.UTC(2026, 10, 23, 12, 0, 0));
		fake = await startFakeWootric();
	});
	afterAll(async () => {
		await closeWebhookSessions();
		await fake.close();
		jest.useRealTimers();
	});

	/** The failures of `count` seeded schedules, and the figures of them all. */
	const runSchedules = async (count: number, joint: boolean) => {
		const failed: Array<{ seed: number; replay: string; verdict: Partial<Verdict> }> = [];
		const totals = { owed: 0, refusedDeliveries: 0, onlyThroughRefused: 0 };
		for (let seed = FIRST_SEED; seed < FIRST_SEED + count; seed++) {
			const verdict = await runSchedule(fake, seed, joint);
			totals.owed += verdict.owed;
			totals.refusedDeliveries += verdict.refusedDeliveries;
			totals.onlyThroughRefused += verdict.onlyThroughRefused;
			const { lost, wrong, twiceInOneProcess, keysDiffering } = verdict;
			if (lost.length + wrong.length + twiceInOneProcess.length + keysDiffering.length > 0)
				failed.push({
					seed,
					replay: replayCommand(
						'test/integration/webhook-trigger-model.test.ts',
						'WEBHOOK_MODEL_FIRST_SEED',
						'WEBHOOK_MODEL_SCHEDULES',
						seed,
					),
					verdict: { lost, wrong, twiceInOneProcess, keysDiffering },
				});
		}
		process.stdout.write(
			`[${joint ? 'webhook and polling model' : 'webhook model'}] ${count} schedules: ${totals.owed} events owed; ${totals.refusedDeliveries} deliveries refused for their age; ${totals.onlyThroughRefused} events reached n8n only through those; ${failed.length} schedules failed\n`,
		);
		return { schedulesFailed: failed.length, first: failed.slice(0, 3) };
	};

	it(`gives the workflow every event that reached n8n in time, under its key, nothing else, over ${SCHEDULES} seeded schedules`, async () => {
		expect(await runSchedules(SCHEDULES, false)).toEqual({ schedulesFailed: 0, first: [] });
	}, 600_000);

	it(`with the polling trigger beside it, through n8n's outages, loses nothing, over ${JOINT_SCHEDULES} seeded schedules`, async () => {
		expect(await runSchedules(JOINT_SCHEDULES, true)).toEqual({ schedulesFailed: 0, first: [] });
	}, 600_000);
});
