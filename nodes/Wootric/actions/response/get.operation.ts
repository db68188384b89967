import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserIdField, idField, simplifyOptionsCollection } from '../../helpers/fields';
import { simplifyIfChosen } from '../../helpers/output';
import { idParameter } from '../../helpers/validation';
import { wootricRequest } from '../../transport';

export const option = { name: 'Get', action: 'Get a response', description: 'Read one response of an end user' };

export const description: INodeProperties[] = [
	endUserIdField('The end user who gave the response'),
	idField('responseId', 'Response ID', 'The response to read'),
	simplifyOptionsCollection,
];

/** GET /v1/end_users/<end_user_id>/responses/<id>. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const endUserId = idParameter(this, itemIndex, 'endUserId', 'End User ID');
	const responseId = idParameter(this, itemIndex, 'responseId', 'Response ID');
	const record = await wootricRequest<IDataObject>(this, {
		method: 'GET',
		path: `/v1/end_users/${endUserId}/responses/${responseId}`,
		subject: `response ${responseId} of end user ${endUserId}`,
		itemIndex,
	});
	return simplifyIfChosen(this, itemIndex, record);
}
