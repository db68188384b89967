import type {
	IExecuteFunctions,
	INodeParameterResourceLocator,
	INodeProperties,
} from 'n8n-workflow';

import {
	beforeLocatorsVersion,
	endUserIdField,
	fromLocatorsVersion,
	shownWhen,
	usesLocators,
} from './fields';
import { emailValue, integerValue, invalid, phoneValue } from './validation';

/**
 * How an operation addresses its one end user: by ID always; by email, external ID or phone number
 * only where the API takes them in the path.
 */
export type EndUserBy = 'id' | 'email' | 'externalId' | 'phoneNumber';

export const emailField: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	placeholder: 'name@email.com',
	default: '',
	required: true,
	description: 'Email address of the end user',
};

export const externalIdField: INodeProperties = {
	displayName: 'External ID',
	name: 'externalId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'crm-1042',
	description: 'The ID of the end user in your own system, as stored in Wootric',
};

const phoneNumberField: INodeProperties = {
	displayName: 'Phone Number',
	name: 'phoneNumber',
	type: 'string',
	default: '',
	required: true,
	placeholder: '+15550100',
	description: "In international form: '+', the country code and the number",
};

/** The fields versions before 1.2 read each way from. */
const FIELD_BEFORE_LOCATORS: Record<EndUserBy, INodeProperties> = {
	id: endUserIdField(),
	email: emailField,
	externalId: externalIdField,
	phoneNumber: phoneNumberField,
};

const LOOK_UP_NAMES: Record<EndUserBy, string> = {
	email: 'Email',
	externalId: 'External ID',
	id: 'ID',
	phoneNumber: 'Phone Number',
};

/** Before 1.2: "Look Up By" and the field each choice needs. */
function lookUpFields(ways: EndUserBy[]): INodeProperties[] {
	return [
		{
			displayName: 'Look Up By',
			name: 'lookUpBy',
			type: 'options',
			options: ways
				.map((way) => ({
					name: LOOK_UP_NAMES[way],
					value: way,
					description: FIELD_BEFORE_LOCATORS[way].description,
				}))
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: 'id',
			description: 'How to find the end user',
		},
		...ways.map((way) => shownWhen(FIELD_BEFORE_LOCATORS[way], { lookUpBy: [way] })),
	];
}

/** The End User locator's modes: From List (its value is an ID too), and a mode for each way. */
const MODE_NAMES: Record<'list' | EndUserBy, string> = {
	list: 'From List',
	id: 'By ID',
	email: 'By Email',
	externalId: 'By External ID',
	phoneNumber: 'By Phone Number',
};

/**
 * The end user an operation addresses: from 1.2 the End User locator (From List, By ID and the
 * other `ways`); before, the fields those versions were saved with (Look Up By and its field when
 * there was more than one way, else End User ID). Read with readEndUser.
 */
export function endUserFields(ways: EndUserBy[], description: string): INodeProperties[] {
	const before = ways.length > 1 ? lookUpFields(ways) : [endUserIdField(description)];
	const locator: INodeProperties = {
		displayName: 'End User',
		name: 'endUser',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: MODE_NAMES.list,
				name: 'list',
				type: 'list',
				placeholder: 'Select an end user, or search by the whole email…',
				typeOptions: { searchListMethod: 'searchEndUsers', searchable: true },
			},
			{
				displayName: MODE_NAMES.id,
				name: 'id',
				type: 'string',
				placeholder: '123456',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*[1-9]\\d*\\s*$', errorMessage: 'An ID is a whole number' },
					},
				],
			},
			{
				displayName: MODE_NAMES.email,
				name: 'email',
				type: 'string',
				placeholder: 'name@example.com',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^\\s*[^\\s@]+@[^\\s@]+\\.[^\\s@]+\\s*$',
							errorMessage: 'Not an email address',
						},
					},
				],
			},
			{
				displayName: MODE_NAMES.externalId,
				name: 'externalId',
				type: 'string',
				placeholder: 'crm-1042',
			},
			{
				displayName: MODE_NAMES.phoneNumber,
				name: 'phoneNumber',
				type: 'string',
				placeholder: '+15550100',
			},
		],
	};
	// Every mode is written out above (n8n's lint reads them there); the operation offers From List
	// and its ways.
	const offered = locator.modes?.filter(
		({ name }) => name === 'list' || ways.includes(name as EndUserBy),
	);
	return [
		...before.map((field) => shownWhen(field, beforeLocatorsVersion)),
		shownWhen({ ...locator, modes: offered }, fromLocatorsVersion),
	];
}

export type EndUserReference =
	| { by: 'id'; value: number }
	| { by: 'email' | 'externalId' | 'phoneNumber'; value: string };

/** "A, B or C". */
const oneOf = (names: string[]) =>
	names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names[0];

const isEmpty = (value: unknown) =>
	value === undefined || value === null || String(value).trim() === '';

/**
 * The end user set with endUserFields, validated (nothing is sent for a bad value): from the
 * locator from 1.2, from the older fields before.
 */
export function readEndUser(
	context: IExecuteFunctions,
	itemIndex: number,
	ways: EndUserBy[],
): EndUserReference {
	let by: string;
	let field: string;
	let value: unknown;
	if (usesLocators(context.getNode())) {
		const locator = context.getNodeParameter('endUser', itemIndex) as
			| INodeParameterResourceLocator
			| undefined;
		by = locator?.mode === 'list' ? 'id' : String(locator?.mode);
		field = `End User (${MODE_NAMES[locator?.mode as EndUserBy] ?? locator?.mode})`;
		value = locator?.value;
		if (!ways.includes(by as EndUserBy)) {
			const offered = oneOf([MODE_NAMES.list, ...ways.map((way) => MODE_NAMES[way])]);
			throw invalid(context, itemIndex, 'End User', `must be chosen ${offered}`, locator?.mode);
		}
	} else {
		by = ways.length > 1 ? (context.getNodeParameter('lookUpBy', itemIndex) as string) : 'id';
		if (!ways.includes(by as EndUserBy))
			throw invalid(
				context,
				itemIndex,
				'Look Up By',
				`must be ${oneOf(ways.map((way) => LOOK_UP_NAMES[way]))}`,
				by,
			);
		const { name, displayName } = FIELD_BEFORE_LOCATORS[by as EndUserBy];
		field = displayName;
		value = context.getNodeParameter(name, itemIndex);
	}
	if (isEmpty(value)) throw invalid(context, itemIndex, field, 'is required', value ?? '');
	switch (by as EndUserBy) {
		case 'id':
			return { by: 'id', value: integerValue(context, itemIndex, field, value, { min: 1 }) };
		case 'email':
			return { by: 'email', value: emailValue(context, itemIndex, field, value) };
		case 'externalId':
			return { by: 'externalId', value: externalIdValue(context, itemIndex, field, value) };
		case 'phoneNumber':
			return { by: 'phoneNumber', value: phoneValue(context, itemIndex, field, value) };
	}
}

/** The ID of the end user set with endUserFields(['id'], …). */
export function readEndUserId(context: IExecuteFunctions, itemIndex: number): number {
	return readEndUser(context, itemIndex, ['id']).value as number;
}

/** An external ID: any non-empty text (trimmed). */
export function externalIdValue(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string {
	const text =
		typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (text === '') throw invalid(context, itemIndex, field, 'is required', value);
	return text;
}
