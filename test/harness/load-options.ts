import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INodeParameters, INodePropertyOptions } from 'n8n-workflow';
import { UnexpectedError, Workflow } from 'n8n-workflow';

import { recordShown } from './shown';
import { buildAdditionalData } from './additional-data';
import type { InMemoryCredentialsHelper } from './credentials-helper';
import type { NodeUnderTestOptions } from './node-under-test';
import { prepareNodeUnderTest } from './node-under-test';

export interface RunLoadOptionsOptions extends Omit<NodeUnderTestOptions, 'parameters'> {
	/** The name of the method in the node type's `methods.loadOptions`, e.g. 'getSurveyTemplates'. */
	method: string;
	/**
	 * The node's parameters as the editor sends them with the request (`currentNodeParameters`): what
	 * `getCurrentNodeParameter(s)` reads. The harness adds no defaults.
	 */
	currentParameters?: INodeParameters;
	/**
	 * The parameter whose dropdown is loading, as the editor names it without its `parameters.`
	 * prefix, e.g. 'language' or 'surveySettings.language'. Only `&`-relative
	 * `getCurrentNodeParameter` lookups use it; defaults to the method name.
	 */
	parameterPath?: string;
}

export interface LoadOptionsRun {
	/** What the method returned: the dropdown's entries. */
	options: INodePropertyOptions[];
	credentialsHelper: InMemoryCredentialsHelper;
	credentialId?: string;
}

/**
 * n8n names the node it builds for these requests like this (the editor's node is not looked up).
 */
const EDITOR_REQUEST_NODE_NAME = 'Temp-Node';

/**
 * Runs a node type's `loadOptions` method the way n8n answers the editor's request for a dropdown's
 * entries (POST /rest/dynamic-node-parameters/options → DynamicNodeParametersService in
 * packages/cli): a one-node workflow holding the node with the editor's parameters and credentials,
 * base additional data carrying `currentNodeParameters`, and n8n-core's LoadOptionsContext as
 * `this` (mode 'internal', credentials read without an execution). A failure rejects, as the
 * request fails.
 */
export async function runLoadOptions(options: RunLoadOptionsOptions): Promise<LoadOptionsRun> {
	const { context, nodeTypes, credentialsHelper, credentialId } = await loadOptionsContext(
		options,
		`parameters.${options.parameterPath ?? options.method}`,
	);
	const node = context.getNode();
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const method = nodeType.methods?.loadOptions?.[options.method] as
		| ((this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>)
		| undefined;
	if (typeof method !== 'function') {
		throw new UnexpectedError('Node type does not have method defined', {
			tags: { nodeType: node.type },
			extra: { methodName: options.method },
		});
	}

	const dropdown = await method.call(context);
	recordShown(dropdown);
	return { options: dropdown, credentialsHelper, credentialId };
}

/**
 * The `this` n8n gives a node's loadOptions method for the editor's request (see runLoadOptions),
 * for the dropdown at `path`: also a real n8n context to call the node's transport with outside a
 * workflow run.
 */
export async function loadOptionsContext(
	options: Omit<NodeUnderTestOptions, 'parameters'> & { currentParameters?: INodeParameters },
	path: string,
) {
	const currentParameters = options.currentParameters ?? {};
	const { node, nodeTypes, credentialsHelper, credentialId } = await prepareNodeUnderTest({
		...options,
		parameters: currentParameters,
	});
	node.name = EDITOR_REQUEST_NODE_NAME;
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = buildAdditionalData({ credentialsHelper });
	additionalData.currentNodeParameters = currentParameters;
	return {
		context: new LoadOptionsContext(workflow, node, additionalData, path),
		nodeTypes,
		credentialsHelper,
		credentialId,
	};
}
