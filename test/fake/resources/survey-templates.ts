import { ok, route, type Route } from '../http';
import type { SurveyTemplate } from '../store';

/** A template as GET /v1/survey_templates lists it. */
export function surveyTemplateView(template: SurveyTemplate) {
	return {
		id: template.id,
		name: template.name,
		default_language: template.defaultLanguage,
		languages: template.languages,
		non_configured_language_count: template.nonConfiguredLanguageCount,
		custom_samplings: [],
	};
}

export const surveyTemplateRoutes: Route[] = [
	route('GET', '/v1/survey_templates', ({ account }) =>
		ok({
			default_survey_template_id: account.defaultSurveyTemplateId,
			survey_templates: account.surveyTemplates.map(surveyTemplateView),
		}),
	),
];
