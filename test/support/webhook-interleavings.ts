import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventEmitter } from 'node:events';
import type { IWebhookResponseData } from 'n8n-workflow';

import { TWIN_ANSWER_WAIT_MS } from '../../nodes/Wootric/webhook/receive';
import type { WebhookTrigger } from '../harness';
import type { Delivery } from './webhooks';

/**
 * Copies of one delivery (the service's retry overlapping its first attempt, a proxy's duplicate)
 * run through the Wootric Webhook Trigger's webhook() as n8n runs them in one process, with every
 * point where they can interleave made a step the caller chooses:
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
 * delivery that starts nothing, goes as webhook() returns, as in n8n.
 *
 * What is judged is the promise to the service and the users (docs/maintainers/webhook-promise.md),
 * not the node's rules: a copy answered 2xx means an execution of its event was stored before that
 * answer (the service sends an answered delivery never again); no copy starts the workflow after
 * an execution n8n confirmed to the service (one whose copy was hung up on may be started again:
 * n8n may or may not have stored it); every webhook() ends, none waits for ever; and once the
 * service has sent again every copy it got no 2xx for, the event's execution was stored.
 */
export type StepKind = 'arrive' | 'read' | 'readTogether' | 'answer' | 'hangUp' | 'timeout';
export interface Step {
	kind: StepKind;
	copy?: number;
}

/** Whether n8n manages to store the execution a copy's items start. */
export type Fate = 'stored' | 'fails';

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

interface Copy {
	index: number;
	fate: Fate;
	connection: Connection;
	arrived: boolean;
	releaseRead?: () => void;
	result?: IWebhookResponseData | 'threw';
	answeredByN8n: boolean;
	hungUp: boolean;
	/** The status the service was answered, if any. */
	status?: number;
}

export interface InterleavingRun {
	/** The steps taken, as `arrive A`, `read B`, … */
	trace: string[];
	/** What broke the promise; empty when nothing did. */
	violations: string[];
}

const nameOf = (index: number) => String.fromCharCode(65 + index);
export const describeStep = ({ kind, copy }: Step) =>
	copy === undefined ? kind : `${kind} ${nameOf(copy)}`;

/** Lets everything queued run: the node's continuations after a step, and the answers they write. */
async function settle(): Promise<void> {
	for (let turn = 0; turn < 8; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `fates.length` copies of `delivery` through the trigger, each step chosen by `choose` among
 * those possible, then the service's retries of what got no 2xx, one at a time. Needs jest's fake
 * timers for setTimeout (the node's bounded wait), the immediates and ticks left real.
 */
export async function runInterleaving(
	trigger: WebhookTrigger,
	delivery: Delivery,
	fates: Fate[],
	choose: (enabled: Step[]) => Step,
): Promise<InterleavingRun> {
	const trace: string[] = [];
	const violations: string[] = [];
	/** The executions n8n stored, and whether the service was told (answered 200). */
	const stored: Array<{ copy: string; confirmed: boolean }> = [];

	const newCopy = (index: number, fate: Fate): Copy => {
		const copy: Copy = {
			index,
			fate,
			arrived: false,
			answeredByN8n: false,
			hungUp: false,
			connection: new Connection((status, body) => {
				copy.status = status;
				if (status < 300 && stored.length === 0)
					violations.push(
						`${nameOf(index)} was answered ${status} (${body}) while no execution of its event was stored`,
					);
			}),
		};
		return copy;
	};
	const copies = fates.map((fate, index) => newCopy(index, fate));
	const request = (): IncomingMessage =>
		({
			rawBody: Buffer.from(delivery.body),
			headers: {
				'content-type': delivery.contentType,
				'x-wootric-signature': delivery.signature,
			},
		}) as unknown as IncomingMessage;

	const arrive = (copy: Copy) => {
		copy.arrived = true;
		trigger.credentialsHelper.holdNextRead(
			new Promise<void>((resolve) => (copy.releaseRead = resolve)),
		);
		trigger
			.callWebhook(request(), copy.connection as unknown as ServerResponse)
			.then((result) => {
				copy.result = result;
				const confirmed = stored.find((execution) => execution.confirmed);
				if (result.workflowData && confirmed)
					violations.push(
						`${nameOf(copy.index)} started the workflow after ${confirmed.copy}'s execution, which n8n confirmed`,
					);
				// n8n answers at once a delivery that starts nothing and that the node did not answer.
				if (result.noWebhookResponse !== true && result.workflowData === undefined)
					copy.connection.writeHead(200).end(JSON.stringify(result.webhookResponse));
			})
			.catch(() => {
				copy.result = 'threw';
				copy.connection.writeHead(500).end('Workflow could not be started!');
			});
	};
	const answer = (copy: Copy) => {
		copy.answeredByN8n = true;
		const alive = !copy.connection.destroyed;
		if (copy.fate === 'stored') stored.push({ copy: nameOf(copy.index), confirmed: alive });
		if (alive) copy.connection.writeHead(copy.fate === 'stored' ? 200 : 500).end('answered');
	};

	const pendingReads = () =>
		copies.filter((copy) => copy.releaseRead !== undefined && copy.result === undefined);
	const enabled = (): Step[] => {
		const steps: Step[] = [];
		for (const copy of copies) {
			const { index, connection } = copy;
			if (!copy.arrived) steps.push({ kind: 'arrive', copy: index });
			if (copy.releaseRead) steps.push({ kind: 'read', copy: index });
			if (typeof copy.result === 'object' && copy.result.workflowData && !copy.answeredByN8n)
				steps.push({ kind: 'answer', copy: index });
			if (!copy.hungUp && !connection.writableFinished && !copy.answeredByN8n)
				steps.push({ kind: 'hangUp', copy: index });
		}
		if (pendingReads().filter((copy) => copy.releaseRead).length > 1)
			steps.push({ kind: 'readTogether' });
		if (copies.some((copy) => copy.arrived && !copy.releaseRead && copy.result === undefined))
			steps.push({ kind: 'timeout' });
		return steps;
	};
	const take = (step: Step) => {
		const copy = step.copy === undefined ? undefined : copies[step.copy];
		trace.push(describeStep(step));
		switch (step.kind) {
			case 'arrive':
				return arrive(copy!);
			case 'read': {
				const release = copy!.releaseRead!;
				copy!.releaseRead = undefined;
				return release();
			}
			case 'readTogether':
				for (const waiting of copies.filter((each) => each.releaseRead)) {
					const release = waiting.releaseRead!;
					waiting.releaseRead = undefined;
					release();
				}
				return;
			case 'answer':
				return answer(copy!);
			case 'hangUp':
				copy!.hungUp = true;
				copy!.connection.destroy();
				return;
			case 'timeout':
				jest.advanceTimersByTime(TWIN_ANSWER_WAIT_MS);
		}
	};

	for (let steps = enabled(); steps.length > 0; steps = enabled()) {
		take(choose(steps));
		await settle();
	}
	const waiting = copies.filter((copy) => copy.result === undefined);
	for (const copy of waiting) violations.push(`${nameOf(copy.index)}'s webhook() never ended`);

	// The service sends again, one at a time, every copy it got no 2xx for; nothing fails now.
	let retries = copies.filter((copy) => (copy.status ?? 599) >= 300);
	for (let round = 0; retries.length > 0 && round < 3 && waiting.length === 0; round++) {
		const again = retries.map((copy) => newCopy(copy.index, 'stored'));
		for (const copy of again) {
			trace.push(`retry ${nameOf(copy.index)}`);
			arrive(copy);
			await settle();
			copy.releaseRead?.();
			copy.releaseRead = undefined;
			await settle();
			if (typeof copy.result === 'object' && copy.result.workflowData) answer(copy);
			await settle();
		}
		retries = again.filter((copy) => (copy.status ?? 599) >= 300);
	}
	if (stored.length === 0) violations.push('no execution of the event was ever stored');
	jest.clearAllTimers();
	return { trace, violations };
}

/**
 * Every schedule of the steps, depth first: each run replays the choices of the one before up to
 * its last choice with an alternative left, and takes the next alternative there.
 */
export async function everySchedule(
	run: (choose: (enabled: Step[]) => Step) => Promise<InterleavingRun>,
	onRun: (result: InterleavingRun) => void,
): Promise<number> {
	let choices: number[] = [];
	let runs = 0;
	for (;;) {
		const widths: number[] = [];
		const result = await run((enabled) => {
			const depth = widths.length;
			widths.push(enabled.length);
			return enabled[choices[depth] ?? 0];
		});
		runs++;
		onRun(result);
		let depth = widths.length - 1;
		while (depth >= 0 && (choices[depth] ?? 0) + 1 >= widths[depth]) depth--;
		if (depth < 0) return runs;
		choices = [
			...widths.slice(0, depth).map((_, at) => choices[at] ?? 0),
			(choices[depth] ?? 0) + 1,
		];
	}
}
