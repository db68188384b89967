import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields } from '../../helpers/endUsers';
import { idField } from '../../helpers/fields';
import { prepareRecordDelete } from '../surveyRecordRequests';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Delete',
	action: 'Delete a decline',
	description: 'Delete one decline (a refused survey) of an end user for good',
};

export const toolDescription =
	"Delete a decline in Wootric for good: one end user's record of a refused NPS survey, by its ID. Returns the ID deleted.";

export const description: INodeProperties[] = [
	...endUserFields(['id'], 'The end user who declined the survey'),
	idField('declineId', 'Decline ID', 'The decline to delete'),
];

/** DELETE /v1/end_users/<end_user_id>/declines/<id>: 204, empty body. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	return prepareRecordDelete(this, itemIndex, 'decline');
}
