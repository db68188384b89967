import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readRecordOutput, toolOutputFields } from '../../helpers/output';
import { SURVEY_TEMPLATE_SHAPE } from '../../helpers/records';
import { isDefaultTemplate, listSurveyTemplates } from '../../helpers/surveyTemplates';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get Many',
	action: 'Get many survey templates',
	description:
		'List the survey templates of the account, with their languages and which one is the default',
};

export const toolDescription =
	'Get many survey templates in Wootric: the surveys the account can send. Returns one record per template: ID, name, languages, and whether it is the default.';

export const description: INodeProperties[] = toolOutputFields(SURVEY_TEMPLATE_SHAPE);

/**
 * GET /v1/survey_templates: one item per template, `is_default` true for the account's default
 * template; not paged.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject[]> {
	const output = readRecordOutput(this, itemIndex, SURVEY_TEMPLATE_SHAPE, false);
	return async () => {
		const { defaultId, templates } = await listSurveyTemplates(this, itemIndex);
		return templates.map((template) =>
			output({ ...template, is_default: isDefaultTemplate(template, defaultId) }),
		);
	};
}
