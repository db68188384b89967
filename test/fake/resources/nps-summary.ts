import { invalidValue } from '../errors';
import { localMidnight, localParts } from '../datetime';
import { ok, route, type ApiCall, type Route } from '../http';
import { paramsOf } from '../params';
import type { Account, SurveyChannel } from '../store';
import { npsCategory } from './responses';

const DAY = 86400;

/**
 * Halves away from zero, as Ruby's Float#round: Math.round would give -12.5 → -12 but 12.5 → 13.
 */
const roundHalfAway = (value: number) => Math.sign(value) * Math.round(Math.abs(value));

const percent = (part: number, whole: number) =>
	whole === 0 ? 0 : roundHalfAway((100 * part) / whole);

/**
 * The same day of the previous month, or its last day when it is shorter (31 March → 29 February).
 */
function monthBefore(day: string): string {
	const [year, month, dayOfMonth] = day.split('-').map(Number);
	const lastDayOfPreviousMonth = new Date(Date.UTC(year, month - 1, 0)).getUTCDate();
	return new Date(Date.UTC(year, month - 2, Math.min(dayOfMonth, lastDayOfPreviousMonth)))
		.toISOString()
		.slice(0, 10);
}

/**
 * `date[start]`/`date[end]` are whole days in the account's time zone. The end defaults to today
 * and the start to a month before the end, so no range means the last month.
 */
function dateRange(call: ApiCall): { from: number; until: number } {
	const offset = call.account.utcOffsetMinutes;
	const date = paramsOf(call.request.params).nested('date');
	const dayParam = (key: 'start' | 'end') => {
		const text = date?.string(key);
		if (text !== undefined && localMidnight(text, offset) === undefined)
			throw invalidValue(`date[${key}]`);
		return text;
	};
	const startParam = dayParam('start');
	const endDay = dayParam('end') ?? localParts(call.store.clock.now(), offset).date;
	const startDay = startParam ?? monthBefore(endDay);
	const from = localMidnight(startDay, offset)!;
	const until = localMidnight(endDay, offset)! + DAY;
	if (from >= until) throw invalidValue('date[start]');
	return { from, until };
}

function summarize(account: Account, from: number, until: number) {
	const inRange = (createdAt: number) => createdAt >= from && createdAt < until;
	const responses = [...account.responses.values()].filter(
		(response) => !response.excludedFromCalculations && inRange(response.createdAt),
	);
	const declines = [...account.declines.values()].filter((decline) => inRange(decline.createdAt));
	const counts = { detractors: 0, passives: 0, promoters: 0 };
	for (const response of responses) counts[npsCategory(response.score)]++;
	const byChannel = (channel: SurveyChannel) => ({
		answered: responses.filter((response) => response.channel === channel).length,
		declined: declines.filter((decline) => decline.channel === channel).length,
	});
	const email = byChannel('email');
	return {
		nps:
			responses.length === 0
				? 0
				: roundHalfAway((100 * (counts.promoters - counts.detractors)) / responses.length),
		responses: responses.length,
		...counts,
		response_rate: percent(responses.length, responses.length + declines.length),
		email_response_rate: percent(email.answered, email.answered + email.declined),
	};
}

export const npsSummaryRoutes: Route[] = [
	route('GET', '/v1/nps_summary', (call) => {
		const { from, until } = dateRange(call);
		return ok(summarize(call.account, from, until));
	}),
];
