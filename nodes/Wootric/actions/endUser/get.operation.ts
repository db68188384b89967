import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields, type EndUserBy } from '../../helpers/endUsers';
import { wootricRequest } from '../../transport';
import { endUserOutput, endUserSimplifyOptions, readLookUp } from './common';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get',
	action: 'Get an end user',
	description:
		'Find one end user by ID, email, external ID or phone number: email, properties, last response, settings',
};

export const toolDescription =
	'Get an end user in Wootric: one survey taker, by ID, email, external ID or phone number. Returns its ID, email, properties, last response and survey settings.';

const WAYS: EndUserBy[] = ['id', 'email', 'externalId', 'phoneNumber'];

export const description: INodeProperties[] = [
	...endUserFields(WAYS, 'The end user to get'),
	...endUserSimplifyOptions,
];

/**
 * GET /v1/end_users/<id>, /<email>?lookup_by_email=true, /<external id>?lookup_by_external_id=true
 * or /phone_number/<phone>.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const { path, query, subject } = readLookUp(this, itemIndex, WAYS);
	return async () => {
		const record = await wootricRequest<IDataObject>(this, {
			method: 'GET',
			answer: 'record',
			path,
			query,
			subject,
			itemIndex,
		});
		return endUserOutput(this, itemIndex, record);
	};
}
