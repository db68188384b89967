import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { wootricBaseUrl } from '../../../credentials/WootricApi.credentials';

export type WootricContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** One authenticated request to the Wootric API; `path` starts with /v1. */
export async function wootricApiRequest(
	this: WootricContext,
	method: IHttpRequestMethods,
	path: string,
	qs: IDataObject = {},
	itemIndex?: number,
): Promise<unknown> {
	const credentials = await this.getCredentials('wootricApi');
	try {
		return await this.helpers.httpRequestWithAuthentication.call(this, 'wootricApi', {
			method,
			url: `${wootricBaseUrl(credentials)}${path}`,
			qs,
			json: true,
		});
	} catch (error) {
		throw new NodeApiError(this.getNode(), error as JsonObject, { itemIndex });
	}
}
