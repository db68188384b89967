import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isDefaultTemplate, listSurveyTemplates } from '../../helpers/surveyTemplates';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get Many',
	action: 'Get many survey templates',
	description:
		'List the survey templates of the account, with their languages and which one is the default',
};

export const description: INodeProperties[] = [];

/**
 * GET /v1/survey_templates: one item per template, `is_default` true for the account's default
 * template; not paged.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject[]> {
	return async () => {
		const { defaultId, templates } = await listSurveyTemplates(this, itemIndex);
		return templates.map((template) => ({
			...template,
			is_default: isDefaultTemplate(template, defaultId),
		}));
	};
}
