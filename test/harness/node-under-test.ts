import type {
	ICredentialDataDecryptedObject,
	INode,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import { toolVariants } from './as-tool';
import { InMemoryCredentialsHelper, credentialNameFor } from './credentials-helper';
import { loadPackage } from './package';
import type { LoadedNodeTypes } from './type-registries';
import { NodeTypeRegistry } from './type-registries';

/** Which node to run and with what: shared by `runNode` and `runPoll`. */
export interface NodeUnderTestOptions {
	/**
	 * Node name inside the package, e.g. 'wootric' (the harness adds the package prefix), or its tool
	 * variant, e.g. 'wootricTool', which runs as an AI agent's tool.
	 */
	nodeType: string;
	/** Defaults to the node's latest version. */
	nodeTypeVersion?: number;
	/** The node's parameters as n8n stores them; n8n fills in defaults for the rest. */
	parameters?: INodeParameters;
	/**
	 * Credential data to store and attach to the node, e.g. `{ grantType, email, password, region:
	 * 'custom', baseUrl }`.
	 */
	credentials?: ICredentialDataDecryptedObject;
	/** Defaults to the first credential type the node declares. */
	credentialType?: string;
	/**
	 * Reuse a helper, and the credentials it stores (with tokens saved by earlier runs), across runs.
	 */
	credentialsHelper?: InMemoryCredentialsHelper;
	/** Attach a credential `credentialsHelper` already stores (instead of storing `credentials`). */
	credentialId?: string;
	/** The package to load; defaults to this repository. */
	packageDir?: string;
	/** The workflow's time zone setting. */
	timezone?: string;
}

export interface NodeUnderTest {
	node: INode;
	nodeTypes: NodeTypeRegistry;
	credentialsHelper: InMemoryCredentialsHelper;
	credentialId?: string;
}

/**
 * Loads the package and builds the workflow node for the node under test (named and versioned as
 * n8n does when it is added to a canvas), with its credential stored in the helper.
 */
export async function prepareNodeUnderTest(
	options: NodeUnderTestOptions,
	extraNodeTypes: LoadedNodeTypes = {},
): Promise<NodeUnderTest> {
	const loadedPackage = await loadPackage(options.packageDir);
	// As n8n registers them: the package's nodes and the tool variants of those usable as tools.
	const nodeTypes = new NodeTypeRegistry({
		...loadedPackage.nodeTypes,
		...toolVariants(loadedPackage.nodeTypes),
		...extraNodeTypes,
	});
	const type = `${loadedPackage.name}.${options.nodeType}`;
	const typeVersion = options.nodeTypeVersion ?? latestVersion(nodeTypes.getByName(type));
	const { description } = nodeTypes.getByNameAndVersion(type, typeVersion);
	const credentialsHelper =
		options.credentialsHelper ??
		new InMemoryCredentialsHelper(loadedPackage.credentialTypeRegistry);

	const node: INode = {
		id: `${options.nodeType}-under-test`,
		name: description.defaults.name ?? description.displayName,
		type,
		typeVersion,
		position: [200, 0],
		parameters: options.parameters ?? {},
	};

	if (options.credentials === undefined && options.credentialId === undefined) {
		return { node, nodeTypes, credentialsHelper };
	}
	const credentialType = options.credentialType ?? description.credentials?.[0]?.name;
	if (!credentialType) throw new UserError(`Node type "${type}" declares no credentials`);
	const credentialId =
		options.credentialId ??
		credentialsHelper.addCredential(credentialType, options.credentials ?? {});
	node.credentials = {
		[credentialType]: { id: credentialId, name: credentialNameFor(credentialType) },
	};
	return { node, nodeTypes, credentialsHelper, credentialId };
}

function latestVersion(nodeType: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in nodeType) return nodeType.currentVersion;
	const { version } = nodeType.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}
