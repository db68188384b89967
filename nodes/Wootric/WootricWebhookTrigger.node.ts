import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { RESPONSE_FILTERS, SIMPLIFY_OPTION } from './events/responseFilter';
import { optionsCollection } from './helpers/fields';
import {
	DEFAULT_COMPLETE_AFTER_MINUTES,
	DEFAULT_MAX_AGE_MINUTES,
	forgetTestDeliveries,
	receiveWebhook,
	startReceiving,
} from './webhook/receive';

const SETUP_STEPS =
	'To connect Wootric: 1) copy the Production URL above (n8n must be reachable from the internet: a public URL or a tunnel); 2) in Wootric, open Settings → Outgoing Webhooks, paste it and choose the events; 3) copy the secret token shown there into the Webhook Secret Token field of the "Wootric API" credential, then publish this workflow.';

export class WootricWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Wootric Webhook Trigger',
		name: 'wootricWebhookTrigger',
		icon: { light: 'file:wootric.svg', dark: 'file:wootric.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description:
			'Starts the workflow the moment Wootric sends a response, a changed response or a decline (outgoing webhooks)',
		defaults: { name: 'Wootric Webhook Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wootricApi', required: true }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		triggerPanel: {
			header: 'Wootric sends its webhooks to the Production URL',
			executionsHelp: {
				inactive: `While building, click "Listen for test event" and make Wootric send one to the Test URL. ${SETUP_STEPS}`,
				active: `Each webhook Wootric sends to the Production URL starts an execution. ${SETUP_STEPS}`,
			},
			activationHint: SETUP_STEPS,
		},
		properties: [
			{
				displayName: SETUP_STEPS,
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: [
					{
						name: 'Decline Created',
						value: 'decline',
						description: 'An end user declined a survey',
					},
					{
						name: 'Response Created',
						value: 'response',
						description: 'An end user answered a survey',
					},
					{
						name: 'Response Updated',
						value: 'responseUpdated',
						description: 'A response changed: its score, or a comment added',
					},
				],
				default: ['response'],
				description:
					'Each item says which event it is in its "event" field, as the polling Wootric Trigger does. Choose the same events in Wootric.',
			},
			RESPONSE_FILTERS,
			optionsCollection([
				{
					displayName: 'Max Age (Minutes)',
					name: 'maxAgeMinutes',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 7 * 24 * 60 },
					default: DEFAULT_MAX_AGE_MINUTES,
					description:
						'A webhook Wootric sent longer ago than this (its signed timestamp) starts nothing: a replay of a captured one, or a retry after n8n was down that long (the polling Wootric Trigger catches those). Repeats within this time start the workflow once per n8n process.',
				},
				SIMPLIFY_OPTION,
				{
					displayName: 'Treat as Complete After (Minutes)',
					name: 'completeAfterMinutes',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 24 * 60 },
					default: DEFAULT_COMPLETE_AFTER_MINUTES,
					description:
						'With Only With a Comment and Response Created: a comment given within this time after the score makes the response a Response Created; a later one is a Response Updated',
				},
			]),
		],
	};

	webhookMethods = {
		default: {
			// Nothing is registered on the service's side (the user pastes the URL there): n8n calls
			// create on every activation and every "Listen for test event".
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await startReceiving(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return forgetTestDeliveries(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveWebhook(this);
	}
}
