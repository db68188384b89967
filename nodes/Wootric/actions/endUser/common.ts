import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	emailField,
	externalIdField,
	externalIdValue,
	readEndUser,
	type EndUserBy,
} from '../../helpers/endUsers';
import {
	additionalFieldsCollection,
	propertiesFields,
	readProperties,
	simplifyOptionsCollections,
} from '../../helpers/fields';
import { recordOutput } from '../../helpers/output';
import { END_USER_SHAPE } from '../../helpers/records';
import { emailValue, invalid, unixSeconds } from '../../helpers/validation';
import { parseSerializedProperties } from '../../helpers/properties';
import { wootricRequest, type ParamHash } from '../../transport';

// The fields and readers the End User operations share.

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
 * The fields after the email of create and create-or-update: the optional ones, with `externalId`
 * as the operation shows the optional External ID, the properties and Simplify.
 */
export function createFields(externalId = optionalExternalIdField): INodeProperties[] {
	return [
		additionalFieldsCollection([externalCreatedAtField, externalId, lastSurveyedField]),
		...customPropertiesFields,
		...endUserSimplifyOptions,
	];
}

/** Simplify of the operations that output one end user. */
export const endUserSimplifyOptions = simplifyOptionsCollections(END_USER_SHAPE);

/**
 * The end user's record as output (recordOutput): properties as an object (write bodies serialize
 * them).
 */
export function endUserOutput(
	context: IExecuteFunctions,
	itemIndex: number,
	record: IDataObject,
): IDataObject {
	return recordOutput(context, itemIndex, parseSerializedProperties(record ?? {}), END_USER_SHAPE);
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

/** PUT /v1/end_users/<id> with the form (endUserForm): the end user's record as answered. */
export async function putEndUser(
	context: IExecuteFunctions,
	itemIndex: number,
	endUserId: number,
	form: ParamHash,
): Promise<IDataObject> {
	return await wootricRequest<IDataObject>(context, {
		method: 'PUT',
		answer: 'record',
		path: `/v1/end_users/${endUserId}`,
		form,
		subject: `end user ${endUserId}`,
		itemIndex,
	});
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

export interface LookUp {
	/** The path after /v1/end_users. */
	path: string;
	query?: ParamHash;
	/** Named in a 404. */
	subject: string;
}

/**
 * Where to find the end user set with endUserFields(ways, …); validated, segments URL-encoded. Get
 * sends the lookup flag in `query`; Delete's path takes an ID or an email without one.
 */
export function readLookUp(
	context: IExecuteFunctions,
	itemIndex: number,
	ways: EndUserBy[],
): LookUp {
	const endUser = readEndUser(context, itemIndex, ways);
	switch (endUser.by) {
		case 'email':
			return {
				path: `/v1/end_users/${pathSegment(context, itemIndex, 'Email', endUser.value)}`,
				query: { lookup_by_email: true },
				subject: `end user with email ${endUser.value}`,
			};
		case 'externalId':
			return {
				path: `/v1/end_users/${pathSegment(context, itemIndex, 'External ID', endUser.value)}`,
				query: { lookup_by_external_id: true },
				subject: `end user with external ID ${endUser.value}`,
			};
		case 'phoneNumber':
			return {
				path: `/v1/end_users/phone_number/${encodeURIComponent(endUser.value)}`,
				subject: `end user with phone number ${endUser.value}`,
			};
		case 'id':
			return { path: `/v1/end_users/${endUser.value}`, subject: `end user ${endUser.value}` };
	}
}
