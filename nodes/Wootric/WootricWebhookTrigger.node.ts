import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { MAIN_FIELDS_VERSION } from './events';
import {
	completeAfterField,
	eventsField,
	RESPONSE_FILTERS,
	SIMPLIFY_OPTIONS,
} from './events/responseFilter';
import { optionsCollection } from './helpers/fields';
import {
	DEFAULT_MAX_AGE_MINUTES,
	forgetTestDeliveries,
	receiveWebhook,
	startReceiving,
} from './webhook/receive';

/** Shown once, under the Webhook URLs; the trigger panel points to it (SEE_SETUP_STEPS). */
const SETUP_STEPS =
	'To connect Wootric: 1) copy the Production URL above (n8n must be reachable from the internet: a public URL or a tunnel); 2) in Wootric, open Settings → Outgoing Webhooks, paste it and choose the events; 3) copy the secret token shown there into the Webhook Secret Token field of the "Wootric API" credential, then publish this workflow.';

const SEE_SETUP_STEPS =
	"How to connect Wootric: see the steps under the Webhook URLs in the node's parameters.";

export class WootricWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Wootric Webhook Trigger',
		name: 'wootricWebhookTrigger',
		icon: { light: 'file:wootric.svg', dark: 'file:wootric.dark.svg' },
		group: ['trigger'],
		// 1.1: items always carry nps_category and ISO 8601 times; Simplify keeps the main fields.
		version: [1, MAIN_FIELDS_VERSION],
		defaultVersion: MAIN_FIELDS_VERSION,
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
				inactive: `While building, click "Listen for test event" and make Wootric send a webhook to the Test URL. ${SEE_SETUP_STEPS}`,
				active: `Each webhook Wootric sends to the Production URL starts an execution. ${SEE_SETUP_STEPS}`,
			},
		},
		properties: [
			{
				displayName: SETUP_STEPS,
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			eventsField(
				'Each item\'s "event" field says which: response, responseUpdated or decline, as in the Wootric Trigger. Choose the same events in Wootric.',
				'A response changed after it was created: a comment added, or its score changed',
			),
			RESPONSE_FILTERS,
			optionsCollection([
				{
					displayName: 'Max Age (Minutes)',
					name: 'maxAgeMinutes',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 7 * 24 * 60 },
					default: DEFAULT_MAX_AGE_MINUTES,
					description:
						'Ignore webhooks Wootric sent longer ago than this (e.g. an old one sent again); the polling Wootric Trigger can catch up on what n8n missed. While n8n runs, a webhook repeated within this time starts the workflow once.',
				},
				...SIMPLIFY_OPTIONS,
				completeAfterField(
					'A webhook tells when a change was made by its updated_at, else by its timestamp',
				),
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
