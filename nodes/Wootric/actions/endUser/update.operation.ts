import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields, readEndUserId } from '../../helpers/endUsers';
import { updateFieldsCollection } from '../../helpers/fields';
import { invalid } from '../../helpers/validation';
import {
	customPropertiesFields,
	endUserForm,
	endUserOutput,
	endUserSimplifyOptions,
	externalCreatedAtField,
	lastSurveyedField,
	optionalEmailField,
	optionalExternalIdField,
	putEndUser,
} from './common';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Update',
	action: 'Update an end user',
	description: "Change an end user's email, external ID, dates or properties",
};

export const toolDescription =
	"Update an end user in Wootric: change a survey taker's email, external ID, dates or properties. Returns the end user as updated.";

export const description: INodeProperties[] = [
	...endUserFields(['id'], 'The end user to update'),
	updateFieldsCollection([
		optionalEmailField,
		externalCreatedAtField,
		optionalExternalIdField,
		lastSurveyedField,
	]),
	...customPropertiesFields,
	...endUserSimplifyOptions,
];

/** PUT /v1/end_users/<id> with the fields given; nothing to change is an error. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const endUserId = readEndUserId(this, itemIndex);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const form = endUserForm(this, itemIndex, fields);
	if (Object.keys(form).length === 0) {
		throw invalid(
			this,
			itemIndex,
			'Update Fields',
			'must name at least one field or property to change',
			fields,
		);
	}
	return async () => {
		const updated = await putEndUser(this, itemIndex, endUserId, form);
		return endUserOutput(this, itemIndex, updated);
	};
}
