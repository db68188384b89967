import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserIdField, idField, simplifyOptionsCollection } from '../../helpers/fields';
import { simplifyIfChosen } from '../../helpers/output';
import { idParameter } from '../../helpers/validation';
import { wootricRequest } from '../../transport';

export const option = { name: 'Get', action: 'Get a decline', description: 'Read one decline of an end user' };

export const description: INodeProperties[] = [
	endUserIdField('The end user who declined the survey'),
	idField('declineId', 'Decline ID', 'The decline to read'),
	simplifyOptionsCollection,
];

/** GET /v1/end_users/<end_user_id>/declines/<id>. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const endUserId = idParameter(this, itemIndex, 'endUserId', 'End User ID');
	const declineId = idParameter(this, itemIndex, 'declineId', 'Decline ID');
	const record = await wootricRequest<IDataObject>(this, {
		method: 'GET',
		path: `/v1/end_users/${endUserId}/declines/${declineId}`,
		subject: `decline ${declineId} of end user ${endUserId}`,
		itemIndex,
	});
	return simplifyIfChosen(this, itemIndex, record);
}
