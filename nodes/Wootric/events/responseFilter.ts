import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import {
	categoryRanges,
	CATEGORY_VALUES,
	type CategoryValue,
	type SurveyScale,
} from '../helpers/surveyTypes';
import { integerValue, invalid, type ValueContext } from '../helpers/validation';
import { MAIN_FIELDS_VERSION, type EventName, type EventRule, type ResponseFilter } from './index';

/**
 * What both triggers, the polling one and the webhook one, show and read alike, so that a workflow
 * can move from one to the other unchanged: the events, the response filters and Simplify.
 */

/**
 * Events, as both triggers show it: the same names and values. What reaches either trigger as a
 * Response Updated differs (`responseUpdated`), and so does the help (`description`).
 */
export function eventsField(description: string, responseUpdated: string): INodeProperties {
	return {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: [
			{ name: 'Decline Created', value: 'decline', description: 'An end user declined a survey' },
			{ name: 'Response Created', value: 'response', description: 'An end user answered a survey' },
			{ name: 'Response Updated', value: 'responseUpdated', description: responseUpdated },
		],
		default: ['response'],
		description,
	};
}

/**
 * Shown only while the trigger watches one of `events` and `also` holds. Events is reached from the
 * root ('/events'), so that a field in a collection (Options) can depend on it.
 */
export const whileWatching = (
	events: EventName[],
	also: IDisplayOptions['show'] = {},
): IDisplayOptions => ({ show: { '/events': events, ...also } });

/** Declines have no score: the filters act on responses only, and show only when one is watched. */
export const RESPONSE_FILTERS: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	description: 'Which responses start the workflow; declines are not filtered',
	displayOptions: whileWatching(['response', 'responseUpdated']),
	options: [
		{
			displayName: 'Category',
			name: 'categories',
			type: 'multiOptions',
			// The values are NPS's names on every survey type, as saved workflows hold them.
			options: [
				{ name: 'Detractor / Negative', value: 'detractor', description: categoryRanges(0) },
				{ name: 'Passive / Neutral', value: 'passive', description: categoryRanges(1) },
				{ name: 'Promoter / Positive', value: 'promoter', description: categoryRanges(2) },
			],
			default: [],
			description:
				"Only responses of these categories, on the credential's Survey Type: detractor, passive, promoter on NPS; negative, neutral, positive on CSAT and CES. None chosen means all.",
		},
		{
			displayName: 'Include Responses Left Out of NPS',
			name: 'includeExcluded',
			type: 'boolean',
			default: false,
			description:
				'Whether to also include responses that Wootric leaves out of the NPS score (marked excluded from calculations, or invalidated)',
		},
		{
			displayName: 'Maximum Score',
			name: 'maxScore',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 10,
			description:
				"Only responses with this score or lower, on the credential's Survey Type (NPS 0–10, CSAT 1–5 or 1–10, CES 1–7)",
		},
		{
			displayName: 'Minimum Score',
			name: 'minScore',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 0,
			description:
				"Only responses with this score or higher, on the credential's Survey Type (NPS 0–10, CSAT 1–5 or 1–10, CES 1–7)",
		},
		{
			displayName: 'Only With a Comment',
			name: 'onlyWithComment',
			type: 'boolean',
			default: false,
			description: 'Whether to skip responses that have a score but no comment',
		},
	],
};

/** Treat as Complete After's default, in minutes. */
export const DEFAULT_COMPLETE_AFTER_MINUTES = 5;

/**
 * Treat as Complete After, as both triggers show it (EventRule's newForSeconds); `more` says what
 * only one of them does with it, a sentence without its final period.
 */
export function completeAfterField(more: string): INodeProperties {
	return {
		displayName: 'Treat as Complete After (Minutes)',
		name: 'completeAfterMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 24 * 60 },
		default: DEFAULT_COMPLETE_AFTER_MINUTES,
		description: `How long after its score a response is still new: a change in this time that makes it match the Filters (a comment, with Only With a Comment) starts the workflow as its Response Created; a later one is a Response Updated. ${more}.`,
		// Only With a Comment is in Filters: n8n cannot show a field by another collection's value
		// when it runs the workflow (it would drop the field), so only Events decides.
		displayOptions: whileWatching(['response']),
	};
}

/**
 * Simplify, by the node's version (events/index.ts, itemFields): in version 1 it adds nps_category
 * and turns times into ISO 8601 UTC; from 1.1 items always have those, and it keeps the main fields.
 */
export const SIMPLIFY_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description:
			'Whether to add nps_category to responses and turn every datetime into ISO 8601 UTC',
		displayOptions: { show: { '@version': [1] } },
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description:
			'Whether to return only the main fields (ID, end user, score, NPS category, comment, dates) instead of all of them',
		displayOptions: { show: { '@version': [{ _cnd: { gte: MAIN_FIELDS_VERSION } }] } },
	},
];

/**
 * The Filters collection as a ResponseFilter on the account's `scale`; a score out of range, an
 * empty range, or one no score of the scale falls in is refused.
 */
export function readResponseFilter(
	context: ValueContext,
	filters: IDataObject,
	scale: SurveyScale,
): ResponseFilter {
	const minScore = integerValue(context, undefined, 'Minimum Score', filters.minScore ?? 0, {
		min: 0,
		max: 10,
	});
	const maxScore = integerValue(context, undefined, 'Maximum Score', filters.maxScore ?? 10, {
		min: 0,
		max: 10,
	});
	if (minScore > maxScore)
		throw invalid(
			context,
			undefined,
			'Minimum Score',
			`must not be above the Maximum Score (${maxScore})`,
			minScore,
		);
	// The defaults, 0 and 10, span every scale; a range beside the scale would start nothing, ever.
	if (minScore > scale.max)
		throw invalid(
			context,
			undefined,
			'Minimum Score',
			`must not be above ${scale.max}, the top of ${scale.label} (the credential's Survey Type)`,
			minScore,
		);
	if (maxScore < scale.min)
		throw invalid(
			context,
			undefined,
			'Maximum Score',
			`must not be below ${scale.min}, the bottom of ${scale.label} (the credential's Survey Type)`,
			maxScore,
		);
	const categories = ((filters.categories as string[] | undefined) ?? []).map((value) => {
		const index = CATEGORY_VALUES.indexOf(value as CategoryValue);
		if (index < 0)
			throw invalid(
				context,
				undefined,
				'Category',
				'must be detractor, passive or promoter',
				value,
			);
		return index;
	});
	return {
		scale,
		categories,
		minScore,
		maxScore,
		onlyWithComment: filters.onlyWithComment === true,
		includeExcluded: filters.includeExcluded === true,
	};
}

/** A trigger's context, as far as reading its parameters goes. */
type TriggerContext = ValueContext & {
	getNodeParameter(name: string, fallbackValue: unknown): unknown;
};

/** Events, Filters and Treat as Complete After, read alike by both triggers (EventRule). */
export function readEventRule(context: TriggerContext, scale: SurveyScale): EventRule {
	const events = context.getNodeParameter('events', []) as EventName[];
	if (events.length === 0)
		throw invalid(context, undefined, 'Events', 'needs at least one event', events);
	const filters = context.getNodeParameter('filters', {}) as IDataObject;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const completeAfterMinutes = integerValue(
		context,
		undefined,
		'Treat as Complete After (Minutes)',
		options.completeAfterMinutes ?? DEFAULT_COMPLETE_AFTER_MINUTES,
		{ min: 1, max: 24 * 60 },
	);
	return {
		events,
		filter: readResponseFilter(context, filters, scale),
		newForSeconds: completeAfterMinutes * 60,
	};
}
