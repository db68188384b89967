import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventEmitter } from 'node:events';
import type { IWebhookResponseData } from 'n8n-workflow';

import { TWIN_ANSWER_WAIT_MS } from '../../nodes/Wootric/webhook/receive';
import type { WebhookTrigger } from '../harness';
import type { Delivery } from './webhooks';

/**
 * Deliveries that share keys (copies of one, the service's retry overlapping its first attempt; a
 * score's Response Created and its comment's Response Updated, which stands for the Response Created
 * too; two changes of one response in one second) run through the Wootric Webhook Trigger's
 * webhook() as n8n runs them in one process, with every point where they can interleave made a step
 * the caller chooses:
 * - `arrive`: n8n calls webhook() for a copy whose body it has read;
 * - `read`: that copy's credential read resolves; `readTogether`: every pending read resolves in the
 *   same turn of the event loop;
 * - `answer`: n8n answers a copy whose webhook() handed it items: it stores the execution and answers
 *   200, or fails to and answers 500 (the copy's fate); a copy hung up on by then still has its
 *   execution stored, by the same fate, answered to no one;
 * - `hangUp`: the service closes a copy's connection before it was answered: before n8n calls
 *   webhook(), while its credential is read, or after webhook() returned;
 * - `timeout`: the clock moves past the node's bounded wait for a twin's answer.
 * Between steps everything that can run, runs (the microtasks and immediates they queue), so each
 * step is one of the node's awaits resolving. An answer the node writes itself, or n8n's 200 to a
 * delivery that starts nothing, goes as webhook() returns, as in n8n. Then the service sends again
 * every copy it got no 2xx for, one at a time, unless its retries come too late: older than Max Age,
 * refused (receive.ts), they emit nothing, so none is sent.
 *
 * What is judged is the promise to the service and the users (docs/maintainers/webhook-promise.md),
 * not the node's rules, for each event (idempotency key) a delivery carries: a copy answered 2xx
 * means an execution holding each of its events was stored before that answer (the service sends an
 * answered delivery never again, and the other carrier's retry may come too late); no copy starts an
 * event after an execution of it that n8n confirmed to the service (one whose copy was hung up on
 * may be started again: n8n may or may not have stored it); every webhook() ends, none waits for
 * ever; and every event a copy answered 2xx carried was stored, every event of every delivery once
 * the service's retries came in time.
 */
export type StepKind = 'arrive' | 'read' | 'readTogether' | 'answer' | 'hangUp' | 'timeout';
export interface Step {
	kind: StepKind;
	copy?: number;
}

/** Whether n8n manages to store the execution a copy's items start. */
export type Fate = 'stored' | 'fails';

/** Whether the service's retries of what got no 2xx reach n8n within Max Age. */
export type Retries = 'inTime' | 'tooLate';

/** One delivery of a schedule: what the service sends, the events it carries, n8n's fate for it. */
export interface Sending {
	delivery: Delivery;
	/** The idempotency keys of the events it stands for, by the promise. */
	keys: string[];
	fate: Fate;
}

/** A connection's answer, as far as the node and n8n use ServerResponse. */
class Connection extends EventEmitter {
	statusCode = 200;
	destroyed = false;
	writableFinished = false;
	headersSent = false;
	body = '';

	constructor(private readonly onAnswer: (status: number, body: string) => void) {
		super();
	}

	writeHead(status: number): this {
		this.statusCode = status;
		this.headersSent = true;
		return this;
	}

	end(body = ''): this {
		if (this.destroyed || this.writableFinished) return this;
		this.body = body;
		this.writableFinished = true;
		this.onAnswer(this.statusCode, body);
		process.nextTick(() => {
			this.emit('finish');
			this.emit('close');
		});
		return this;
	}

	destroy(): this {
		if (this.destroyed || this.writableFinished) return this;
		this.destroyed = true;
		process.nextTick(() => this.emit('close'));
		return this;
	}
}

const nameOf = (index: number) => String.fromCharCode(65 + index);
export const describeStep = ({ kind, copy }: Step) =>
	copy === undefined ? kind : `${kind} ${nameOf(copy)}`;

/** The executions n8n stored, by the events their items hold, and what broke the promise. */
class Ledger {
	readonly violations: string[] = [];
	private readonly executions: Array<{ copy: string; keys: string[]; confirmed: boolean }> = [];

	/** n8n stored the execution of a copy's items; `confirmed`: it answered the service 200. */
	store(copy: string, keys: string[], confirmed: boolean): void {
		this.executions.push({ copy, keys, confirmed });
	}

	/** The keys no stored execution holds. */
	unstored(keys: string[]): string[] {
		return keys.filter((key) => !this.executions.some((execution) => execution.keys.includes(key)));
	}

	/** A copy was answered: a 2xx only once each event it carries was stored. */
	answered(copy: string, keys: string[], status: number, body: string): void {
		const missing = this.unstored(keys);
		if (status < 300 && missing.length > 0)
			this.violations.push(
				`${copy} was answered ${status} (${body}) while no execution of ${missing.join(', ')} was stored`,
			);
	}

	/** A copy's webhook() handed n8n items of `keys`: none twice, none n8n confirmed before. */
	started(copy: string, keys: string[]): void {
		if (new Set(keys).size < keys.length) this.violations.push(`${copy} started a key twice`);
		for (const key of keys) {
			const confirmed = this.executions.find((each) => each.confirmed && each.keys.includes(key));
			if (confirmed)
				this.violations.push(
					`${copy} started ${key} after ${confirmed.copy}'s execution of it, which n8n confirmed`,
				);
		}
	}
}

/** One copy of a delivery, from n8n reading its body to its answer: what the schedule sees of it. */
class Copy {
	readonly connection: Connection;
	arrived = false;
	releaseRead?: () => void;
	result?: IWebhookResponseData | 'threw';
	answeredByN8n = false;
	hungUp = false;
	/** The status the service was answered, if any. */
	status?: number;

	constructor(
		readonly index: number,
		readonly sending: Sending,
		private readonly fate: Fate,
		private readonly ledger: Ledger,
	) {
		this.connection = new Connection((status, body) => {
			this.status = status;
			ledger.answered(this.name, sending.keys, status, body);
		});
	}

	get name(): string {
		return nameOf(this.index);
	}

	/** The keys of the items its webhook() handed n8n. */
	get startedKeys(): string[] {
		const items = typeof this.result === 'object' ? this.result.workflowData?.[0] : undefined;
		return (items ?? []).map(({ json }) => String(json.idempotency_key));
	}

	get gotNo2xx(): boolean {
		return (this.status ?? 599) >= 300;
	}

	arrive(trigger: WebhookTrigger): void {
		this.arrived = true;
		trigger.credentialsHelper.holdNextRead(
			new Promise<void>((resolve) => (this.releaseRead = resolve)),
		);
		const { delivery } = this.sending;
		const request = {
			rawBody: Buffer.from(delivery.body),
			headers: { 'content-type': delivery.contentType, 'x-wootric-signature': delivery.signature },
		} as unknown as IncomingMessage;
		trigger
			.callWebhook(request, this.connection as unknown as ServerResponse)
			.then((result) => {
				this.result = result;
				if (result.workflowData) this.ledger.started(this.name, this.startedKeys);
				// n8n answers at once a delivery that starts nothing and that the node did not answer.
				if (result.noWebhookResponse !== true && result.workflowData === undefined)
					this.connection.writeHead(200).end(JSON.stringify(result.webhookResponse));
			})
			.catch(() => {
				this.result = 'threw';
				this.connection.writeHead(500).end('Workflow could not be started!');
			});
	}

	read(): void {
		const release = this.releaseRead;
		this.releaseRead = undefined;
		release?.();
	}

	/** n8n stores the execution of its items, or fails to, and answers it if it can. */
	answer(): void {
		this.answeredByN8n = true;
		const alive = !this.connection.destroyed;
		if (this.fate === 'stored') this.ledger.store(this.name, this.startedKeys, alive);
		if (alive) this.connection.writeHead(this.fate === 'stored' ? 200 : 500).end('answered');
	}

	hangUp(): void {
		this.hungUp = true;
		this.connection.destroy();
	}

	/** The steps of its own it can take next. */
	steps(): Step[] {
		const steps: Step[] = [];
		const copy = this.index;
		if (!this.arrived) steps.push({ kind: 'arrive', copy });
		if (this.releaseRead) steps.push({ kind: 'read', copy });
		if (this.startedKeys.length > 0 && !this.answeredByN8n) steps.push({ kind: 'answer', copy });
		if (!this.hungUp && !this.connection.writableFinished && !this.answeredByN8n)
			steps.push({ kind: 'hangUp', copy });
		return steps;
	}
}

export interface InterleavingRun {
	/** The steps taken, as `arrive A`, `read B`, … */
	trace: string[];
	/** What broke the promise; empty when nothing did. */
	violations: string[];
}

/** Lets everything queued run: the node's continuations after a step, and the answers they write. */
async function settle(): Promise<void> {
	for (let turn = 0; turn < 8; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** The steps the copies can take together: their own, reads in one turn, the clock passing a wait. */
function enabledSteps(copies: Copy[]): Step[] {
	const steps = copies.flatMap((copy) => copy.steps());
	if (copies.filter((copy) => copy.releaseRead).length > 1) steps.push({ kind: 'readTogether' });
	if (copies.some((copy) => copy.arrived && !copy.releaseRead && copy.result === undefined))
		steps.push({ kind: 'timeout' });
	return steps;
}

function take(trigger: WebhookTrigger, copies: Copy[], step: Step): void {
	const copy = copies[step.copy ?? -1];
	if (step.kind === 'arrive') copy.arrive(trigger);
	else if (step.kind === 'read') copy.read();
	else if (step.kind === 'readTogether') for (const each of copies) each.read();
	else if (step.kind === 'answer') copy.answer();
	else if (step.kind === 'hangUp') copy.hangUp();
	else jest.advanceTimersByTime(TWIN_ANSWER_WAIT_MS);
}

/**
 * The service sends again, one at a time, every copy it got no 2xx for; nothing fails now. Returns
 * the retries sent, as `retry A`, …
 */
async function retryUnanswered(
	trigger: WebhookTrigger,
	copies: Copy[],
	ledger: Ledger,
): Promise<string[]> {
	const trace: string[] = [];
	let retries = copies.filter((copy) => copy.gotNo2xx);
	for (let round = 0; retries.length > 0 && round < 3; round++) {
		const again = retries.map((copy) => new Copy(copy.index, copy.sending, 'stored', ledger));
		for (const copy of again) {
			trace.push(`retry ${copy.name}`);
			copy.arrive(trigger);
			await settle();
			copy.read();
			await settle();
			if (copy.startedKeys.length > 0) copy.answer();
			await settle();
		}
		retries = again.filter((copy) => copy.gotNo2xx);
	}
	return trace;
}

/**
 * Runs one copy of each sending through the trigger, each step chosen by `choose` among those
 * possible, then the service's retries of what got no 2xx when they come in time. Needs jest's fake
 * timers for setTimeout (the node's bounded wait), the immediates and ticks left real.
 */
export async function runInterleaving(
	trigger: WebhookTrigger,
	sendings: Sending[],
	retries: Retries,
	choose: (enabled: Step[]) => Step,
): Promise<InterleavingRun> {
	const trace: string[] = [];
	const ledger = new Ledger();
	const copies = sendings.map((sending, index) => new Copy(index, sending, sending.fate, ledger));
	for (let steps = enabledSteps(copies); steps.length > 0; steps = enabledSteps(copies)) {
		const step = choose(steps);
		trace.push(describeStep(step));
		take(trigger, copies, step);
		await settle();
	}
	const waiting = copies.filter((copy) => copy.result === undefined);
	for (const copy of waiting) ledger.violations.push(`${copy.name}'s webhook() never ended`);
	if (waiting.length === 0 && retries === 'inTime')
		trace.push(...(await retryUnanswered(trigger, copies, ledger)));
	const owed = copies.filter((copy) => retries === 'inTime' || !copy.gotNo2xx);
	const lost = ledger.unstored([...new Set(owed.flatMap((copy) => copy.sending.keys))]);
	if (lost.length > 0) ledger.violations.push(`lost: ${lost.join(', ')}`);
	jest.clearAllTimers();
	return { trace, violations: ledger.violations };
}

/**
 * Every schedule of the steps, depth first: each run replays the choices of the one before up to
 * its last choice with an alternative left, and takes the next alternative there.
 */
export async function everySchedule(
	run: (choose: (enabled: Step[]) => Step) => Promise<unknown>,
): Promise<number> {
	let choices: number[] = [];
	let runs = 0;
	for (;;) {
		const widths: number[] = [];
		await run((enabled) => {
			const depth = widths.length;
			widths.push(enabled.length);
			return enabled[choices[depth] ?? 0];
		});
		runs++;
		let depth = widths.length - 1;
		while (depth >= 0 && (choices[depth] ?? 0) + 1 >= widths[depth]) depth--;
		if (depth < 0) return runs;
		choices = [
			...widths.slice(0, depth).map((_, at) => choices[at] ?? 0),
			(choices[depth] ?? 0) + 1,
		];
	}
}
