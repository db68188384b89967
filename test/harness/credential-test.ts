import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialsDecrypted,
	IDataObject,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, Workflow, createRunExecutionData } from 'n8n-workflow';

import { recordShown } from './shown';
import { buildAdditionalData } from './additional-data';
import { InMemoryCredentialsHelper, credentialNameFor } from './credentials-helper';
import { loadPackage } from './package';
import { NodeTypeRegistry } from './type-registries';

export interface TestCredentialOptions {
	/** Defaults to this package's credential, 'wootricApi'. */
	credentialType?: string;
	/**
	 * The credential's data as the user entered it, e.g. `{ grantType, email, password, region,
	 * baseUrl }`.
	 */
	credentials: ICredentialDataDecryptedObject;
	/** The package to load; defaults to this repository. */
	packageDir?: string;
	/**
	 * Store the credential in this helper (e.g. to run a node with it afterwards); defaults to a new
	 * one.
	 */
	credentialsHelper?: InMemoryCredentialsHelper;
}

export interface CredentialTestRun extends INodeCredentialTestResult {
	/**
	 * Holds the tested credential under `credentialId`, with whatever the test saved into it
	 * (tokens).
	 */
	credentialsHelper: InMemoryCredentialsHelper;
	credentialId: string;
}

/** What n8n answers for a credential type it has no test for. */
const NO_TEST_MESSAGE = 'No testing function found for this credential.';

/**
 * The node type n8n runs a credential's test request with: its own No Operation node (type name
 * `noOp`, as n8n-nodes-base nodes are named unprefixed), given one property whose routing is the
 * test request, and the credential under test.
 */
function credentialTestNodeType(credentialType: string, test: ICredentialTestRequest): INodeType {
	return {
		description: {
			displayName: 'No Operation, do nothing',
			name: 'noOp',
			group: ['organization'],
			version: 1,
			description: 'No Operation',
			defaults: { name: 'No Operation, do nothing' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: credentialType, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: test.request },
				},
			],
		},
	};
}

/**
 * The credential under test, stored as the editor saves it before it tests, and its type's test
 * request (if it has one).
 */
async function storeCredentialUnderTest(options: TestCredentialOptions) {
	const credentialType = options.credentialType ?? 'wootricApi';
	const { credentialTypeRegistry } = await loadPackage(options.packageDir);
	const credentialsHelper =
		options.credentialsHelper ?? new InMemoryCredentialsHelper(credentialTypeRegistry);
	const credentialId = credentialsHelper.addCredential(credentialType, options.credentials);
	const { test } = credentialTypeRegistry.getByName(credentialType);
	return { credentialType, credentialsHelper, credentialId, test };
}

/**
 * Does what n8n's "Test credential" button does (CredentialsTester.testCredentials in
 * packages/cli/src/services/credentials-tester.service.ts), for a credential type whose `test` is a
 * request definition: the credential is stored first (the editor saves before it tests), its data
 * gets defaults and expressions applied in 'internal' mode, and n8n-core's RoutingNode sends the
 * test request from a one-node workflow, with the credential's real `preAuthentication` (when its
 * expirable field is empty, or after a 401) and `authenticate`. Failures come back as n8n reports
 * them: the response's status text (or "Received HTTP status code: N"), a network error code, or
 * the error's message.
 */
export async function testCredential(options: TestCredentialOptions): Promise<CredentialTestRun> {
	const { credentialType, credentialsHelper, credentialId, test } =
		await storeCredentialUnderTest(options);
	const result = await runCredentialTest(credentialsHelper, credentialType, credentialId, test);
	recordShown(result);
	return { ...result, credentialsHelper, credentialId };
}

/**
 * What n8n prepares before it sends a credential's test request: the credential's data with
 * defaults and expressions applied in 'internal' mode, and a one-node workflow holding the node
 * type that sends it.
 */
async function prepareCredentialTest(
	credentialsHelper: InMemoryCredentialsHelper,
	credentialType: string,
	credentialId: string,
	test: ICredentialTestRequest,
) {
	const nodeCredentials = { id: credentialId, name: credentialNameFor(credentialType) };
	const additionalData = buildAdditionalData({ credentialsHelper });
	const data = await credentialsHelper.getDecrypted(
		additionalData,
		nodeCredentials,
		credentialType,
		'internal',
	);
	const credentialsDecrypted: ICredentialsDecrypted = {
		...nodeCredentials,
		type: credentialType,
		data,
	};

	const nodeType = credentialTestNodeType(credentialType, test);
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: nodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType]: nodeCredentials },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new NodeTypeRegistry({ [node.type]: { type: nodeType, sourcePath: '' } }),
	});
	return { additionalData, credentialsDecrypted, nodeType, node, workflow };
}

/**
 * The host the Test button sends the credential's test request to: the request's `baseURL`
 * evaluated as RoutingNode does, by n8n's expression engine with `$credentials` the credential's
 * data as n8n prepares it.
 */
export async function credentialTestBaseUrl(options: TestCredentialOptions): Promise<unknown> {
	const { credentialType, credentialsHelper, credentialId, test } =
		await storeCredentialUnderTest(options);
	if (!test) throw new Error(`${credentialType} has no test request`);
	const { credentialsDecrypted, node, workflow } = await prepareCredentialTest(
		credentialsHelper,
		credentialType,
		credentialId,
		test,
	);
	return workflow.expression.getParameterValue(
		test.request.baseURL,
		null,
		0,
		0,
		node.name,
		[],
		'internal',
		{ $credentials: credentialsDecrypted.data },
	);
}

async function runCredentialTest(
	credentialsHelper: InMemoryCredentialsHelper,
	credentialType: string,
	credentialId: string,
	test: ICredentialTestRequest | undefined,
): Promise<INodeCredentialTestResult> {
	if (!test) return { status: 'Error', message: NO_TEST_MESSAGE };
	let prepared: Awaited<ReturnType<typeof prepareCredentialTest>>;
	try {
		prepared = await prepareCredentialTest(credentialsHelper, credentialType, credentialId, test);
	} catch (error) {
		return { status: 'Error', message: String((error as Error).message) };
	}
	const { additionalData, credentialsDecrypted, nodeType, node, workflow } = prepared;
	const inputData = { [NodeConnectionTypes.Main]: [[{ json: {} }]] };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData(),
		0,
		[],
		inputData,
		{ node, data: {}, source: null },
		[],
	);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await new RoutingNode(context, nodeType, credentialsDecrypted).runNode();
	} catch (error) {
		return describeFailure(error as TestRequestError, test);
	}
	for (const rule of test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const body = response?.[0]?.[0]?.json;
		if (valueAt(body, rule.properties.key) === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

interface TestRequestError {
	message: string;
	cause?: { response?: { status: number; statusText?: string }; code?: string };
}

/**
 * n8n's reading of a failed test request: the HTTP answer if there was one, else a network code,
 * else the message.
 */
function describeFailure(
	error: TestRequestError,
	test: ICredentialTestRequest,
): INodeCredentialTestResult {
	const response = error.cause?.response;
	if (response) {
		for (const rule of test.rules ?? []) {
			if (rule.type === 'responseCode' && rule.properties.value === response.status) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
		if (response.status < 199 || response.status > 299) {
			return {
				status: 'Error',
				message: response.statusText || `Received HTTP status code: ${response.status}`,
			};
		}
	} else if (error.cause?.code) {
		return { status: 'Error', message: error.cause.code };
	}
	return { status: 'Error', message: String(error.message) };
}

/** A dotted path into a response body, like lodash `get`. */
function valueAt(body: IDataObject | undefined, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], body);
}
