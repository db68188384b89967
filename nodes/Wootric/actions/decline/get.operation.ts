import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { simplifyOption } from '../../helpers/fields';
import { idField } from '../../helpers/surveyRecords';
import { idParameter } from '../../helpers/validation';
import { wootricRequest, simplifyRecord } from '../../transport';

export const option = { name: 'Get', action: 'Get a decline', description: 'Read one decline of an end user' };

export const description: INodeProperties[] = [
	idField('endUserId', 'End User ID', 'The end user who declined the survey'),
	idField('declineId', 'Decline ID', 'The decline to read'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [simplifyOption],
	},
];

/** GET /v1/end_users/<end_user_id>/declines/<id>. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const endUserId = idParameter(this, itemIndex, 'endUserId', 'End User ID');
	const declineId = idParameter(this, itemIndex, 'declineId', 'Decline ID');
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const record = await wootricRequest<IDataObject>(this, {
		method: 'GET',
		path: `/v1/end_users/${endUserId}/declines/${declineId}`,
		subject: `decline ${declineId} of end user ${endUserId}`,
		itemIndex,
	});
	return options.simplify ? simplifyRecord(record) : record;
}
