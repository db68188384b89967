import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listSurveyTemplates, surveyTemplateEntries } from '../helpers/surveyTemplates';
import { answerId, MAX_PAGE, PER_PAGE, wootricRequest } from '../transport';

/**
 * The End User locator's list: the account's end users by email, a page of 50 at a time (the API
 * serves 30 pages at most). The API filters end users by the whole email address only, so a search
 * asks for that exact address and lists the end user who has it, or nothing.
 */
export async function searchEndUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const email = filter?.trim() ?? '';
	const page = Number(paginationToken ?? 1);
	const endUsers = await wootricRequest<IDataObject[] | undefined>(this, {
		method: 'GET',
		answer: 'records',
		path: '/v1/end_users',
		query:
			email === '' ? { page, per_page: PER_PAGE, sort_key: 'email', sort_order: 'asc' } : { email },
	});
	const records = Array.isArray(endUsers) ? endUsers : [];
	const mayHaveMore = email === '' && records.length === PER_PAGE && page < MAX_PAGE;
	return {
		// An end user without a readable id (answerId) cannot be chosen: its id becomes a path.
		results: records.flatMap((endUser) => {
			const id = answerId(endUser.id);
			if (id === undefined) return [];
			return { name: endUser.email ? String(endUser.email) : `End user ${id}`, value: id };
		}),
		paginationToken: mayHaveMore ? String(page + 1) : undefined,
	};
}

/**
 * The Survey Template locator's list: the account's templates, the default first (the list is not
 * paged); a search keeps those whose name or ID contains it, ignoring case.
 */
export async function searchSurveyTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const wanted = filter?.trim().toLowerCase() ?? '';
	const entries = surveyTemplateEntries(await listSurveyTemplates(this));
	return {
		results: entries
			.filter(
				({ name, value }) => name.toLowerCase().includes(wanted) || String(value).includes(wanted),
			)
			.map(({ name, value }) => ({ name, value: value as number })),
	};
}
