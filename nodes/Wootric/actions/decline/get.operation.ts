import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields } from '../../helpers/endUsers';
import { idField, simplifyOptionsCollections } from '../../helpers/fields';
import { DECLINE_SHAPE } from '../../helpers/records';
import { prepareRecordGet } from '../surveyRecordRequests';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get',
	action: 'Get a decline (a refused survey: end user, date)',
	description: 'Read one decline of an end user',
};

export const description: INodeProperties[] = [
	...endUserFields(['id'], 'The end user who declined the survey'),
	idField('declineId', 'Decline ID', 'The decline to read'),
	...simplifyOptionsCollections(DECLINE_SHAPE),
];

/** GET /v1/end_users/<end_user_id>/declines/<id>. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	return prepareRecordGet(this, itemIndex, 'decline');
}
