import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { wootricRequest } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get Many',
	action: 'Get many segments',
	description: 'List the segments of the account',
};

export const description: INodeProperties[] = [];

/** GET /v1/segments: the account's segments (named, typed end-user properties); not paged. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject[]> {
	return async () =>
		await wootricRequest<IDataObject[]>(this, { method: 'GET', path: '/v1/segments', itemIndex });
}
