import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { emailValue } from '../../helpers/validation';
import { wootricRequest } from '../../transport';
import {
	emailField,
	endUserForm,
	endUserOutput,
	endUserPropertiesFields,
	externalCreatedAtField,
	lastSurveyedField,
	optionalExternalIdField,
	optionsWithSimplify,
} from './common';

export const option = { name: 'Create', action: 'Create an end user', description: 'Add a new end user to Wootric' };

export const description: INodeProperties[] = [
	emailField,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [externalCreatedAtField, optionalExternalIdField, lastSurveyedField],
	},
	...endUserPropertiesFields,
	optionsWithSimplify,
];

/** POST /v1/end_users. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const email = emailValue(this, itemIndex, 'Email', this.getNodeParameter('email', itemIndex));
	const form = endUserForm(this, itemIndex, { ...additional, email });
	const created = await wootricRequest<IDataObject>(this, { method: 'POST', path: '/v1/end_users', form, itemIndex });
	return endUserOutput(this, itemIndex, created);
}
