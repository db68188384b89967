import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { successRecord } from '../../helpers/output';
import { idField, readEndUserProperties } from '../../helpers/fields';
import { historicalPropertiesFields } from '../../helpers/surveyRecords';
import { idParameter, invalid } from '../../helpers/validation';
import { wootricRequest } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Update',
	action: 'Update a decline',
	description: 'Change the end-user properties kept with a decline',
};

export const toolDescription =
	"Update a decline in Wootric: change the end-user properties kept with it. Returns the decline's ID and what was updated.";

export const description: INodeProperties[] = [
	idField('declineId', 'Decline ID', 'The decline to change'),
	...historicalPropertiesFields('decline'),
];

/**
 * PUT /v1/declines/<id>: 204, empty body. (The spec's reference table says /v1/responses/<id>,
 * which is the response update; its example, /v1/declines/<id>, is the decline's.)
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const declineId = idParameter(this, itemIndex, 'declineId', 'Decline ID');
	const endUser = readEndUserProperties(this, itemIndex);
	if (!endUser)
		throw invalid(
			this,
			itemIndex,
			'End User Properties',
			'must hold at least one property: there is nothing else to update on a decline',
			{},
		);
	return async () => {
		await wootricRequest(this, {
			method: 'PUT',
			path: `/v1/declines/${declineId}`,
			form: { end_user: endUser },
			subject: `decline ${declineId}`,
			itemIndex,
		});
		return successRecord({ id: declineId, updated: ['end_user.properties'] });
	};
}
