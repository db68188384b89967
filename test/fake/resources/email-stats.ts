import { invalidValue, missingValue } from '../errors';
import { localMidnight, localParts } from '../datetime';
import { ok, route, type ApiCall, type Route } from '../http';
import { paramsOf } from '../params';
import type { Account, EmailSurveyRecord } from '../store';

/**
 * The email statistics of API v2 (API-FACTS, "Email statistics"; not in the spec), computed from
 * the email surveys the account was asked to send. What the fake decides, as the service's numbers
 * come from its mail provider: an address at `bounce.example` bounces, an end user whose email
 * surveys are off (settings email_nps false) is not eligible, every other address is delivered,
 * and an email response in the range counts as an open and a response.
 */
export const BOUNCING_DOMAIN = 'bounce.example';

const DAY = 86400;

/** The always-on channels, as Get Sources lists them. */
const ONGOING = [
	{ id: 'email_api', name: 'Email API' },
	{ id: 'webhook_trigger', name: 'Webhook trigger' },
];

/** `date_range[start_date]` / `date_range[end_date]`: whole days in the account's time zone. */
function dateRange(call: ApiCall): {
	startDay: string;
	endDay: string;
	from: number;
	until: number;
} {
	const offset = call.account.utcOffsetMinutes;
	const range = paramsOf(call.request.params).nested('date_range');
	const day = (key: 'start_date' | 'end_date') => {
		const text = range?.string(key);
		if (text === undefined || text === '') throw missingValue(`date_range[${key}]`);
		if (localMidnight(text, offset) === undefined) throw invalidValue(`date_range[${key}]`);
		return text;
	};
	const startDay = day('start_date');
	const endDay = day('end_date');
	const from = localMidnight(startDay, offset)!;
	const until = localMidnight(endDay, offset)! + DAY;
	if (from >= until) throw invalidValue('date_range[start_date]');
	return { startDay, endDay, from, until };
}

/** The CSV uploads, numbered from 1 in the order they came: the `sends` of Get Sources. */
const csvSends = (account: Account) =>
	account.emailSurveys
		.filter((survey) => survey.endpoint === 'email_survey_csv')
		.map((survey, index) => ({ id: index + 1, survey }));

/** "42.9%": one decimal, as the service preformats its rates. */
const percentText = (part: number, whole: number) =>
	`${(whole === 0 ? 0 : (100 * part) / whole).toFixed(1)}%`;

/** `2026-01-31T23:59:59-08:00`: a local time with the account's offset. */
function isoLocal(unixSeconds: number, offsetMinutes: number): string {
	const { date, time } = localParts(unixSeconds, offsetMinutes);
	const magnitude = Math.abs(offsetMinutes);
	const hours = String(Math.floor(magnitude / 60)).padStart(2, '0');
	const minutes = String(magnitude % 60).padStart(2, '0');
	return `${date}T${time}${offsetMinutes < 0 ? '-' : '+'}${hours}:${minutes}`;
}

/** "Jan 1, 2026 - Jan 31, 2026". */
function readableDay(day: string): string {
	return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
		timeZone: 'UTC',
		month: 'short',
		day: 'numeric',
		year: 'numeric',
	});
}

function emailStats(call: ApiCall) {
	const { account } = call;
	const { startDay, endDay, from, until } = dateRange(call);
	const inRange = (at: number) => at >= from && at < until;
	const sends: EmailSurveyRecord[] = account.emailSurveys.filter((survey) =>
		inRange(survey.receivedAt),
	);
	const emails = sends.flatMap((survey) => survey.emails);
	const optedOut = new Set(
		[...account.endUsers.values()]
			.filter((endUser) => endUser.settings.email_nps === false)
			.map((endUser) => endUser.email.toLowerCase()),
	);
	const notEligible = emails.filter((email) => optedOut.has(email.toLowerCase())).length;
	const bounce = emails.filter((email) =>
		email.toLowerCase().endsWith(`@${BOUNCING_DOMAIN}`),
	).length;
	const delivered = emails.length - notEligible - bounce;
	const responses = [...account.responses.values()].filter(
		(response) => response.channel === 'email' && inRange(response.createdAt),
	).length;
	const notEligiblePercent =
		emails.length === 0 ? 0 : Math.round((100 * notEligible) / emails.length);
	return {
		email_stats: {
			send_requests: sends.length,
			emails_sent: emails.length,
			delivered,
			delivered_percentage: percentText(delivered, emails.length),
			bounce_rate: bounce,
			bounce_rate_percentage: percentText(bounce, emails.length),
			open_rate: percentText(responses, delivered),
			response_rate: percentText(responses, delivered),
			not_eligible: `${notEligible} (${notEligiblePercent}%)`,
			send_date: `${readableDay(startDay)} - ${readableDay(endDay)}`,
			raw_results: {
				processed: emails.length,
				bounce,
				dropped: 0,
				delivered,
				opted_out: notEligible,
				not_delivered: emails.length - delivered,
				open: responses,
				spamreport: 0,
				not_eligible: notEligible,
				total_surveys: emails.length,
				total_responses: responses,
				// Spelled as in the service's documented example.
				sart_date: isoLocal(from, account.utcOffsetMinutes),
				end_date: isoLocal(until - 1, account.utcOffsetMinutes),
			},
		},
		initial_send: null,
		reminder_send: null,
	};
}

/** "Jan 11, 2024  9:01AM", in the account's time zone, as Get Sources shows a send's time. */
function sendDate(unixSeconds: number, offsetMinutes: number): string {
	const local = new Date((unixSeconds + offsetMinutes * 60) * 1000);
	const day = local.toLocaleDateString('en-US', {
		timeZone: 'UTC',
		month: 'short',
		day: '2-digit',
		year: 'numeric',
	});
	const time = local
		.toLocaleTimeString('en-US', { timeZone: 'UTC', hour: 'numeric', minute: '2-digit' })
		.replace(' ', '');
	return `${day} ${time.padStart(7, ' ')}`;
}

export const emailStatsRoutes: Route[] = [
	route('GET', '/v2/email_stats', (call) => ok(emailStats(call))),
	route('GET', '/v2/email_stats/sources', (call) =>
		ok({
			ongoing: ONGOING,
			sends: csvSends(call.account).map(({ id, survey }) => ({
				id,
				name: survey.fileName ?? `upload-${id}.csv`,
				date: sendDate(survey.receivedAt, call.account.utcOffsetMinutes),
			})),
		}),
	),
	// The report goes to the token's user by email; the answer says nothing.
	route('POST', '/v2/email_stats/bounce_report', (call) => {
		dateRange(call);
		const source = paramsOf(call.request.params).string('source');
		if (source === undefined || source === '') throw missingValue('source');
		const known =
			ONGOING.some((channel) => channel.id === source) ||
			csvSends(call.account).some(({ id }) => String(id) === source);
		if (!known) throw invalidValue('source');
		return ok(null);
	}),
];
