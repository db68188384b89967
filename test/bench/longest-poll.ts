/**
 * The longest polls the Wootric Trigger makes, against n8n's time for a poll on its durable poller:
 * N8N_SCHEDULER_POLL_TIMEOUT, 45 s by default, of which n8n gives the node 36 s (getPollBudgetMs).
 * n8n abandons a poll past the timeout: nothing it read is kept, and the next one starts from the
 * same place. Each scenario polls with that budget until it has caught up, through n8n-core's engine
 * and request path (a new connection per request), and checks that every record was emitted once.
 */
import type { IDataObject } from 'n8n-workflow';

import { SETTLE_SECONDS } from '../../nodes/Wootric/polling/cursor';
import { addResponse, createEndUser, type FakeWootric } from '../fake';
import { TriggerSession } from '../support/wootric';
import { networkLabel, withFake, type Network } from './fake-network';
import { formatCount, formatMs } from './measure';

/** n8n 2.40's defaults on its durable poller. */
export const POLL_TIMEOUT_MS = 45_000;
export const POLL_BUDGET_MS = 36_000;

/** One scenario: the polls it took to catch up, each one's time, and what they emitted. */
export interface LongestPoll {
	scenario: string;
	records: number;
	pollMs: number[];
	emitted: number;
	distinct: number;
	/** How a poll that could not wait ended, where one did. */
	notes: string[];
}

const YEAR_SECONDS = 365 * 24 * 3600;

/** Polls with n8n's budget until `expected` distinct records were emitted (at most `maxPolls`). */
async function pollUntilCaughtUp(
	session: TriggerSession,
	expected: number,
	maxPolls = 20,
): Promise<number[]> {
	const pollMs: number[] = [];
	while (pollMs.length < maxPolls && distinctIds(session.emitted) < expected) {
		const started = performance.now();
		const poll = await session.poll('trigger', POLL_BUDGET_MS);
		pollMs.push(performance.now() - started);
		if (poll.error) throw poll.error;
	}
	return pollMs;
}

const distinctIds = (items: IDataObject[]) => new Set(items.map((item) => item.id)).size;

function scenarioOf(
	scenario: string,
	records: number,
	session: TriggerSession,
	pollMs: number[],
	notes: string[] = [],
): LongestPoll {
	return {
		scenario,
		records,
		pollMs,
		emitted: session.emitted.length,
		distinct: distinctIds(session.emitted),
		notes,
	};
}

/** Start From a year back over `records` responses spread across the year. */
async function startFromAYearBack(records: number, network: Network): Promise<LongestPoll> {
	return await withFake(async (fake) => {
		const from = fake.clock.now() - YEAR_SECONDS;
		const user = createEndUser(fake.account, fake.store, 'a-year@example.com');
		for (let index = 0; index < records; index++)
			addResponse(fake.account, fake.store, {
				endUserId: user.id,
				score: index % 11,
				createdAt: from + 60 + Math.floor((index * (YEAR_SECONDS - 3600)) / records),
			});
		const session = new TriggerSession(fake, {
			events: ['response'],
			options: { startFrom: new Date(from * 1000).toISOString() },
		});
		return scenarioOf(
			`Start From a year back, ${formatCount(records)} responses${networkLabel(network)}`,
			records,
			session,
			await pollUntilCaughtUp(session, records),
		);
	}, network);
}

/**
 * The trigger's first poll, then `count` new responses one a second, the fake's clock moved past them
 * (as triggerBurst in bench.ts); `eachUser`: each by an end user of its own.
 */
async function newResponses(
	fake: FakeWootric,
	session: TriggerSession,
	count: number,
	eachUser: boolean,
): Promise<void> {
	await session.poll('trigger', POLL_BUDGET_MS);
	const from = fake.clock.now() + 1;
	const shared = createEndUser(fake.account, fake.store, 'shared@example.com');
	for (let index = 0; index < count; index++) {
		const user = eachUser
			? createEndUser(fake.account, fake.store, `user${index}@example.com`)
			: shared;
		addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: index % 11,
			createdAt: from + index,
		});
	}
	fake.clock.set(from + count + SETTLE_SECONDS + 5);
}

/** Include End User over `count` new responses, each by an end user of its own. */
async function includeEndUser(count: number, network: Network): Promise<LongestPoll> {
	return await withFake(async (fake) => {
		const session = new TriggerSession(fake, {
			events: ['response'],
			options: { includeEndUser: true },
		});
		await newResponses(fake, session, count, true);
		return scenarioOf(
			`Include End User, ${formatCount(count)} new responses of as many end users${networkLabel(network)}`,
			count,
			session,
			await pollUntilCaughtUp(session, count),
		);
	}, network);
}

/**
 * `count` new responses, the poll's first page answered 429 with a reset `resetInSeconds` away:
 * within n8n's budget the poll waits for it; past it, the poll ends at once, declaring the reset.
 */
async function rateLimitReset(
	count: number,
	resetInSeconds: number,
	network: Network,
): Promise<LongestPoll> {
	return await withFake(async (fake) => {
		const session = new TriggerSession(fake, { events: ['response'] });
		await newResponses(fake, session, count, false);
		fake.faults.inject({
			method: 'GET',
			path: '/v1/responses',
			fault: { kind: 'rateLimited', resetInSeconds },
		});
		const scenario = `${formatCount(count)} new responses, the first page answered 429 with the reset ${resetInSeconds} s away${networkLabel(network)}`;
		if (resetInSeconds * 1000 < POLL_BUDGET_MS)
			return scenarioOf(scenario, count, session, await pollUntilCaughtUp(session, count));
		const started = performance.now();
		const poll = await session.poll('trigger', POLL_BUDGET_MS);
		const failure = (poll.error as { failure?: { cause: string; resetsAtEpochMs?: number } })
			?.failure;
		return scenarioOf(
			scenario,
			count,
			session,
			[performance.now() - started],
			[
				`the poll ended without waiting, declaring ${failure?.cause ?? 'no cause'} until ${
					failure?.resetsAtEpochMs
						? `${Math.round((failure.resetsAtEpochMs - Date.now()) / 1000)} s from then`
						: 'an unknown time'
				}: n8n's durable poller waits that long before the next poll`,
			],
		);
	}, network);
}

export async function longestPolls(network: Network): Promise<LongestPoll[]> {
	return [
		await startFromAYearBack(30_000, network),
		await includeEndUser(2_000, network),
		await rateLimitReset(5_000, 20, network),
		await rateLimitReset(5_000, 60, network),
	];
}

export function longestPollTable(polls: LongestPoll[]): string {
	const lines = [
		`Longest polls, each with n8n's budget for a poll on its durable poller (${formatMs(POLL_BUDGET_MS)} of the ${formatMs(POLL_TIMEOUT_MS)} timeout; past the timeout n8n abandons a poll and keeps nothing of it):`,
		'| scenario | polls | longest poll | within the budget | emitted (distinct) |',
		'|---|---|---|---|---|',
	];
	for (const poll of polls) {
		const longest = Math.max(...poll.pollMs);
		lines.push(
			`| ${poll.scenario} | ${poll.pollMs.length} (${poll.pollMs.map(formatMs).join(', ')}) | ${formatMs(longest)} | ${longest <= POLL_BUDGET_MS ? 'yes' : 'NO'} | ${formatCount(poll.emitted)} (${formatCount(poll.distinct)})${poll.notes.length > 0 ? `; ${poll.notes.join('; ')}` : ''} |`,
		);
	}
	return lines.join('\n');
}
