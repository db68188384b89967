import type { IDataObject } from 'n8n-workflow';

import type { JsonSchema } from '../../scripts/output-schemas';
import { addDecline, addResponse, createEndUser, type FakeWootric } from '../fake';
import type { EndUser } from '../fake/store';

/** An end user with every field the demo data leaves empty, for outputs with every field filled. */
export function addRichEndUser(fake: FakeWootric): EndUser {
	const now = fake.clock.now();
	return createEndUser(fake.account, fake.store, 'rich@example.com', {
		externalId: 'crm-rich',
		phoneNumber: '+15550188',
		lastSurveyed: now - 3600,
		lastSeenAt: now - 60,
		externalCreatedAt: now - 86400,
		properties: { plan: 'pro', seats: '12' },
	});
}

/** A response with a comment and tags, and a decline with every field, of `user`. */
export function addRichRecords(fake: FakeWootric, user: EndUser) {
	const response = addResponse(fake.account, fake.store, {
		endUserId: user.id,
		score: 3,
		text: 'Exports keep timing out.',
		tags: ['exports'],
		endUserProperties: { plan: 'pro' },
	});
	const decline = addDecline(fake.account, fake.store, {
		endUserId: user.id,
		ipAddress: '203.0.113.9',
		originUrl: 'https://app.example.com/settings',
		endUserProperties: { plan: 'pro' },
	});
	return { response, decline };
}

const TYPE_OF: Record<JsonSchema['type'], (value: unknown) => boolean> = {
	object: (value) => typeof value === 'object' && !Array.isArray(value),
	array: Array.isArray,
	string: (value) => typeof value === 'string',
	integer: Number.isInteger,
	number: (value) => typeof value === 'number',
	boolean: (value) => typeof value === 'boolean',
};

/**
 * Where `value` does not fit `schema`, as `<path>: <why>`; `seen` collects the paths of the values
 * it checked (`.end_user.properties`, `.tags[]`).
 */
export function misfits(
	value: unknown,
	schema: JsonSchema,
	at: string,
	seen: Set<string>,
): string[] {
	seen.add(at);
	if (value === null) return [];
	if (!TYPE_OF[schema.type](value))
		return [`${at}: ${JSON.stringify(value)} is not of type ${schema.type}`];
	if (schema.type === 'array' && schema.items) {
		const items = schema.items;
		return (value as unknown[]).flatMap((entry) => misfits(entry, items, `${at}[]`, seen));
	}
	if (schema.type === 'object' && schema.properties) {
		const properties = schema.properties;
		return Object.entries(value as IDataObject).flatMap(([key, entry]) =>
			key in properties
				? misfits(entry, properties[key], `${at}.${key}`, seen)
				: [`${at}.${key}: not in the schema`],
		);
	}
	return [];
}

/**
 * Every field of a schema, at any depth, in misfits' notation. The elements of an array of scalars
 * are not fields (a new response's tags are empty): their type is checked where they come.
 */
export function schemaFields(schema: JsonSchema, at = ''): string[] {
	const fieldsBelow = (object: JsonSchema, prefix: string) =>
		Object.entries(object.properties ?? {}).flatMap(([key, property]) =>
			schemaFields(property, `${prefix}.${key}`),
		);
	const below =
		schema.type === 'array' && schema.items
			? fieldsBelow(schema.items, `${at}[]`)
			: fieldsBelow(schema, at);
	return at === '' ? below : [at, ...below];
}
