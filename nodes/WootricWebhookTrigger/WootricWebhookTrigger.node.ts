import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { RESPONSE_FILTERS, SIMPLIFY_OPTION } from '../WootricTrigger/responseFilter';
import { forgetTestDeliveries, receiveWebhook, startReceiving } from './receive';

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
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [SIMPLIFY_OPTION],
			},
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
