import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { recordsIn, wootricRequest } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get Sources',
	action: 'Get email sources',
	description:
		'List where survey emails come from: the email API, the webhook trigger and each CSV upload',
};

export const toolDescription =
	'Get email sources in Wootric: where survey emails come from. Returns one record per source: its ID (for a bounce report), its name and, for a CSV upload, its date.';

export const description: INodeProperties[] = [];

/**
 * GET /v2/email_stats/sources: `{ongoing, sends}`, given as one item per source, `type` saying
 * which list it came from: `ongoing` (the email API, the webhook trigger) or `send` (a CSV upload).
 * A send's id is a number, an ongoing one's a word: every id is given as text, one type for a
 * field, as the bounce report's Source takes it.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject[]> {
	return async () => {
		const request = { method: 'GET', path: '/v2/email_stats/sources', itemIndex } as const;
		const sources = await wootricRequest<IDataObject>(this, { ...request, answer: 'record' });
		return [
			...recordsIn(this, request, sources, 'ongoing').map((source) => ({
				...source,
				id: String(source.id),
				type: 'ongoing',
			})),
			...recordsIn(this, request, sources, 'sends').map((source) => ({
				...source,
				id: String(source.id),
				type: 'send',
			})),
		];
	};
}
