import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { properties } from './actions';
import { router } from './actions/router';
import * as listSearch from './methods/listSearch';
import * as loadOptions from './methods/loadOptions';

export class Wootric implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Wootric',
		name: 'wootric',
		icon: { light: 'file:wootric.svg', dark: 'file:wootric.dark.svg' },
		group: ['transform'],
		// 1.1: Simplify of Response and Decline → Create moved from Additional Fields to Options.
		// 1.2: the end user and the survey template are picked with resource locators.
		// 1.3: ISO datetimes and nps_category always; Simplify keeps fewer fields; End User → Delete
		// answers { deleted: true }; parameters read once per run take no expression
		// (helpers/fields.ts, ONE_VOCABULARY_VERSION).
		version: [1, 1.1, 1.2, 1.3],
		defaultVersion: 1.3,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		// An AI agent reads each operation's own Tool Description instead (actions/types.ts).
		description:
			'Wootric, customer-feedback (NPS) surveys: end users, responses (0–10 score, comment), declines, NPS summary',
		defaults: { name: 'Wootric' },
		// In the tool variant (`@tool`), list operations start with a small Limit and have an Output
		// option (helpers/fields.ts, helpers/output.ts).
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wootricApi', required: true }],
		properties,
	};

	methods = { loadOptions, listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
