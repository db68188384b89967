import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields } from '../../helpers/endUsers';
import { idField } from '../../helpers/fields';
import { prepareRecordDelete } from '../surveyRecordRequests';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Delete',
	action: 'Delete a response',
	description: 'Delete one response (an NPS score and comment) of an end user for good',
};

export const toolDescription =
	"Delete a response in Wootric for good: one end user's NPS score and comment, by its ID. Returns the ID deleted.";

export const description: INodeProperties[] = [
	...endUserFields(['id'], 'The end user who gave the response'),
	idField('responseId', 'Response ID', 'The response to delete'),
];

/** DELETE /v1/end_users/<end_user_id>/responses/<id>: 204, empty body. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	return prepareRecordDelete(this, itemIndex, 'response');
}
