import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields, readEndUserId } from '../../helpers/endUsers';
import { createFieldsWithSimplify, readEndUserProperties } from '../../helpers/fields';
import { DECLINE_SHAPE } from '../../helpers/records';
import { currentPropertiesFields } from '../../helpers/surveyRecords';
import { sendRecordCreate } from '../surveyRecordRequests';
import { createdAtSeconds, nonEmptyText } from '../../helpers/validation';
import type { ParamHash } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Create',
	action: 'Create a decline',
	description: 'Record that an end user refused a survey',
};

export const toolDescription =
	"Create a decline in Wootric: record that an end user refused an NPS survey. Returns the decline with its ID, the end user's ID and the date.";

export const description: INodeProperties[] = [
	...endUserFields(['id'], 'The end user who declined the survey'),
	...currentPropertiesFields('decline'),
	...createFieldsWithSimplify(DECLINE_SHAPE, [
		{
			displayName: 'Created At',
			name: 'createdAt',
			type: 'dateTime',
			default: '',
			description: 'When the survey was declined, if not now',
		},
		{
			displayName: 'Origin URL',
			name: 'originUrl',
			type: 'string',
			default: '',
			placeholder: 'https://app.example.com/dashboard',
			description: 'The page the survey was declined on',
		},
	]),
];

/**
 * POST /v1/end_users/<id>/declines; with end-user properties, the end user's profile is updated
 * too.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const endUserId = readEndUserId(this, itemIndex);
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const form: ParamHash = {};
	if (additional.originUrl !== undefined)
		form.origin_url = nonEmptyText(this, itemIndex, 'Origin URL', additional.originUrl);
	if ('createdAt' in additional)
		form.created_at = createdAtSeconds(this, itemIndex, additional.createdAt);
	form.end_user = readEndUserProperties(this, itemIndex);
	return sendRecordCreate(this, itemIndex, 'decline', endUserId, form);
}
