import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readRecordOutput, toolOutputFields } from '../../helpers/output';
import { SEGMENT_SHAPE } from '../../helpers/records';
import { wootricRequest } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get Many',
	action: 'Get many segments',
	description: 'List the segments of the account: end-user property names and types',
};

export const toolDescription =
	'Get many segments in Wootric: the end-user properties responses can be grouped by. Returns one record per segment: its name and data type.';

export const description: INodeProperties[] = toolOutputFields(SEGMENT_SHAPE);

/** GET /v1/segments: the account's segments (named, typed end-user properties); not paged. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject[]> {
	const output = readRecordOutput(this, itemIndex, SEGMENT_SHAPE, false);
	return async () => {
		const segments = await wootricRequest<IDataObject[]>(this, {
			method: 'GET',
			path: '/v1/segments',
			answer: 'records',
			itemIndex,
		});
		return segments.map(output);
	};
}
