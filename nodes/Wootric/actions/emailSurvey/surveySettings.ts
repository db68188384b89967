import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { beforeLocatorsVersion, fromLocatorsVersion, shownWhen } from '../../helpers/fields';
import {
	chosenSurveyTemplate,
	SURVEY_TEMPLATE_BEFORE_LOCATORS,
	SURVEY_TEMPLATE_LOCATOR,
} from '../../helpers/surveyTemplates';
import { integerValue, invalid } from '../../helpers/validation';
import type { ParamHash } from '../../transport';

/** The eight custom message keys of survey_settings[custom_messages], and whom each is shown to. */
const CUSTOM_MESSAGES = [
	['Follow-Up Text', 'followup_text', 'every end user'],
	['Detractor Follow-Up Text', 'detractor_followup_text', 'detractors (0–6)'],
	['Passive Follow-Up Text', 'passive_followup_text', 'passives (7–8)'],
	['Promoter Follow-Up Text', 'promoter_followup_text', 'promoters (9–10)'],
	['Prompt Text', 'prompt_text', 'every end user'],
	['Detractor Prompt Text', 'detractor_prompt_text', 'detractors (0–6)'],
	['Passive Prompt Text', 'passive_prompt_text', 'passives (7–8)'],
	['Promoter Prompt Text', 'promoter_prompt_text', 'promoters (9–10)'],
] as const;

/** survey_settings[sampling]: days, and a percentage. */
const SAMPLING = [
	[
		'First Survey Delay (Days)',
		'first_survey_delay',
		'Days after the end user was created before a survey may be shown',
		100000,
	],
	[
		'Response Throttle (Days)',
		'response_throttle',
		'Days after answering a survey before the end user is eligible again',
		100000,
	],
	[
		'Decline Throttle (Days)',
		'decline_throttle',
		'Days after declining a survey before the end user is eligible again',
		100000,
	],
	[
		'Registered Percent',
		'registered_percent',
		'Chance, from 0 to 100, that a survey is served',
		100,
	],
] as const;

/** What both survey endpoints take: survey_immediately, subject, intro and survey_settings. */
export const surveyFields: INodeProperties[] = [
	shownWhen(
		{
			displayName: 'Survey Template Name or ID',
			name: SURVEY_TEMPLATE_BEFORE_LOCATORS,
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getSurveyTemplates' },
			default: '',
			description:
				'The survey template to use; leave empty for the account default. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		beforeLocatorsVersion,
	),
	shownWhen(
		{
			displayName: 'Survey Template',
			name: SURVEY_TEMPLATE_LOCATOR,
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			description: 'The survey template to use; leave empty for the account default',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					placeholder: 'Select a survey template…',
					typeOptions: { searchListMethod: 'searchSurveyTemplates', searchable: true },
				},
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: '501',
					validation: [
						{
							type: 'regex',
							properties: { regex: '^\\s*[1-9]\\d*\\s*$', errorMessage: 'An ID is a whole number' },
						},
					],
				},
			],
		},
		fromLocatorsVersion,
	),
	{
		displayName: 'Language Name or ID',
		name: 'language',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getSurveyTemplateLanguages',
			// The template chosen before 1.2, or with the locator from 1.2.
			loadOptionsDependsOn: [SURVEY_TEMPLATE_BEFORE_LOCATORS, `${SURVEY_TEMPLATE_LOCATOR}.value`],
		},
		default: '',
		description:
			'The survey language; leave empty for the template default. For a CSV with a language column choose Multi-Language. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Survey Immediately',
		name: 'surveyImmediately',
		type: 'boolean',
		default: false,
		description:
			'Whether to survey end users even if they are not eligible yet (skips the eligibility check)',
	},
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		default: '',
		placeholder: 'Hi {{name}}, how are we doing?',
		description:
			'Replaces the default subject line. May use {{variable}} placeholders filled from the context values.',
	},
	{
		displayName: 'Intro',
		name: 'intro',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description:
			'A message shown between the logo and the question. May use {{variable}} placeholders filled from the context values.',
	},
	{
		displayName: 'Survey Settings',
		name: 'surveySettings',
		type: 'collection',
		placeholder: 'Add Setting',
		default: {},
		options: [
			{
				displayName: 'Audience Text',
				name: 'audience_text',
				type: 'string',
				default: '',
				description: 'Who the survey asks about, e.g. "your team"',
			},
			{
				displayName: 'Custom Messages',
				name: 'custom_messages',
				type: 'collection',
				placeholder: 'Add Message',
				default: {},
				description: "Texts that replace the survey's own, for everyone or one NPS category",
				options: CUSTOM_MESSAGES.map(
					([displayName, name, shownTo]) =>
						({
							displayName,
							name,
							type: 'string',
							default: '',
							description: `Replaces the survey's ${name.includes('followup') ? 'follow-up' : 'prompt'} text for ${shownTo}`,
						}) as INodeProperties,
				),
			},
			{
				displayName: 'Logo URL',
				name: 'logo_url',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/logo.png',
				description: "An http(s) link to the logo shown in the survey, instead of the account's",
			},
			{
				displayName: 'Product Name',
				name: 'product_name',
				type: 'string',
				default: '',
				description: "The product the survey asks about, instead of the account's",
			},
			{
				displayName: 'Sampling',
				name: 'sampling',
				type: 'collection',
				placeholder: 'Add Sampling Rule',
				default: {},
				description: 'Overrides the sampling settings of the account',
				options: SAMPLING.map(
					([displayName, name, description, maxValue]) =>
						({
							displayName,
							name,
							description,
							type: 'number',
							typeOptions: { minValue: 0, maxValue },
							default: 0,
						}) as INodeProperties,
				),
			},
		],
	},
];

/** The placeholders `{{name}}` used in subject and intro. */
export function placeholdersIn(...texts: string[]): string[] {
	return [
		...new Set(
			texts.flatMap((text) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1])),
		),
	];
}

/** survey_immediately, subject, intro and survey_settings[...] for one item, checked. */
export function readSurveyParams(
	context: IExecuteFunctions,
	itemIndex: number,
): { params: ParamHash; subject: string; intro: string; templateId?: number; language?: string } {
	const subject = String(context.getNodeParameter('subject', itemIndex, '') ?? '');
	const intro = String(context.getNodeParameter('intro', itemIndex, '') ?? '');
	const templateValue = chosenSurveyTemplate(
		context.getNode(),
		(name) => context.getNodeParameter(name, itemIndex, '') as unknown,
	);
	const templateId =
		templateValue === ''
			? undefined
			: integerValue(context, itemIndex, 'Survey Template', templateValue, { min: 1 });
	const language = String(context.getNodeParameter('language', itemIndex, '') ?? '') || undefined;
	const given = context.getNodeParameter('surveySettings', itemIndex, {}) as IDataObject;

	const sampling: ParamHash = {};
	for (const [displayName, name, , max] of SAMPLING) {
		const value = (given.sampling as IDataObject | undefined)?.[name];
		if (value !== undefined && value !== '')
			sampling[name] = integerValue(context, itemIndex, `Sampling: ${displayName}`, value, {
				min: 0,
				max,
			});
	}
	const customMessages: ParamHash = {};
	for (const [, name] of CUSTOM_MESSAGES) {
		const value = (given.custom_messages as IDataObject | undefined)?.[name];
		if (value !== undefined && value !== '') customMessages[name] = String(value);
	}
	const logoUrl = given.logo_url ? String(given.logo_url) : undefined;
	if (logoUrl !== undefined && !/^https?:\/\/\S+$/.test(logoUrl))
		throw invalid(
			context,
			itemIndex,
			'Survey Settings: Logo URL',
			'must be an http(s) URL',
			logoUrl,
		);

	const settings: ParamHash = {
		language,
		survey_template_id: templateId,
		logo_url: logoUrl,
		audience_text: given.audience_text ? String(given.audience_text) : undefined,
		product_name: given.product_name ? String(given.product_name) : undefined,
		custom_messages: Object.keys(customMessages).length > 0 ? customMessages : undefined,
		sampling: Object.keys(sampling).length > 0 ? sampling : undefined,
	};
	const hasSettings = Object.values(settings).some((value) => value !== undefined);
	const params: ParamHash = {
		survey_immediately:
			(context.getNodeParameter('surveyImmediately', itemIndex, false) as boolean) || undefined,
		subject: subject || undefined,
		intro: intro || undefined,
		survey_settings: hasSettings ? settings : undefined,
	};
	return { params, subject, intro, templateId, language };
}
