import type { ILoadOptionsFunctions, INodeListSearchResult, INodeParameters } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import { recordShown } from './shown';
import type { InMemoryCredentialsHelper } from './credentials-helper';
import { loadOptionsContext } from './load-options';
import type { NodeUnderTestOptions } from './node-under-test';

export interface RunListSearchOptions extends Omit<NodeUnderTestOptions, 'parameters'> {
	/** The name of the method in the node type's `methods.listSearch`, e.g. 'searchEndUsers'. */
	method: string;
	/** The resource locator whose list is loading, e.g. 'endUser'. */
	parameterPath: string;
	/** What the user typed in the list's search box. */
	filter?: string;
	/** The token the previous page returned, when the editor asks for the next one. */
	paginationToken?: string;
	/** The node's parameters as the editor sends them with the request. */
	currentParameters?: INodeParameters;
}

export interface ListSearchRun {
	/** What the method returned: the list's entries and the next page's token. */
	result: INodeListSearchResult;
	credentialsHelper: InMemoryCredentialsHelper;
	credentialId?: string;
}

/**
 * Runs a node type's `listSearch` method the way n8n answers the editor's request for a resource
 * locator's list (GET /rest/dynamic-node-parameters/resource-locator-results →
 * DynamicNodeParametersService.getResourceLocatorResults in packages/cli): the same one-node
 * workflow and LoadOptionsContext as for a dropdown, the method called with the search filter and
 * the pagination token. A failure rejects, as the request fails.
 */
export async function runListSearch(options: RunListSearchOptions): Promise<ListSearchRun> {
	const { context, nodeTypes, credentialsHelper, credentialId } = await loadOptionsContext(
		options,
		`parameters.${options.parameterPath}`,
	);
	const node = context.getNode();
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const method = nodeType.methods?.listSearch?.[options.method] as
		| ((
				this: ILoadOptionsFunctions,
				filter?: string,
				paginationToken?: string,
		  ) => Promise<INodeListSearchResult>)
		| undefined;
	if (typeof method !== 'function') {
		throw new UnexpectedError('Node type does not have method defined', {
			tags: { nodeType: node.type },
			extra: { methodName: options.method },
		});
	}

	const result = await method.call(context, options.filter, options.paginationToken);
	recordShown(result);
	return { result, credentialsHelper, credentialId };
}
