import { UnrecognizedCredentialTypeError, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsEncrypted,
	ICredentialsExpressionResolveValues,
	ICredentialTypes,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	ICredentials,
	ICredentialsHelper,
	NodeHelpers,
	UserError,
	Workflow,
	isExpression,
	jsonParse,
} from 'n8n-workflow';

import { NodeTypeRegistry } from './type-registries';

/** One save of a credential's data, as n8n would write it to its database. */
export interface CredentialUpdate {
	id: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

/**
 * A credential as n8n's database row holds it, but as plain JSON: n8n-core's encrypting Credentials
 * class needs the encryption-key service of n8n's CLI.
 */
class StoredCredential extends ICredentials {
	declare id: string;

	async getData(): Promise<ICredentialDataDecryptedObject> {
		return jsonParse<ICredentialDataDecryptedObject>(this.data ?? '{}');
	}

	async setData(data: ICredentialDataDecryptedObject): Promise<void> {
		this.data = JSON.stringify(data);
	}

	async updateData(
		toUpdate: ICredentialDataDecryptedObject,
		toDelete: string[] = [],
	): Promise<void> {
		const data = { ...(await this.getData()), ...toUpdate };
		for (const key of toDelete) delete data[key];
		await this.setData(data);
	}

	getDataToSave(): ICredentialsEncrypted {
		return { id: this.id, name: this.name, type: this.type, data: this.data };
	}
}

/** The name a stored credential gets, as n8n names a new one. */
export function credentialNameFor(type: string): string {
	return `${type} account`;
}

/**
 * Stands in for the workflow node when n8n resolves credential expressions outside a node run
 * (polls, load options).
 */
const CREDENTIAL_EXPRESSION_NODE: INode = {
	id: '',
	name: '',
	type: 'n8n-harness.credentialExpressions',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/**
 * Does for the harness what n8n's CLI CredentialsHelper (packages/cli/src/credentials-helper.ts)
 * does, with an in-memory store by credential id instead of the encrypted database table: hands
 * nodes the stored data with defaults and expressions applied, runs `preAuthentication` and saves
 * its result, and applies generic `authenticate` definitions.
 */
export class InMemoryCredentialsHelper extends ICredentialsHelper {
	/**
	 * Every save n8n would write to its database (e.g. a token `preAuthentication` fetched), oldest
	 * first.
	 */
	readonly updates: CredentialUpdate[] = [];

	/** How many times a credential type's `preAuthentication` ran. */
	preAuthenticationRuns = 0;

	private readonly stored = new Map<string, StoredCredential>();

	/** What the next credential reads wait for, one each (holdNextRead). */
	private readonly heldReads: Array<Promise<unknown>> = [];

	/** The next read of a credential's data returns once `until` settles: a slow read. */
	holdNextRead(until: Promise<unknown>): void {
		this.heldReads.push(until);
	}

	/** Reads held until `expected` have come, then released in `order` (holdReadsTogether). */
	private readGate?: {
		expected: number;
		arrived: Array<() => void>;
		order: (count: number) => number[][];
	};

	/**
	 * The next `count` reads of a credential's data wait until all of them have come, then go in
	 * `order(count)`'s groups: the reads of one group resolve in the same turn of the event loop, and
	 * everything they let run, runs before the next group's. For copies of a webhook arriving
	 * together, interleaved at the node's first await as a model chooses.
	 */
	holdReadsTogether(count: number, order: (count: number) => number[][]): void {
		this.readGate = { expected: count, arrived: [], order };
	}

	private async passReadGate(): Promise<void> {
		const gate = this.readGate;
		if (gate === undefined) return;
		await new Promise<void>((resolve) => {
			gate.arrived.push(resolve);
			if (gate.arrived.length < gate.expected) return;
			this.readGate = undefined;
			void (async () => {
				for (const group of gate.order(gate.expected)) {
					for (const index of group) gate.arrived[index]();
					for (let turn = 0; turn < 8; turn++) await new Promise((next) => setImmediate(next));
				}
			})();
		});
	}

	private lastId = 0;

	constructor(
		private readonly credentialTypes: ICredentialTypes,
		private readonly onUpdate?: (update: CredentialUpdate) => void,
	) {
		super();
	}

	/** Stores a credential as if a user had created it; returns its id. */
	addCredential(type: string, data: ICredentialDataDecryptedObject): string {
		if (!this.credentialTypes.recognizes(type)) throw new UnrecognizedCredentialTypeError(type);
		const id = String(++this.lastId);
		this.stored.set(
			id,
			new StoredCredential({ id, name: credentialNameFor(type) }, type, JSON.stringify(data)),
		);
		return id;
	}

	/** The data stored now for a credential, including what n8n saved into it. */
	async getCredentialData(id: string): Promise<ICredentialDataDecryptedObject> {
		const credential = this.stored.get(id);
		if (!credential) throw new UserError(`Credential with ID "${id}" does not exist.`);
		return await credential.getData();
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		if (!this.credentialTypes.getByName(credentialType).restrictToSupportedNodes) return true;
		return this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node)
				throw new UserError('Workflow and node are required for generic credential authentication');
			// Each `properties` group (headers, qs, body, auth) is merged into the same-named request
			// option, keys and values resolved as expressions over `$credentials`.
			const options = requestOptions as unknown as Record<string, Record<string, string>>;
			for (const [optionName, entries] of Object.entries(authenticate.properties)) {
				options[optionName] ??= {};
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					const resolvedKey = this.resolveAuthenticateValue(key, credentials, workflow, node);
					options[optionName][resolvedKey] = this.resolveAuthenticateValue(
						value,
						credentials,
						workflow,
						node,
					);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	/**
	 * n8n-core calls this before every authenticated request (`credentialsExpired` false) and again
	 * after a 401 (`credentialsExpired` true, then it retries once). Like n8n, the credential type's
	 * hook runs only when its expirable hidden field is empty or the credentials expired; what it
	 * returns is saved into the stored credential and merged into the data the request uses.
	 */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirableProperty = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirableProperty || typeof credentialType.preAuthentication !== 'function')
			return undefined;
		if (credentials[expirableProperty.name] !== '' && !credentialsExpired) return undefined;

		const output = await this.runPreAuthentication(helpers, credentials, typeName);
		// n8n only saves an output that sets the expirable field.
		if (output?.[expirableProperty.name] === undefined) return undefined;
		const nodeCredentials = node.credentials?.[typeName];
		if (!nodeCredentials) return undefined;

		const storedData = await this.find(nodeCredentials, typeName).getData();
		const dataToSave = { ...storedData };
		for (const [key, value] of Object.entries(output)) {
			// A field the user stored as an expression keeps its expression; the expirable field is
			// always saved.
			if (key === expirableProperty.name || !isExpression(storedData[key])) dataToSave[key] = value;
		}
		await this.updateCredentials(nodeCredentials, typeName, dataToSave);
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const { preAuthentication } = this.credentialTypes.getByName(typeName);
		if (typeof preAuthentication !== 'function') return undefined;
		this.preAuthenticationRuns++;
		// Like n8n, the hook gets only the helper IHttpRequestHelper declares, not the node's whole
		// helper bag.
		const requestHelper: IHttpRequestHelper = {
			helpers: { httpRequest: helpers.helpers.httpRequest },
		};
		return (await preAuthentication.call(requestHelper, credentials)) as
			| ICredentialDataDecryptedObject
			| undefined;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		return this.find(nodeCredentials, type);
	}

	/**
	 * What a node's `getCredentials` returns: the stored data, plus defaults for properties the user
	 * left unset, minus properties their displayOptions hide, with expressions resolved — as n8n
	 * does.
	 */
	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		await this.heldReads.shift();
		await this.passReadGate();
		const storedData = await this.find(nodeCredentials, type).getData();
		if (raw) return storedData;

		const data = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			storedData as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				expressionResolveValues;
			return workflow.expression.getParameterValue(
				data as INodeParameters,
				runExecutionData,
				runIndex,
				itemIndex,
				node.name,
				connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				data,
			) as ICredentialDataDecryptedObject;
		}
		// Outside a node run there is no workflow data to resolve against: n8n uses an empty workflow.
		const workflow = new Workflow({
			nodes: [],
			connections: {},
			active: false,
			nodeTypes: new NodeTypeRegistry({}),
		});
		return workflow.expression.getComplexParameterValue(
			CREDENTIAL_EXPRESSION_NODE,
			data as INodeParameters,
			mode,
			additionalKeys,
			undefined,
			undefined,
			data,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const credential = this.find(nodeCredentials, type);
		await credential.setData(data);
		await this.recordUpdate(credential);
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const credential = this.find(nodeCredentials, type);
		await credential.updateData({ oauthTokenData: data.oauthTokenData });
		await this.recordUpdate(credential);
	}

	/** The credential type's properties, after those of the types it extends. */
	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.credentialTypes.getByName(type);
		if (!credentialType.extends) return credentialType.properties;
		const properties: INodeProperties[] = [];
		for (const parentType of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(properties, this.getCredentialsProperties(parentType));
		}
		NodeHelpers.mergeNodeProperties(properties, credentialType.properties);
		return properties;
	}

	private find({ id }: INodeCredentialsDetails, type: string): StoredCredential {
		const credential = id === null ? undefined : this.stored.get(id);
		if (!credential || credential.type !== type) {
			throw new UserError(`Credential with ID "${id}" does not exist for type "${type}".`);
		}
		return credential;
	}

	private async recordUpdate(credential: StoredCredential): Promise<void> {
		const update = { id: credential.id, type: credential.type, data: await credential.getData() };
		this.updates.push(update);
		this.onUpdate?.(update);
	}

	/** Resolves `={{$credentials.…}}` like n8n does for generic authenticate definitions. */
	private resolveAuthenticateValue(
		value: string,
		credentials: ICredentialDataDecryptedObject,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(value)) return value;
		const resolved = workflow.expression.getSimpleParameterValue(
			node,
			value,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		return resolved ? resolved.toString() : '';
	}
}
