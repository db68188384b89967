import type { INodeParameters } from 'n8n-workflow';

import { addDecline, addResponse, createEndUser, type FakeWootric } from '../fake';
import type { EndUser } from '../fake/store';
import { OPERATIONS_ON_NO_RECORD } from './wootric';

/**
 * Every operation of the Wootric node once, with what it works on stored in the fake: an end user
 * (with an external id and a phone number), one to delete, a response and a decline. Run in this
 * order, each finds what the ones before it left (an external id set, then looked up by; a record
 * read, then deleted).
 */
export function everyOperation(fake: FakeWootric): {
	user: EndUser;
	operations: INodeParameters[];
} {
	const user = createEndUser(fake.account, fake.store, 'cover@example.com', {
		externalId: 'crm-cover',
		phoneNumber: '+15550199',
	});
	const doomed = createEndUser(fake.account, fake.store, 'doomed@example.com');
	const response = addResponse(fake.account, fake.store, { endUserId: user.id, score: 3 });
	const decline = addDecline(fake.account, fake.store, { endUserId: user.id });
	const operations: INodeParameters[] = [
		{ resource: 'endUser', operation: 'create', email: 'new@example.com' },
		{
			resource: 'endUser',
			operation: 'update',
			endUserId: user.id,
			updateFields: { externalId: 'crm-cover-2' },
		},
		{ resource: 'endUser', operation: 'get', lookUpBy: 'id', endUserId: user.id },
		{ resource: 'endUser', operation: 'get', lookUpBy: 'email', email: user.email },
		{ resource: 'endUser', operation: 'get', lookUpBy: 'externalId', externalId: 'crm-cover-2' },
		{ resource: 'endUser', operation: 'get', lookUpBy: 'phoneNumber', phoneNumber: '+15550199' },
		{ resource: 'endUser', operation: 'getAll', returnAll: true },
		{ resource: 'endUser', operation: 'upsert', matchBy: 'email', email: user.email },
		{
			resource: 'endUser',
			operation: 'upsert',
			matchBy: 'externalId',
			externalId: 'crm-cover-2',
			email: user.email,
		},
		{ resource: 'endUser', operation: 'exportData', endUserId: user.id },
		{ resource: 'endUser', operation: 'delete', lookUpBy: 'email', email: doomed.email },
		{ resource: 'endUserSettings', operation: 'get', endUserId: user.id },
		{
			resource: 'endUserSettings',
			operation: 'update',
			endUserId: user.id,
			updateFields: { emailSurveys: false },
		},
		{
			resource: 'response',
			operation: 'create',
			endUserId: user.id,
			score: 9,
			ipAddress: '203.0.113.9',
			originUrl: 'https://x.example',
		},
		{ resource: 'response', operation: 'get', endUserId: user.id, responseId: response.id },
		{ resource: 'response', operation: 'getAll', scope: 'all', returnAll: true },
		...['all', 'promoters', 'passives', 'detractors'].map((category) => ({
			resource: 'response',
			operation: 'getAll',
			scope: 'endUser',
			endUserId: user.id,
			category,
			returnAll: true,
		})),
		{
			resource: 'response',
			operation: 'update',
			responseId: response.id,
			updateFields: { completed: true },
		},
		{ resource: 'response', operation: 'delete', endUserId: user.id, responseId: response.id },
		{ resource: 'decline', operation: 'create', endUserId: user.id },
		{ resource: 'decline', operation: 'get', endUserId: user.id, declineId: decline.id },
		{ resource: 'decline', operation: 'getAll', scope: 'all', returnAll: true },
		{
			resource: 'decline',
			operation: 'getAll',
			scope: 'endUser',
			endUserId: user.id,
			returnAll: true,
		},
		{
			resource: 'decline',
			operation: 'update',
			declineId: decline.id,
			endUserPropertiesJson: '{"plan":"pro"}',
			endUserPropertiesInput: 'json',
		},
		{ resource: 'decline', operation: 'delete', endUserId: user.id, declineId: decline.id },
		...OPERATIONS_ON_NO_RECORD,
		// A language column: the template's languages are read to check it.
		{
			resource: 'emailSurvey',
			operation: 'sendCsv',
			source: 'items',
			csvEmail: 'lang@example.com',
			csvLanguage: 'ES',
			language: 'multi_language',
			surveyTemplateId: 502,
		},
	];
	return { user, operations };
}

/** One list a parameter opens in the editor: a dropdown (loadOptions) or a list search. */
export interface Listing {
	kind: 'loadOptions' | 'listSearch';
	method: string;
	parameterPath: string;
	currentParameters?: INodeParameters;
	filter?: string;
}

/**
 * Every list the Wootric node's parameters open, as the editor asks for each (the demo data's
 * templates: 502 has languages): every loadOptions and listSearch method, with each way its
 * parameters lead it (a template chosen or not, a search typed or not).
 */
export const EVERY_LISTING: Listing[] = [
	{ kind: 'loadOptions', method: 'getSurveyTemplates', parameterPath: 'surveyTemplateId' },
	...[{ surveyTemplateId: 502 }, {}].map(
		(chosen): Listing => ({
			kind: 'loadOptions',
			method: 'getSurveyTemplateLanguages',
			parameterPath: 'language',
			currentParameters: { resource: 'emailSurvey', operation: 'sendCsv', ...chosen },
		}),
	),
	...(
		[
			['searchEndUsers', 'endUser', 'cover@example.com'],
			['searchSurveyTemplates', 'surveyTemplate', 'nps'],
		] as const
	).flatMap(([method, parameterPath, typed]) =>
		[undefined, typed].map(
			(filter): Listing => ({ kind: 'listSearch', method, parameterPath, filter }),
		),
	),
];
