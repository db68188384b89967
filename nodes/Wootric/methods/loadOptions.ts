import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import {
	chosenSurveyTemplate,
	languagesOf,
	listSurveyTemplates,
	MULTI_LANGUAGE,
	surveyTemplateEntries,
	type SurveyTemplateLanguage,
} from '../helpers/surveyTemplates';

/** The account's survey templates (surveyTemplateEntries), for the dropdown before 1.2. */
export async function getSurveyTemplates(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return surveyTemplateEntries(await listSurveyTemplates(this));
}

/**
 * The languages of the template chosen in this node (chosenSurveyTemplate): name → code,
 * the template's default language first, marked "(default)". When no template is chosen, or the
 * value matches no template (an expression the editor cannot resolve, a deleted template), every
 * language configured in any of the account's templates, each once, by name: the list still offers
 * what the account can send, and Wootric checks the pair when the survey goes out.
 */
export async function getSurveyTemplateLanguages(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	// Multi-Language reads each row's language column, so only Send From CSV offers it.
	const fromCsv = this.getCurrentNodeParameter('operation') === 'sendCsv';
	return [...(fromCsv ? [MULTI_LANGUAGE_OPTION] : []), ...(await templateLanguages(this))];
}

/** For a CSV with a language column: each row's own code (the service's `multi_language`). */
const MULTI_LANGUAGE_OPTION: INodePropertyOptions = {
	name: 'Multi-Language (Language Column of the CSV)',
	value: MULTI_LANGUAGE,
	description:
		'Each CSV row is surveyed in the language of its "language" column; needs a survey template',
};

async function templateLanguages(context: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const chosen = chosenSurveyTemplate(context.getNode(), (name) =>
		context.getCurrentNodeParameter(name),
	);
	const { templates } = await listSurveyTemplates(context);
	const wanted = chosen === undefined || chosen === null ? '' : String(chosen).trim();
	const template =
		wanted === '' ? undefined : templates.find((entry) => String(entry.id) === wanted);
	if (template) {
		const languages = languagesOf(template);
		const isDefault = (language: SurveyTemplateLanguage) =>
			language.code === template.default_language;
		return [
			...languages.filter(isDefault),
			...languages.filter((language) => !isDefault(language)),
		].map((language) => languageOption(language, isDefault(language)));
	}
	const union = new Map<string, SurveyTemplateLanguage>();
	for (const language of templates.flatMap(languagesOf)) {
		if (!union.has(language.code)) union.set(language.code, language);
	}
	return [...union.values()]
		.sort((a, b) => String(a.name).localeCompare(String(b.name)))
		.map((language) => languageOption(language, false));
}

function languageOption(
	language: SurveyTemplateLanguage,
	isDefault: boolean,
): INodePropertyOptions {
	return {
		name: `${language.name}${isDefault ? ' (default)' : ''}`,
		value: language.code,
		description: `Language code ${language.code}`,
	};
}
