import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startFakeWootric, type FakeWootric } from '../fake';
import { runNode, type InputItem } from '../harness';
import { credentialsFor, VERSION_BEFORE_LOCATORS } from '../support/wootric';

type Case = [
	description: string,
	parameters: INodeParameters,
	field: RegExp,
	inputItems?: InputItem[],
];

const csv = (content: string): InputItem[] => [
	{ json: {}, binary: { data: { content, fileName: 'people.csv', mimeType: 'text/csv' } } },
];
/** Two items, the second carrying the bad value, so the error must name item 1. */
const secondItemBad = (good: IDataObject[string], bad: IDataObject[string]): InputItem[] => [
	{ json: { value: good } },
	{ json: { value: bad } },
];

const createResponse = (extra: INodeParameters): INodeParameters => ({
	resource: 'response',
	operation: 'create',
	endUserId: 1,
	score: 9,
	ipAddress: '203.0.113.9',
	originUrl: 'https://x.example',
	...extra,
});
const sendSurvey = (extra: INodeParameters): INodeParameters => ({
	resource: 'emailSurvey',
	operation: 'send',
	emails: 'a@example.com',
	...extra,
});
const sendCsv = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'emailSurvey',
	operation: 'sendCsv',
	source: 'binary',
	...extra,
});

/**
 * Bad input across every resource: each case stops with an error that names the field and the item,
 * and the fake API receives nothing at all (not even a sign-in).
 */
const CASES: Case[] = [
	['score -1', createResponse({ score: -1 }), /^Score must be a whole number from 0 to 10/],
	['score 11', createResponse({ score: 11 }), /^Score must be a whole number from 0 to 10/],
	['score 7.5', createResponse({ score: 7.5 }), /^Score must be a whole number from 0 to 10/],
	[
		'score "ten"',
		createResponse({ score: '={{ $json.value }}' }),
		/^Score must be a whole number from 0 to 10.*\(item 1: got "ten"\)/,
		secondItemBad(9, 'ten'),
	],
	[
		'score as a list from an expression',
		createResponse({ score: '={{ $json.value }}' }),
		/^Score must be a whole number/,
		secondItemBad(9, [9]),
	],
	[
		'end user id 0',
		createResponse({ endUserId: 0 }),
		/^End User ID must be a whole number of at least 1/,
	],
	[
		'end user id as an object from an expression',
		createResponse({ endUserId: '={{ $json.value }}' }),
		/^End User ID must be a whole number.*\(item 1/,
		secondItemBad(5, { id: 5 }),
	],
	['empty IP address', createResponse({ ipAddress: '={{ "" }}' }), /^IP Address is required/],
	[
		'response created at "soon"',
		createResponse({ additionalFields: { createdAt: 'soon' } }),
		/^Created At must be a date/,
	],
	[
		'response created at mapped from an empty field',
		createResponse({ additionalFields: { createdAt: '={{ $json.value }}' } }),
		/^Created At is empty.*\(item 1/,
		secondItemBad('2026-01-31', ''),
	],
	[
		'decline created at mapped from an empty field',
		{
			resource: 'decline',
			operation: 'create',
			endUserId: 1,
			additionalFields: { createdAt: '={{ $json.value }}' },
		},
		/^Created At is empty.*\(item 1/,
		secondItemBad('2026-01-31', ''),
	],
	[
		'response id "abc"',
		{ resource: 'response', operation: 'get', endUserId: 1, responseId: '={{ "abc" }}' },
		/^Response ID must be a whole number/,
	],
	[
		'response update with nothing to update',
		{ resource: 'response', operation: 'update', responseId: 4 },
		/^Update Fields must set/,
	],
	[
		'responses Limit 0',
		{ resource: 'response', operation: 'getAll', returnAll: false, limit: 0 },
		/^Limit must be a whole number of at least 1/,
	],
	[
		'responses Limit -5',
		{ resource: 'response', operation: 'getAll', returnAll: false, limit: -5 },
		/^Limit must be a whole number of at least 1/,
	],
	[
		'responses Limit 2.5',
		{ resource: 'response', operation: 'getAll', returnAll: false, limit: 2.5 },
		/^Limit must be a whole number of at least 1/,
	],
	[
		'responses Limit "lots"',
		{ resource: 'response', operation: 'getAll', returnAll: false, limit: '={{ "lots" }}' },
		/^Limit must be a whole number of at least 1/,
	],
	[
		'responses created "yesterday"',
		{
			resource: 'response',
			operation: 'getAll',
			returnAll: true,
			filters: { created: { conditions: [{ comparison: 'gt', time: 'yesterday' }] } },
		},
		/^Created after must be a date/,
	],
	[
		'decline id -1',
		{ resource: 'decline', operation: 'get', endUserId: 1, declineId: -1 },
		/^Decline ID must be a whole number of at least 1/,
	],
	[
		'decline end user id empty',
		{ resource: 'decline', operation: 'create', endUserId: '={{ $json.value }}' },
		/^End User ID is required/,
		secondItemBad(3, ''),
	],
	[
		'decline update with bad properties JSON',
		{
			resource: 'decline',
			operation: 'update',
			declineId: 3,
			endUserPropertiesInput: 'json',
			endUserPropertiesJson: '{plan: pro}',
		},
		/^End User Properties \(JSON\) must be a JSON object/,
	],
	[
		'end user email without @',
		{ resource: 'endUser', operation: 'create', email: 'ada.example.com' },
		/^Email must be an email address/,
	],
	[
		'end user email from an expression',
		{ resource: 'endUser', operation: 'create', email: '={{ $json.value }}' },
		/^Email must be an email address.*\(item 1/,
		secondItemBad('a@example.com', 'b@'),
	],
	[
		'end user phone without +',
		{ resource: 'endUser', operation: 'get', lookUpBy: 'phoneNumber', phoneNumber: '15550100' },
		/^Phone Number must start with '\+'/,
	],
	[
		'end user lookup by a malformed email',
		{ resource: 'endUser', operation: 'get', lookUpBy: 'email', email: 'ada@' },
		/^Email must be an email address/,
	],
	[
		'end user id "abc"',
		{ resource: 'endUser', operation: 'get', lookUpBy: 'id', endUserId: '={{ "abc" }}' },
		/^End User ID must be a whole number/,
	],
	[
		'end user update with nothing to update',
		{ resource: 'endUser', operation: 'update', endUserId: 3 },
		/^Update Fields/,
	],
	[
		'end user last surveyed "never"',
		{
			resource: 'endUser',
			operation: 'create',
			email: 'a@example.com',
			additionalFields: { lastSurveyed: 'never' },
		},
		/^Last Surveyed must be a date/,
	],
	[
		'end users Limit 0',
		{ resource: 'endUser', operation: 'getAll', returnAll: false, limit: 0 },
		/^Limit must be a whole number of at least 1/,
	],
	[
		'end user property without a name',
		{
			resource: 'endUser',
			operation: 'create',
			email: 'a@example.com',
			propertiesInput: 'pairs',
			properties: { property: [{ name: '', value: 'x' }] },
		},
		/Properties needs a name for every property/,
	],
	[
		'settings update with nothing to update',
		{ resource: 'endUserSettings', operation: 'update', endUserId: 3 },
		/^Update Fields/,
	],
	[
		'settings end user id 0',
		{ resource: 'endUserSettings', operation: 'get', endUserId: 0 },
		/^End User ID must be a whole number of at least 1/,
	],
	[
		'NPS summary start after end',
		{ resource: 'npsSummary', operation: 'get', startDate: '2026-02-01', endDate: '2026-01-31' },
		/^Start Date must be on or before the End Date/,
	],
	[
		'NPS summary start "Monday"',
		{ resource: 'npsSummary', operation: 'get', startDate: 'Monday' },
		/^Start Date must be a date/,
	],
	[
		'email statistics start after end',
		{
			resource: 'emailStatistics',
			operation: 'get',
			startDate: '2026-02-01',
			endDate: '2026-01-31',
		},
		/^Start Date must be on or before the End Date/,
	],
	[
		'email statistics without an End Date',
		{
			resource: 'emailStatistics',
			operation: 'get',
			startDate: '2026-01-01',
			endDate: "={{ '' }}",
		},
		/^End Date is required/,
	],
	[
		'bounce report source "csv"',
		{
			resource: 'emailStatistics',
			operation: 'requestBounceReport',
			startDate: '2026-01-01',
			endDate: '2026-01-31',
			reportSource: '={{ $json.value }}',
		},
		/^Source must be email_api, webhook_trigger or the ID of a CSV upload/,
		secondItemBad('email_api', 'csv'),
	],
	[
		'survey delay 0',
		sendSurvey({ additionalFields: { delay: 0 } }),
		/^Delay \(Days\) must be a whole number from 1 to 31/,
	],
	[
		'survey delay 32',
		sendSurvey({ additionalFields: { delay: 32 } }),
		/^Delay \(Days\) must be a whole number from 1 to 31/,
	],
	[
		'survey registered_percent 101',
		sendSurvey({ surveySettings: { sampling: { registered_percent: 101 } } }),
		/^Sampling: Registered Percent must be a whole number from 0 to 100/,
	],
	[
		'survey response throttle -1',
		sendSurvey({ surveySettings: { sampling: { response_throttle: -1 } } }),
		/^Sampling: Response Throttle \(Days\) must be a whole number/,
	],
	[
		'survey malformed address',
		sendSurvey({ emails: 'a@example.com, b@@example' }),
		/^Email Addresses must be an email address/,
	],
	[
		'survey address from an item',
		sendSurvey({ emails: '={{ $json.value }}' }),
		/^Email Addresses must be an email address.*\(item 1/,
		secondItemBad('a@example.com', 'nobody'),
	],
	[
		'survey external ids misaligned',
		sendSurvey({ emails: 'a@example.com, b@example.com', externalIds: 'x' }),
		/^External IDs must hold one ID per address/,
	],
	[
		'survey placeholder without a value',
		sendSurvey({ intro: 'Dear {{name}}' }),
		/^Context Values need a value for every placeholder/,
	],
	[
		'survey template id "default"',
		sendSurvey({ surveyTemplateId: '={{ "default" }}' }),
		/^Survey Template must be a whole number/,
	],
	['CSV: missing binary property', sendCsv({ binaryPropertyName: 'file' }), /file/],
	['CSV: empty file', sendCsv(), /The survey CSV .* is empty/, csv('')],
	[
		'CSV: email not first',
		sendCsv(),
		/must have "email" as its first column/,
		csv('name,email\nAda,a@example.com\n'),
	],
	[
		'CSV: bad address',
		sendCsv(),
		/has invalid email addresses: row 1/,
		csv('email\nnot-an-address\n'),
	],
	[
		'CSV: ragged row',
		sendCsv(),
		/differs from the header's 2: row 2/,
		csv('email,plan\na@example.com,pro\nb@example.com\n'),
	],
	[
		'CSV: unterminated quote',
		sendCsv(),
		/quoted field unterminated/,
		csv('email,plan\na@example.com,"pro\n'),
	],
	[
		'CSV: bad context column',
		sendCsv(),
		/___context:first-name/,
		csv('email,___context:first-name\na@example.com,Ada\n'),
	],
	[
		'CSV: language column without Multi-Language',
		sendCsv(),
		/^Language must be Multi-Language/,
		csv('email,language\na@example.com,EN\n'),
	],
	[
		'CSV: Start at Row 0',
		sendCsv({ options: { startAtRow: 0 } }),
		/^Start at Row must be a whole number from 1 to 1/,
		csv('email\na@example.com\n'),
	],
	[
		'CSV built from items: bad email',
		{
			resource: 'emailSurvey',
			operation: 'sendCsv',
			source: 'items',
			csvEmail: '={{ $json.value }}',
		},
		/^Email must be an email address.*\(item 1/,
		secondItemBad('a@example.com', 'oops'),
	],
];

describe('bad input is stopped before any request', () => {
	let fake: FakeWootric;

	beforeAll(async () => (fake = await startFakeWootric()));
	afterAll(async () => await fake.close());

	it(`has at least 40 cases across every resource`, () => {
		expect(CASES.length).toBeGreaterThanOrEqual(40);
		const resources = new Set(CASES.map(([, parameters]) => parameters.resource));
		expect([...resources].sort()).toEqual([
			'decline',
			'emailStatistics',
			'emailSurvey',
			'endUser',
			'endUserSettings',
			'npsSummary',
			'response',
		]);
	});

	const cases = CASES.map(([description, parameters, field, inputItems]) => ({
		description,
		parameters,
		field,
		inputItems,
	}));

	it.each(cases)('$description', async ({ parameters, field, inputItems }) => {
		fake.requests.length = 0;

		const run = await runNode({
			nodeType: 'wootric',
			nodeTypeVersion: VERSION_BEFORE_LOCATORS,
			parameters,
			credentials: credentialsFor(fake),
			inputItems,
		});

		expect(run.error?.message).toMatch(field);
		const itemIndex = inputItems && inputItems.length > 1 ? 1 : 0;
		expect(run.error).toMatchObject({ context: { itemIndex } });
		// CSV defects name their rows instead of repeating the item in the message.
		if (parameters.operation !== 'sendCsv')
			expect(run.error?.message).toContain(`item ${itemIndex}`);
		expect(fake.requests).toEqual([]);
	});
});
