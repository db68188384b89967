import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserIdField, propertiesFields, readProperties } from '../../helpers/fields';
import { simplifyIfChosen } from '../../helpers/output';
import {
	emailValue,
	idParameter,
	invalid,
	phoneValue,
	unixSeconds,
} from '../../helpers/validation';
import { parseSerializedProperties } from '../../helpers/properties';
import type { ParamHash } from '../../transport';

// The fields and readers the End User operations share.

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

// The optional fields of create, update and create-or-update, for their Additional/Update Fields
// collection.

export const lastSurveyedField: INodeProperties = {
	displayName: 'Last Surveyed',
	name: 'lastSurveyed',
	type: 'dateTime',
	default: '',
	description: 'When the end user was last surveyed',
};

export const externalCreatedAtField: INodeProperties = {
	displayName: 'External Created At',
	name: 'externalCreatedAt',
	type: 'dateTime',
	default: '',
	description: 'When the end user signed up in your own application',
};

/** A field as an optional entry of a collection. */
function optional(field: INodeProperties, description = field.description): INodeProperties {
	const copy: INodeProperties = { ...field, description };
	delete copy.required;
	return copy;
}

export const optionalEmailField = optional(emailField, 'New email address of the end user');
export const optionalExternalIdField = optional(externalIdField);

/** The end user's own `properties` (not `end_user[properties]`, which other records carry). */
export const customPropertiesFields = propertiesFields(
	'properties',
	'Properties',
	'Custom properties of the end user, such as plan or seats. Properties not named here keep their values.',
);

/**
 * The end user's record as output: properties as an object (write bodies serialize them),
 * simplified when asked.
 */
export function endUserOutput(
	context: IExecuteFunctions,
	itemIndex: number,
	record: IDataObject,
): IDataObject {
	return simplifyIfChosen(context, itemIndex, parseSerializedProperties(record ?? {}));
}

/** UNIX seconds of a date field; Wootric takes no dates before 1970. */
function dateSeconds(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): number {
	const seconds = unixSeconds(context, itemIndex, field, value);
	if (seconds < 0)
		throw invalid(context, itemIndex, field, 'must be a date after 1970-01-01', value);
	return seconds;
}

const isGiven = (value: unknown) =>
	value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');

/**
 * The form of POST/PUT /v1/end_users from a fields collection (email, externalId, lastSurveyed,
 * externalCreatedAt; empty ones are left out) and the Properties fields. Validates every value.
 */
export function endUserForm(
	context: IExecuteFunctions,
	itemIndex: number,
	fields: IDataObject,
): ParamHash {
	const form: ParamHash = {};
	if (isGiven(fields.email)) form.email = emailValue(context, itemIndex, 'Email', fields.email);
	if (isGiven(fields.externalId))
		form.external_id = externalIdValue(context, itemIndex, 'External ID', fields.externalId);
	if (isGiven(fields.lastSurveyed))
		form.last_surveyed = dateSeconds(context, itemIndex, 'Last Surveyed', fields.lastSurveyed);
	if (isGiven(fields.externalCreatedAt)) {
		form.external_created_at = dateSeconds(
			context,
			itemIndex,
			'External Created At',
			fields.externalCreatedAt,
		);
	}
	const properties = readProperties(context, itemIndex, 'properties', 'Properties');
	for (const name of Object.keys(properties ?? {})) {
		// properties[<name>] is bracket notation: a bracket in the name would nest it.
		if (/[[\]]/.test(name))
			throw invalid(context, itemIndex, 'Properties', 'names cannot contain [ or ]', name);
	}
	if (properties) form.properties = properties;
	return form;
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

/** A path segment for /v1/end_users/<segment>: '.' and '..' would be read as a relative path. */
export function pathSegment(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: string,
): string {
	if (value === '.' || value === '..')
		throw invalid(
			context,
			itemIndex,
			field,
			'cannot be looked up: Wootric reads it as a path',
			value,
		);
	return encodeURIComponent(value);
}

export type LookUpBy = 'id' | 'email' | 'externalId' | 'phoneNumber';

const LOOK_UP_OPTIONS: Record<LookUpBy, { name: string; value: LookUpBy }> = {
	email: { name: 'Email', value: 'email' },
	externalId: { name: 'External ID', value: 'externalId' },
	id: { name: 'ID', value: 'id' },
	phoneNumber: { name: 'Phone Number', value: 'phoneNumber' },
};

const FIELD_OF: Record<LookUpBy, INodeProperties> = {
	id: endUserIdField(),
	email: emailField,
	externalId: externalIdField,
	phoneNumber: phoneNumberField,
};

/** "Look Up By" and the field each choice needs. */
export function lookUpFields(ways: LookUpBy[], description: string): INodeProperties[] {
	return [
		{
			displayName: 'Look Up By',
			name: 'lookUpBy',
			type: 'options',
			options: ways.map((way) => LOOK_UP_OPTIONS[way]).sort((a, b) => a.name.localeCompare(b.name)),
			default: 'id',
			description,
		},
		...ways.map((way) => ({ ...FIELD_OF[way], displayOptions: { show: { lookUpBy: [way] } } })),
	];
}

export interface LookUp {
	/** The path after /v1/end_users. */
	path: string;
	query?: ParamHash;
	/** Named in a 404. */
	subject: string;
}

/** Where to find the end user chosen with lookUpFields; validated, segments URL-encoded. */
export function readLookUp(context: IExecuteFunctions, itemIndex: number): LookUp {
	const by = context.getNodeParameter('lookUpBy', itemIndex) as LookUpBy;
	switch (by) {
		case 'email': {
			const email = emailValue(
				context,
				itemIndex,
				'Email',
				context.getNodeParameter('email', itemIndex),
			);
			return {
				path: `/v1/end_users/${pathSegment(context, itemIndex, 'Email', email)}`,
				query: { lookup_by_email: true },
				subject: `end user with email ${email}`,
			};
		}
		case 'externalId': {
			const externalId = externalIdValue(
				context,
				itemIndex,
				'External ID',
				context.getNodeParameter('externalId', itemIndex),
			);
			return {
				path: `/v1/end_users/${pathSegment(context, itemIndex, 'External ID', externalId)}`,
				query: { lookup_by_external_id: true },
				subject: `end user with external ID ${externalId}`,
			};
		}
		case 'phoneNumber': {
			const phone = phoneValue(
				context,
				itemIndex,
				'Phone Number',
				context.getNodeParameter('phoneNumber', itemIndex),
			);
			return {
				path: `/v1/end_users/phone_number/${encodeURIComponent(phone)}`,
				subject: `end user with phone number ${phone}`,
			};
		}
		case 'id': {
			const id = idParameter(context, itemIndex, 'endUserId', 'End User ID');
			return { path: `/v1/end_users/${id}`, subject: `end user ${id}` };
		}
		default:
			throw invalid(
				context,
				itemIndex,
				'Look Up By',
				'must be ID, Email, External ID or Phone Number',
				by,
			);
	}
}
