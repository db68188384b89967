import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields, readEndUserId } from '../../helpers/endUsers';
import { successRecord } from '../../helpers/output';
import { wootricRequest } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Export Data',
	action: "Export an end user's data",
	description:
		'Ask Wootric to prepare a file with all data of an end user; Wootric emails a download link',
};

export const toolDescription =
	"Export an end user's data in Wootric: Wootric prepares a file with all of it and emails a download link. Returns the end user's ID and that the export is scheduled.";

const HINT = 'Wootric sends an email with a link to the JSON export file when it is ready';

export const description: INodeProperties[] = [
	...endUserFields(['id'], 'The end user whose data to export'),
	{
		displayName: `The export runs in the background: ${HINT}. This node does not receive the file.`,
		name: 'exportNotice',
		type: 'notice',
		default: '',
	},
];

/** GET /v1/end_users/<id>/export: 202 with an empty body. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const endUserId = readEndUserId(this, itemIndex);
	return async () => {
		await wootricRequest(this, {
			method: 'GET',
			path: `/v1/end_users/${endUserId}/export`,
			subject: `end user ${endUserId}`,
			itemIndex,
		});
		return successRecord({ end_user_id: endUserId, export: 'scheduled', hint: HINT });
	};
}
