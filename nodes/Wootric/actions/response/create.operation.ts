import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields, readEndUserId } from '../../helpers/endUsers';
import { createFieldsWithSimplify, readEndUserProperties } from '../../helpers/fields';
import { RESPONSE_SHAPE } from '../../helpers/records';
import { currentPropertiesFields } from '../../helpers/surveyRecords';
import { surveyScaleOf } from '../../helpers/surveyTypes';
import { sendRecordCreate } from '../surveyRecordRequests';
import { createdAtSeconds, integerValue, invalid } from '../../helpers/validation';
import type { ParamHash } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Create',
	action: 'Create a response',
	description: "Record an end user's survey response: a score and a comment",
};

export const toolDescription =
	"Create a response in Wootric: record an end user's score (NPS 0–10; CSAT 1–5 or 1–10 and CES 1–7 on such accounts) and comment. Returns the response with its ID.";

export const description: INodeProperties[] = [
	...endUserFields(['id'], 'The end user who answered'),
	{
		displayName: 'Score',
		name: 'score',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 10 },
		default: 10,
		required: true,
		description:
			"A whole number on the credential's Survey Type: NPS 0 to 10, CSAT 1 to 5 or 1 to 10, CES 1 to 7",
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
export async function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<ItemRequests<IDataObject>> {
	const endUserId = readEndUserId(this, itemIndex);
	const { type, min, max, label } = await surveyScaleOf(this);
	const score = integerValue(
		this,
		itemIndex,
		'Score',
		this.getNodeParameter('score', itemIndex),
		// An NPS account's message is as it always was.
		{ min, max, scale: type === 'nps' ? undefined : label },
	);
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
