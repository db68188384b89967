import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields, readEndUserId } from '../../helpers/endUsers';
import { simplifyOptionsCollections } from '../../helpers/fields';
import { recordOutput } from '../../helpers/output';
import { wootricRequest } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get',
	action: "Get an end user's settings",
	description: 'Read which surveys an end user gets: email, web and mobile, each on or off',
};

export const toolDescription =
	"Get an end user's settings in Wootric: whether the survey taker gets email, web and mobile surveys. Returns each channel on or off.";

export const description: INodeProperties[] = [
	...endUserFields(['id'], 'The end user whose survey settings to read'),
	{
		displayName:
			'Wootric answers with the email survey setting only. The other flags are in the settings of the end user record (End User → Get).',
		name: 'settingsNotice',
		type: 'notice',
		default: '',
	},
	// Simplify only before 1.3, where it added: the settings' five fields have none to leave out.
	...simplifyOptionsCollections(),
];

/** GET /v1/end_users/<id>/settings. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const endUserId = readEndUserId(this, itemIndex);
	return async () => {
		const settings = await wootricRequest<IDataObject>(this, {
			method: 'GET',
			answer: 'record',
			path: `/v1/end_users/${endUserId}/settings`,
			subject: `end user ${endUserId}`,
			itemIndex,
		});
		return recordOutput(this, itemIndex, settings ?? {});
	};
}
