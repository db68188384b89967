import type { IDataObject, INode, INodePropertyOptions } from 'n8n-workflow';

import { usesLocators } from './fields';

import { answerId, recordsIn, wootricRequest, type WootricContext } from '../transport';

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
	// `languages`, as answered, may be malformed: read it with languagesOf.
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
	const request = { method: 'GET', path: '/v1/survey_templates', itemIndex } as const;
	const body = await wootricRequest<IDataObject | undefined>(context, {
		...request,
		answer: 'record or nothing',
	});
	const templates = recordsIn(context, request, body, 'survey_templates') as SurveyTemplate[];
	const defaultId = body?.default_survey_template_id;
	return {
		defaultId:
			typeof defaultId === 'number' || typeof defaultId === 'string' ? Number(defaultId) : null,
		templates,
	};
}

/**
 * A template's languages as the answer lists them, each `{ code, name }`: the one reader of
 * `languages`. An answer's list may be malformed (a string, a record, entries null or without a
 * code): an entry without a code (text or number) is left out, one without a name is named by its
 * code; anything but a list holds none.
 */
export function languagesOf(template: SurveyTemplate): SurveyTemplateLanguage[] {
	if (!Array.isArray(template.languages)) return [];
	return (template.languages as unknown[]).flatMap((entry) => {
		if (typeof entry !== 'object' || entry === null) return [];
		const { code, name } = entry as IDataObject;
		if (typeof code !== 'string' && typeof code !== 'number') return [];
		return [{ code: String(code), name: typeof name === 'string' ? name : String(code) }];
	});
}

/** Whether the template is the one `defaultId` names (ids compared as numbers). */
export function isDefaultTemplate(template: SurveyTemplate, defaultId: number | null): boolean {
	return defaultId !== null && Number(template.id) === defaultId;
}

/** The survey template parameter from node version 1.2: a resource locator. */
export const SURVEY_TEMPLATE_LOCATOR = 'surveyTemplate';
/** The survey template parameter before 1.2: a dropdown. */
export const SURVEY_TEMPLATE_BEFORE_LOCATORS = 'surveyTemplateId';

/**
 * The survey template chosen in the node's parameters, read with `read` (the item's parameter in a
 * run, the editor's current one for a dropdown): its ID as given, or '' for the account default.
 * From 1.2 it is the locator's value, whether picked from the list or given by ID.
 */
export function chosenSurveyTemplate(node: INode, read: (name: string) => unknown): unknown {
	if (!usesLocators(node)) return read(SURVEY_TEMPLATE_BEFORE_LOCATORS) ?? '';
	const locator = read(SURVEY_TEMPLATE_LOCATOR);
	const value = locator && typeof locator === 'object' ? (locator as IDataObject).value : locator;
	return value ?? '';
}

/**
 * The account's templates as list entries, name → id: the default template first, marked
 * "(default)"; the others by name. A template without a readable id (answerId) cannot be chosen,
 * so it is not listed.
 */
export function surveyTemplateEntries({
	defaultId,
	templates,
}: SurveyTemplateList): INodePropertyOptions[] {
	const byName = (a: SurveyTemplate, b: SurveyTemplate) =>
		String(a.name).localeCompare(String(b.name));
	const ordered = [
		...templates.filter((template) => isDefaultTemplate(template, defaultId)),
		...templates.filter((template) => !isDefaultTemplate(template, defaultId)).sort(byName),
	];
	return ordered.flatMap((template) => {
		const id = answerId(template.id);
		if (id === undefined) return [];
		const languages = languagesOf(template)
			.map((language) => language.code)
			.join(', ');
		return {
			name: isDefaultTemplate(template, defaultId)
				? `${String(template.name)} (default)`
				: String(template.name),
			value: id,
			description: `ID ${id}${languages ? ` · languages: ${languages}` : ''}`,
		};
	});
}
