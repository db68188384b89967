import { invalidValue } from '../errors';
import { localMidnight, localParts } from '../datetime';
import { ok, route, type ApiCall, type Route } from '../http';
import { paramsOf } from '../params';
import type { Account, SurveyChannel } from '../store';
import { npsCategory } from './responses';

const DAY = 86400;

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((100 * part) / whole));

/** `date[start]`/`date[end]` are whole days in the account's time zone; without them, the last month up to today. */
function dateRange(call: ApiCall): { from: number; until: number } {
	const offset = call.account.utcOffsetMinutes;
	const date = paramsOf(call.request.params).nested('date');
	const day = (key: 'start' | 'end', fallback: string) => {
		const text = date?.string(key) ?? fallback;
		const midnight = localMidnight(text, offset);
		if (midnight === undefined) throw invalidValue(`date[${key}]`);
		return midnight;
	};
	const today = localParts(call.store.clock.now(), offset).date;
	const [year, month, dayOfMonth] = today.split('-').map(Number);
	const monthAgo = new Date(Date.UTC(year, month - 2, dayOfMonth)).toISOString().slice(0, 10);
	const from = day('start', monthAgo);
	const until = day('end', today) + DAY;
	if (from >= until) throw invalidValue('date[start]');
	return { from, until };
}

function summarize(account: Account, from: number, until: number) {
	const inRange = (createdAt: number) => createdAt >= from && createdAt < until;
	const responses = [...account.responses.values()].filter((response) => !response.excludedFromCalculations && inRange(response.createdAt));
	const declines = [...account.declines.values()].filter((decline) => inRange(decline.createdAt));
	const counts = { detractors: 0, passives: 0, promoters: 0 };
	for (const response of responses) counts[npsCategory(response.score)]++;
	const byChannel = (channel: SurveyChannel) => ({
		answered: responses.filter((response) => response.channel === channel).length,
		declined: declines.filter((decline) => decline.channel === channel).length,
	});
	const email = byChannel('email');
	return {
		nps: responses.length === 0 ? 0 : Math.round((100 * (counts.promoters - counts.detractors)) / responses.length),
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
