import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readEndUserId } from '../helpers/endUsers';
import { createSimplifyCollection, recordOutput, successRecord } from '../helpers/output';
import { DECLINE_SHAPE, RESPONSE_SHAPE } from '../helpers/records';
import { surveyScaleOf } from '../helpers/surveyTypes';
import { idParameter } from '../helpers/validation';
import { wootricRequest, type ParamHash } from '../transport';
import type { ItemRequests } from './types';

/**
 * The requests Response and Decline send alike for one end user's record: Create, Get and Delete
 * (each operation file keeps its fields and what it reads).
 */

const SHAPES = { response: RESPONSE_SHAPE, decline: DECLINE_SHAPE };

/** One response or decline of an end user, as Get and Delete address it. */
export interface EndUserRecord {
	endUserId: number;
	id: number;
	path: string;
	/** Named in a 404. */
	subject: string;
}

/**
 * Reads End User ID and Response ID / Decline ID:
 * /v1/end_users/<end_user_id>/<responses|declines>/<id>.
 */
function readEndUserRecord(
	context: IExecuteFunctions,
	itemIndex: number,
	record: 'response' | 'decline',
): EndUserRecord {
	const endUserId = readEndUserId(context, itemIndex);
	const id = idParameter(
		context,
		itemIndex,
		`${record}Id`,
		record === 'response' ? 'Response ID' : 'Decline ID',
	);
	return {
		endUserId,
		id,
		path: `/v1/end_users/${endUserId}/${record}s/${id}`,
		subject: `${record} ${id} of end user ${endUserId}`,
	};
}

/** GET /v1/end_users/<end_user_id>/<responses|declines>/<id>: the record (recordOutput). */
export function prepareRecordGet(
	context: IExecuteFunctions,
	itemIndex: number,
	record: 'response' | 'decline',
): ItemRequests<IDataObject> {
	const { path, subject } = readEndUserRecord(context, itemIndex, record);
	return async () => {
		const found = await wootricRequest<IDataObject>(context, {
			method: 'GET',
			answer: 'record',
			path,
			subject,
			itemIndex,
		});
		return recordOutput(
			context,
			itemIndex,
			found,
			SHAPES[record],
			'options',
			await surveyScaleOf(context),
		);
	};
}

/** DELETE /v1/end_users/<end_user_id>/<responses|declines>/<id>: 204, empty body. */
export function prepareRecordDelete(
	context: IExecuteFunctions,
	itemIndex: number,
	record: 'response' | 'decline',
): ItemRequests<IDataObject> {
	const { endUserId, id, path, subject } = readEndUserRecord(context, itemIndex, record);
	return async () => {
		await wootricRequest(context, { method: 'DELETE', path, subject, itemIndex });
		return successRecord({ deleted: true, id, end_user_id: endUserId });
	};
}

/**
 * POST /v1/end_users/<id>/<responses|declines> with the `form` a Create read: the new record
 * (recordOutput).
 */
export function sendRecordCreate(
	context: IExecuteFunctions,
	itemIndex: number,
	record: 'response' | 'decline',
	endUserId: number,
	form: ParamHash,
): ItemRequests<IDataObject> {
	return async () => {
		const created = await wootricRequest<IDataObject>(context, {
			method: 'POST',
			answer: 'record',
			path: `/v1/end_users/${endUserId}/${record}s`,
			form,
			subject: `end user ${endUserId}`,
			itemIndex,
		});
		return recordOutput(
			context,
			itemIndex,
			created,
			SHAPES[record],
			createSimplifyCollection(context),
			await surveyScaleOf(context),
		);
	};
}
