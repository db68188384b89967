import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserIdField, idField, simplifyOptionsCollection } from '../../helpers/fields';
import { simplifyIfChosen } from '../../helpers/output';
import { readEndUserRecord } from '../../helpers/surveyRecords';
import { wootricRequest } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get',
	action: 'Get a decline',
	description: 'Read one decline of an end user',
};

export const description: INodeProperties[] = [
	endUserIdField('The end user who declined the survey'),
	idField('declineId', 'Decline ID', 'The decline to read'),
	simplifyOptionsCollection,
];

/** GET /v1/end_users/<end_user_id>/declines/<id>. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const { path, subject } = readEndUserRecord(this, itemIndex, 'decline');
	return async () => {
		const record = await wootricRequest<IDataObject>(this, {
			method: 'GET',
			path,
			subject,
			itemIndex,
		});
		return simplifyIfChosen(this, itemIndex, record);
	};
}
