import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserIdField, idField } from '../../helpers/fields';
import { successRecord } from '../../helpers/output';
import { idParameter } from '../../helpers/validation';
import { wootricRequest } from '../../transport';

export const option = { name: 'Delete', action: 'Delete a response', description: 'Delete one response of an end user for good' };

export const description: INodeProperties[] = [
	endUserIdField('The end user who gave the response'),
	idField('responseId', 'Response ID', 'The response to delete'),
];

/** DELETE /v1/end_users/<end_user_id>/responses/<id>: 204, empty body. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const endUserId = idParameter(this, itemIndex, 'endUserId', 'End User ID');
	const responseId = idParameter(this, itemIndex, 'responseId', 'Response ID');
	await wootricRequest(this, {
		method: 'DELETE',
		path: `/v1/end_users/${endUserId}/responses/${responseId}`,
		subject: `response ${responseId} of end user ${endUserId}`,
		itemIndex,
	});
	return successRecord({ deleted: true, id: responseId, end_user_id: endUserId });
}
