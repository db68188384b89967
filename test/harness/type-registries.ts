import { UnrecognizedCredentialTypeError, UnrecognizedNodeTypeError } from 'n8n-core';
import type {
	ICredentialType,
	ICredentialTypes,
	IDataObject,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	LoadedClass,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

export type LoadedNodeTypes = Record<string, LoadedClass<INodeType | IVersionedNodeType>>;

export type LoadedCredentialTypes = Record<string, LoadedClass<ICredentialType>>;

/**
 * The node types a harness workflow may use, keyed by full type name (`<package>.<node>`), like
 * n8n's NodeTypes service.
 */
export class NodeTypeRegistry implements INodeTypes {
	constructor(private readonly nodeTypes: LoadedNodeTypes) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const loaded = this.nodeTypes[nodeType];
		if (!loaded) {
			const [packageName, name] = nodeType.split('.');
			throw new UnrecognizedNodeTypeError(packageName, name);
		}
		return loaded.type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(
			Object.entries(this.nodeTypes).map(([name, { type, sourcePath }]) => [
				name,
				{ className: type.constructor.name, sourcePath },
			]),
		);
	}
}

/** The credential types of one community package, like n8n's CredentialTypes service. */
export class CredentialTypeRegistry implements ICredentialTypes {
	constructor(
		private readonly packageName: string,
		private readonly credentialTypes: LoadedCredentialTypes,
	) {}

	recognizes(credentialType: string): boolean {
		return credentialType in this.credentialTypes;
	}

	getByName(credentialType: string): ICredentialType {
		const loaded = this.credentialTypes[credentialType];
		if (!loaded) throw new UnrecognizedCredentialTypeError(credentialType);
		return loaded.type;
	}

	/** Full names of the nodes using the credential (the loader records their short names). */
	getSupportedNodes(credentialType: string): string[] {
		return (this.getByName(credentialType).supportedNodes ?? []).map(
			(node) => `${this.packageName}.${node}`,
		);
	}

	getParentTypes(credentialType: string): string[] {
		const parents = this.credentialTypes[credentialType]?.type.extends ?? [];
		return [...parents, ...parents.flatMap((parent) => this.getParentTypes(parent))];
	}
}
