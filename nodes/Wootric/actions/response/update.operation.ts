import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { successRecord } from '../../helpers/output';
import { idField, readEndUserProperties, updateFieldsCollection } from '../../helpers/fields';
import { historicalPropertiesFields } from '../../helpers/surveyRecords';
import { booleanValue, idParameter, invalid } from '../../helpers/validation';
import { wootricRequest, type ParamHash } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Update',
	action: 'Update a response',
	description:
		'Mark a response completed, exclude it from or include it in NPS calculations, or change its end-user properties',
};

export const toolDescription =
	"Update a response in Wootric: mark it completed, exclude it from or include it in the NPS, or change its end-user properties. Returns the response's ID and what was updated.";

export const description: INodeProperties[] = [
	idField('responseId', 'Response ID', 'The response to change'),
	updateFieldsCollection([
		{
			displayName: 'Completed',
			name: 'completed',
			type: 'boolean',
			default: true,
			description: 'Whether the response is completed',
		},
		{
			displayName: 'Excluded From Calculations',
			name: 'excludedFromCalculations',
			type: 'boolean',
			default: true,
			description:
				'Whether to leave the response out of NPS calculations (invalidate it). Excluded responses are left out of Get Many unless its filter includes them.',
		},
	]),
	...historicalPropertiesFields('response'),
];

/** PUT /v1/responses/<id>: 204, empty body. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const responseId = idParameter(this, itemIndex, 'responseId', 'Response ID');
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const form: ParamHash = {};
	if (fields.completed !== undefined)
		form.completed = booleanValue(this, itemIndex, 'Completed', fields.completed);
	if (fields.excludedFromCalculations !== undefined) {
		form.excluded_from_calculations = booleanValue(
			this,
			itemIndex,
			'Excluded From Calculations',
			fields.excludedFromCalculations,
		);
	}
	form.end_user = readEndUserProperties(this, itemIndex);
	const updated = [
		...Object.keys(form).filter((key) => key !== 'end_user'),
		...(form.end_user ? ['end_user.properties'] : []),
	];
	if (updated.length === 0) {
		throw invalid(
			this,
			itemIndex,
			'Update Fields',
			'must set Completed, Excluded From Calculations or End User Properties: there is nothing to update',
			fields,
		);
	}
	return async () => {
		await wootricRequest(this, {
			method: 'PUT',
			path: `/v1/responses/${responseId}`,
			form,
			subject: `response ${responseId}`,
			itemIndex,
		});
		return successRecord({ id: responseId, updated });
	};
}
