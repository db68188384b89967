import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { collectRecords, getManyFields, readSurveyRecordList } from '../../helpers/surveyRecords';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get Many',
	action: 'Get many declines',
	description: 'List declines (refused surveys: end users, dates), of everyone or of one end user',
};

export const toolDescription =
	'Get many declines in Wootric: refused NPS surveys, of everyone or of one end user, newest first. Returns one record per decline: its ID, the end user, the date.';

export const description: INodeProperties[] = getManyFields('declines');

/** GET /v1/declines or /v1/end_users/<id>/declines, all pages. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject[]> {
	const { path, subject, limit, created, updated, order, output } = readSurveyRecordList(
		this,
		itemIndex,
		'declines',
	);
	return async () =>
		await collectRecords(
			this,
			{ path, created, updated, order, limit, subject, itemIndex },
			{ output },
		);
}
