import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { emailField, externalIdField, externalIdValue } from '../../helpers/endUsers';
import { emailValue } from '../../helpers/validation';
import { idInAnswer, isNotFound, wootricRequest } from '../../transport';
import {
	createFields,
	endUserForm,
	endUserOutput,
	optionalExternalIdField,
	pathSegment,
	putEndUser,
} from './common';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Create or Update',
	action: 'Create or update an end user',
	description: 'Create a new end user, or update the one matched by email or external ID (upsert)',
};

export const toolDescription =
	'Create or update an end user in Wootric: the one with the email or external ID given is updated, or a new one created. Returns the end user with its ID.';

export const description: INodeProperties[] = [
	{
		displayName: 'Match By',
		name: 'matchBy',
		type: 'options',
		options: [
			{ name: 'Email', value: 'email', description: 'The end user with this email address' },
			{
				name: 'External ID',
				value: 'externalId',
				description: 'The end user with this ID from your own system',
			},
		],
		default: 'email',
		description: 'How to find the end user to update; when none matches, a new end user is created',
	},
	{
		...externalIdField,
		description:
			'The ID of the end user in your own system: the end user with it is updated, or a new one gets it',
		displayOptions: { show: { matchBy: ['externalId'] } },
	},
	{
		...emailField,
		description:
			'Email address of the end user. Matching by external ID, an existing end user gets this email too.',
	},
	// Matching by external ID, the External ID above is the one sent.
	...createFields({
		...optionalExternalIdField,
		displayOptions: { show: { '/matchBy': ['email'] } },
	}),
];

/**
 * Looks the end user up (GET /v1/end_users/<email>?lookup_by_email=true or /<external
 * id>?lookup_by_external_id=true; the list's email filter would miss users who opted out), then PUT
 * /v1/end_users/<id> when found, or POST /v1/end_users on a 404. Both send every field given.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const matchBy = this.getNodeParameter('matchBy', itemIndex) as 'email' | 'externalId';
	const email = emailValue(this, itemIndex, 'Email', this.getNodeParameter('email', itemIndex));
	const additional = {
		...(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
	};
	let segment: string;
	if (matchBy === 'externalId') {
		additional.externalId = externalIdValue(
			this,
			itemIndex,
			'External ID',
			this.getNodeParameter('externalId', itemIndex),
		);
		segment = pathSegment(this, itemIndex, 'External ID', additional.externalId);
	} else {
		segment = pathSegment(this, itemIndex, 'Email', email);
	}
	const form = endUserForm(this, itemIndex, { ...additional, email });
	const lookUp = matchBy === 'email' ? { lookup_by_email: true } : { lookup_by_external_id: true };

	return async () => {
		const lookUpRequest = {
			method: 'GET' as const,
			path: `/v1/end_users/${segment}`,
			query: lookUp,
			itemIndex,
		};
		let existingId: number | undefined;
		try {
			const existing = await wootricRequest<IDataObject>(this, {
				...lookUpRequest,
				answer: 'record',
			});
			existingId = idInAnswer(
				this,
				lookUpRequest,
				existing,
				'id',
				'Create or Update updated nothing and created nothing',
			);
		} catch (error) {
			// Not found: it is created below. Anything else stops the item.
			if (!isNotFound(error))
				throw error instanceof NodeApiError
					? error
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
		const record =
			existingId !== undefined
				? await putEndUser(this, itemIndex, existingId, form)
				: await wootricRequest<IDataObject>(this, {
						method: 'POST',
						answer: 'record',
						path: '/v1/end_users',
						form,
						itemIndex,
					});
		return endUserOutput(this, itemIndex, record);
	};
}
