import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { emailField } from '../../helpers/endUsers';
import { emailValue } from '../../helpers/validation';
import { wootricRequest } from '../../transport';
import { createFields, endUserForm, endUserOutput } from './common';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Create',
	action: 'Create an end user',
	description: 'Add a new end user (a survey taker) to Wootric; returns it with its ID',
};

export const toolDescription =
	'Create an end user in Wootric: a survey taker, with an email and properties. Returns the end user with its ID.';

export const description: INodeProperties[] = [emailField, ...createFields()];

/** POST /v1/end_users. */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const email = emailValue(this, itemIndex, 'Email', this.getNodeParameter('email', itemIndex));
	const form = endUserForm(this, itemIndex, { ...additional, email });
	return async () => {
		const created = await wootricRequest<IDataObject>(this, {
			method: 'POST',
			answer: 'record',
			path: '/v1/end_users',
			form,
			itemIndex,
		});
		return endUserOutput(this, itemIndex, created);
	};
}
