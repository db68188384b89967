import type { IDataObject } from 'n8n-workflow';

import { wootricRequest, type WootricContext } from '../transport';

/** The service's language value for a CSV whose rows each name their own language. */
export const MULTI_LANGUAGE = 'multi_language';

export interface SurveyTemplateLanguage {
	code: string;
	name: string;
}

export interface SurveyTemplate extends IDataObject {
	id: number;
	name: string;
	default_language?: string;
	languages?: SurveyTemplateLanguage[];
}

export interface SurveyTemplateList {
	/**
	 * The account's default template, `default_survey_template_id`; null when the account has none.
	 */
	defaultId: number | null;
	templates: SurveyTemplate[];
}

/** GET /v1/survey_templates: every template of the account (the list is not paged). */
export async function listSurveyTemplates(
	context: WootricContext,
	itemIndex?: number,
): Promise<SurveyTemplateList> {
	const body = await wootricRequest<IDataObject | undefined>(context, {
		method: 'GET',
		path: '/v1/survey_templates',
		itemIndex,
	});
	const templates = Array.isArray(body?.survey_templates)
		? (body.survey_templates as SurveyTemplate[])
		: [];
	const defaultId = body?.default_survey_template_id;
	return {
		defaultId:
			typeof defaultId === 'number' || typeof defaultId === 'string' ? Number(defaultId) : null,
		templates,
	};
}

/** Whether the template is the one `defaultId` names (ids compared as numbers). */
export function isDefaultTemplate(template: SurveyTemplate, defaultId: number | null): boolean {
	return defaultId !== null && Number(template.id) === defaultId;
}
