import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields } from '../../helpers/endUsers';
import { idField, simplifyOptionsCollections } from '../../helpers/fields';
import { RESPONSE_SHAPE } from '../../helpers/records';
import { prepareRecordGet } from '../surveyRecordRequests';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get',
	action: 'Get a response',
	description: 'Read one response of an end user: NPS score 0–10, comment, date',
};

export const toolDescription =
	"Get a response in Wootric: one end user's NPS survey answer, by its ID. Returns its score (0–10), comment, end user and date.";

export const description: INodeProperties[] = [
	...endUserFields(['id'], 'The end user who gave the response'),
	idField('responseId', 'Response ID', 'The response to read'),
	...simplifyOptionsCollections(RESPONSE_SHAPE),
];

/** GET /v1/end_users/<end_user_id>/responses/<id>. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	return prepareRecordGet(this, itemIndex, 'response');
}
