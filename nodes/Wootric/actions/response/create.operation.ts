import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields, readEndUserId } from '../../helpers/endUsers';
import { createFieldsWithSimplify, readEndUserProperties } from '../../helpers/fields';
import { RESPONSE_SHAPE } from '../../helpers/records';
import { currentPropertiesFields } from '../../helpers/surveyRecords';
import { sendRecordCreate } from '../surveyRecordRequests';
import { createdAtSeconds, integerValue, invalid } from '../../helpers/validation';
import type { ParamHash } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Create',
	action: 'Create a response',
	description: "Record an end user's survey response: an NPS score 0–10 and a comment",
};

export const toolDescription =
	"Create a response in Wootric: record an end user's NPS score (0–10) and comment. Returns the response with its ID.";

export const description: INodeProperties[] = [
	...endUserFields(['id'], 'The end user who answered'),
	{
		displayName: 'Score',
		name: 'score',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 10 },
		default: 10,
		required: true,
		description: 'The NPS score, a whole number from 0 to 10',
	},
	{
		displayName: 'IP Address',
		name: 'ipAddress',
		type: 'string',
		default: '',
		required: true,
		placeholder: '203.0.113.7',
		description: 'Where the response came from',
	},
	{
		displayName: 'Origin URL',
		name: 'originUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://app.example.com/dashboard',
		description: 'The page the survey was answered on',
	},
	...currentPropertiesFields('response'),
	...createFieldsWithSimplify(RESPONSE_SHAPE, [
		{
			displayName: 'Comment',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'What the end user wrote with the score',
		},
		{
			displayName: 'Created At',
			name: 'createdAt',
			type: 'dateTime',
			default: '',
			description: 'When the response was given, if not now',
		},
	]),
];

/**
 * POST /v1/end_users/<id>/responses; with end-user properties, the end user's profile is updated
 * too.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const endUserId = readEndUserId(this, itemIndex);
	const score = integerValue(this, itemIndex, 'Score', this.getNodeParameter('score', itemIndex), {
		min: 0,
		max: 10,
	});
	const requiredText = (name: string, field: string) => {
		const value = String(this.getNodeParameter(name, itemIndex) ?? '').trim();
		if (value === '') throw invalid(this, itemIndex, field, 'is required', value);
		return value;
	};
	const form: ParamHash = {
		score,
		ip_address: requiredText('ipAddress', 'IP Address'),
		origin_url: requiredText('originUrl', 'Origin URL'),
	};
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	if (additional.text) form.text = String(additional.text);
	if ('createdAt' in additional)
		form.created_at = createdAtSeconds(this, itemIndex, additional.createdAt);
	form.end_user = readEndUserProperties(this, itemIndex);
	return sendRecordCreate(this, itemIndex, 'response', endUserId, form);
}
