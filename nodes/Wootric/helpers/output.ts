import type { IDataObject } from 'n8n-workflow';

/** The item for a success the API answers with an empty body (202, 204): what was done, to which record. */
export function successRecord(fields: IDataObject): IDataObject {
	return { success: true, ...fields };
}
