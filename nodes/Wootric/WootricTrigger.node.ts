import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { pollWootric } from './polling/poll';
import { RESPONSE_FILTERS, SIMPLIFY_OPTION } from './events/responseFilter';
import { optionsCollection } from './helpers/fields';

export class WootricTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Wootric Trigger',
		name: 'wootricTrigger',
		icon: { light: 'file:wootric.svg', dark: 'file:wootric.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when Wootric survey responses or declines arrive, or responses change',
		defaults: { name: 'Wootric Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wootricApi', required: true }],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: [
					{ name: 'New Decline', value: 'decline', description: 'An end user declined a survey' },
					{ name: 'New Response', value: 'response', description: 'An end user answered a survey' },
					{
						name: 'Updated Response',
						value: 'responseUpdated',
						description:
							'A response changed after it was created: a comment added, completed, invalidated, tagged',
					},
				],
				default: ['response'],
				description: 'Each item says which event it is in its "event" field',
			},
			RESPONSE_FILTERS,
			optionsCollection([
				{
					displayName: 'Include End User',
					name: 'includeEndUser',
					type: 'boolean',
					default: false,
					description:
						"Whether to add the end user's email, external ID and current properties to each item (one request per end user per poll)",
				},
				{
					displayName: 'Lookback (Minutes)',
					name: 'lookbackMinutes',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 0,
					description:
						'Also look this far back for records that arrive late with an older creation time (e.g. imported with created_at). Records already emitted are never emitted again.',
				},
				SIMPLIFY_OPTION,
				{
					displayName: 'Start From',
					name: 'startFrom',
					type: 'dateTime',
					default: '',
					description:
						'On the first poll, emit what arrived since this time instead of starting from now',
				},
				{
					displayName: 'Treat as Complete After (Minutes)',
					name: 'completeAfterMinutes',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 5,
					description:
						'With Wait Until Complete: how long a new response without a comment is held before it is emitted as it is',
				},
				{
					displayName: 'Wait Until Complete',
					name: 'waitUntilComplete',
					type: 'boolean',
					default: false,
					description:
						'Whether to emit a New Response only once it is complete: marked completed, given a comment, or older than Treat as Complete After. The filters are judged on the complete response, so a comment given after the score reaches the workflow.',
				},
			]),
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollWootric(this);
	}
}
