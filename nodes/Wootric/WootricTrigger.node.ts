import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { pollWootric } from './polling/poll';
import { MAIN_FIELDS_VERSION } from './events';
import {
	completeAfterField,
	eventsField,
	RESPONSE_FILTERS,
	SIMPLIFY_OPTIONS,
	whileWatching,
} from './events/responseFilter';
import { optionsCollection } from './helpers/fields';

export class WootricTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Wootric Trigger',
		name: 'wootricTrigger',
		icon: { light: 'file:wootric.svg', dark: 'file:wootric.dark.svg' },
		group: ['trigger'],
		// 1.1: items always carry nps_category and ISO 8601 times; Simplify keeps the main fields.
		version: [1, MAIN_FIELDS_VERSION],
		defaultVersion: MAIN_FIELDS_VERSION,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when Wootric survey responses or declines arrive, or responses change',
		defaults: { name: 'Wootric Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wootricApi', required: true }],
		properties: [
			eventsField(
				'Each item\'s "event" field says which: response, responseUpdated or decline, as in the Wootric Webhook Trigger',
				'A response changed after it was created: a comment added, completed, invalidated, tagged',
			),
			RESPONSE_FILTERS,
			optionsCollection([
				{
					displayName: 'Include End User',
					name: 'includeEndUser',
					type: 'boolean',
					default: false,
					description:
						"Whether to add the end user's email, external ID and current properties to each item (one request per end user per check)",
				},
				{
					displayName: 'Lookback (Minutes)',
					name: 'lookbackMinutes',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: 7 * 24 * 60 },
					default: 0,
					description:
						'Also start the workflow for responses and declines that reach Wootric late, dated up to this many minutes earlier (e.g. imported). None starts it twice.',
					displayOptions: whileWatching(['response', 'decline']),
				},
				...SIMPLIFY_OPTIONS,
				{
					displayName: 'Start From',
					name: 'startFrom',
					type: 'dateTime',
					default: '',
					description:
						'On its first check, also start the workflow for what arrived since this time, instead of only what arrives from then on',
				},
				completeAfterField(
					'With Wait Until Complete, also how long a new response waits for its comment',
				),
				{
					displayName: 'Wait Until Complete',
					name: 'waitUntilComplete',
					type: 'boolean',
					default: false,
					description:
						'Whether a new response waits until it is complete (marked completed, commented, or Treat as Complete After passed) to start the workflow, as it is then: one item with its comment rather than one at the score',
					displayOptions: whileWatching(['response']),
				},
			]),
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollWootric(this);
	}
}
