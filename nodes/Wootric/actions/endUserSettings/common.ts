import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { simplifyOption } from '../../helpers/fields';
import { simplifyRecord } from '../../transport';

export const endUserIdField: INodeProperties = {
	displayName: 'End User ID',
	name: 'endUserId',
	type: 'number',
	default: 0,
	required: true,
	placeholder: '123456',
	description: "Wootric's numeric ID of the end user whose settings these are",
};

export const optionsWithSimplify: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [simplifyOption],
};

export function settingsOutput(context: IExecuteFunctions, itemIndex: number, record: IDataObject): IDataObject {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return options.simplify ? simplifyRecord(record ?? {}) : (record ?? {});
}
