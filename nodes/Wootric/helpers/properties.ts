import type { IDataObject } from 'n8n-workflow';

/**
 * End-user create/update/delete bodies carry `properties` as a serialized string; this puts the
 * hash back. JSON is read directly; Ruby's `{"plan"=>"pro"}` form is read too, since it is what
 * Rails prints.
 */
export function parseSerializedProperties<T extends IDataObject>(record: T): T {
	const { properties } = record;
	if (typeof properties !== 'string') return record;
	for (const text of [properties, properties.replace(/"\s*=>\s*/g, '":')]) {
		try {
			const parsed: unknown = JSON.parse(text);
			if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
				return { ...record, properties: parsed };
		} catch {
			// not this form; try the next
		}
	}
	return record;
}
