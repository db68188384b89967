import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields, type EndUserBy } from '../../helpers/endUsers';
import { simplifyOptionsCollections, speaksOneVocabulary } from '../../helpers/fields';
import { successRecord } from '../../helpers/output';
import { wootricRequest } from '../../transport';
import { endUserOutput, readLookUp } from './common';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Delete',
	action: 'Delete an end user',
	description: 'Mark an end user for deletion; Wootric removes it the next day',
};

export const toolDescription =
	"Delete an end user in Wootric: marks the survey taker for deletion; Wootric removes it the next day. Returns the end user's ID.";

// The DELETE path takes an ID or an email.
const WAYS: EndUserBy[] = ['id', 'email'];

export const description: INodeProperties[] = [
	...endUserFields(WAYS, 'The end user to mark for deletion'),
	{
		displayName:
			'Wootric only marks the end user for deletion: it is removed, with its responses and declines, in the next day’s deletion run after 07:00 UTC, and can still be read until then',
		name: 'deletionNotice',
		type: 'notice',
		default: '',
	},
	// Simplify only before 1.3, which output the marked record.
	...simplifyOptionsCollections(),
];

/**
 * DELETE /v1/end_users/<id or email>: answers the marked end user's record, the output before 1.3;
 * from 1.3 `{ deleted: true, … }` with its ID and email, as every other delete.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	// The DELETE path takes an id or an email as it is; no lookup flag.
	const { path, subject } = readLookUp(this, itemIndex, WAYS);
	return async () => {
		const marked = await wootricRequest<IDataObject>(this, {
			method: 'DELETE',
			answer: 'record',
			path,
			subject,
			itemIndex,
		});
		if (!speaksOneVocabulary(this.getNode())) return endUserOutput(this, itemIndex, marked);
		return successRecord({ deleted: true, id: marked?.id, email: marked?.email });
	};
}
