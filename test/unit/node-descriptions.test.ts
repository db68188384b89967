import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers, nodeNameToToolName } from 'n8n-workflow';

import { loadPackage } from '../harness';
import { toolVariants } from '../harness/as-tool';

/** n8n's UX guidelines: a hint is shorter than this. */
const HINT_MAX_LENGTH = 120;

type Entry = INodeProperties | INodePropertyOptions | INodePropertyCollection;

const isProperty = (entry: Entry): entry is INodeProperties =>
	'type' in entry && 'default' in entry;

interface Parameter {
	parameter: INodeProperties;
	/** Where it is, e.g. `Wootric › Filters › Created`. */
	at: string;
	/** Whether it is a field of a collection or fixedCollection. */
	inCollection: boolean;
}

/** Every parameter of a description, the fields of collections and fixedCollections included. */
function* parametersOf(
	properties: INodeProperties[],
	path: string,
	inCollection = false,
): Generator<Parameter> {
	for (const parameter of properties) {
		// Poll Times is n8n's own, added to every polling trigger.
		if (parameter.name === 'pollTimes') continue;
		const at = `${path} › ${parameter.displayName}`;
		yield { parameter, at, inCollection };
		for (const option of parameter.options ?? []) {
			if (isProperty(option)) yield* parametersOf([option], at, true);
			else if ('values' in option)
				yield* parametersOf(option.values, `${at} › ${option.displayName}`, true);
		}
	}
}

/**
 * What a parameter breaks of n8n's UX guidelines: a hint of 120 characters or more; an entry of an
 * options or multiOptions list without a description (not the Resource and Operation selectors:
 * n8n lists resources by name and shows an operation's `action`); a collection field without one.
 */
function problemsOf({ parameter, at, inCollection }: Parameter): string[] {
	const problems: string[] = [];
	if (parameter.hint !== undefined && parameter.hint.length >= HINT_MAX_LENGTH)
		problems.push(`${at}: hint of ${parameter.hint.length} characters`);
	const isSelector = parameter.name === 'resource' || parameter.name === 'operation';
	if ((parameter.type === 'options' || parameter.type === 'multiOptions') && !isSelector) {
		for (const option of (parameter.options ?? []) as INodePropertyOptions[]) {
			if (!option.description?.trim()) problems.push(`${at} › ${option.name}: no description`);
		}
	}
	if (inCollection && parameter.type !== 'notice' && !parameter.description?.trim())
		problems.push(`${at}: no description`);
	return problems;
}

/** The built nodes' descriptions (dist/, as n8n loads them) against n8n's UX guidelines. */
describe('node descriptions', () => {
	let descriptions: INodeTypeDescription[];

	beforeAll(async () => {
		const { nodeTypes } = await loadPackage();
		descriptions = Object.values(nodeTypes).map(({ type }) => (type as INodeType).description);
	});

	it('are the three nodes', () => {
		expect(descriptions.map((description) => description.name).sort()).toEqual([
			'wootric',
			'wootricTrigger',
			'wootricWebhookTrigger',
		]);
	});

	it('keep hints under 120 characters and describe every choice and collection field', () => {
		const problems = descriptions.flatMap((description) =>
			[...parametersOf(description.properties, description.displayName)].flatMap(problemsOf),
		);

		expect(problems).toEqual([]);
	});
});

interface ToolOperation {
	/** `resource › operation`, e.g. `response › create`. */
	operation: string;
	action: string;
	/** The node's parameters as n8n resolves them for a run (defaults filled in). */
	parameters: INodeParameters;
}

/**
 * The Wootric node as an AI agent's tool (the variant n8n's loader makes, test/harness/as-tool.ts)
 * and each of its operations, with the parameters n8n resolves for a node that sets only Resource
 * and Operation (n8n-workflow's getNodeParameters, as `new Workflow()` does).
 */
async function loadToolOperations(): Promise<{ tool: INodeType; operations: ToolOperation[] }> {
	const { nodeTypes } = await loadPackage();
	const tool = toolVariants(nodeTypes)['n8n-nodes-wootric.wootricTool'].type as INodeType;
	const node = { typeVersion: tool.description.defaultVersion } as INode;
	const operations = tool.description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((selector) =>
			(selector.options as INodePropertyOptions[]).map(({ value, action }) => {
				const resource = String(selector.displayOptions?.show?.resource?.[0]);
				const parameters = NodeHelpers.getNodeParameters(
					tool.description.properties,
					{ resource, operation: value },
					true,
					false,
					node,
					tool.description,
				)!;
				return { operation: `${resource} › ${String(value)}`, action: String(action), parameters };
			}),
		);
	return { tool, operations };
}

/**
 * What an AI agent reads of each Wootric tool: the operation's Tool Description, which says what it
 * does and what it returns; n8n's automatic one ("<action> in Wootric") says only the former.
 */
describe("the Wootric node's tool descriptions", () => {
	let tool: INodeType;
	let operations: ToolOperation[];

	beforeAll(async () => ({ tool, operations } = await loadToolOperations()));

	const descriptionOf = (parameters: INodeParameters) =>
		NodeHelpers.getToolDescriptionForNode({ parameters } as INode, tool);

	it('cover all 28 operations, each its own', () => {
		const descriptions = operations.map(({ parameters }) => descriptionOf(parameters));

		expect(descriptions).toHaveLength(28);
		expect(new Set(descriptions).size).toBe(28);
	});

	it('start with "<action> in Wootric" and say what the operation returns', () => {
		const uninformative = operations
			.map(({ operation, action, parameters }) => ({
				operation,
				action,
				description: descriptionOf(parameters),
			}))
			.filter(
				({ action, description }) =>
					!description.startsWith(`${action} in Wootric`) ||
					!/\. Returns [^.]{10,}\.$/.test(description) ||
					description.length > 200,
			);

		expect(uninformative).toEqual([]);
	});

	it('left empty, are n8n\'s automatic ones: "<action> in Wootric"', () => {
		const emptied = operations.map(({ parameters }) =>
			descriptionOf({ ...parameters, toolDescription: '' }),
		);

		expect(emptied).toEqual(operations.map(({ action }) => `${action} in Wootric`));
	});

	it('are a parameter of the tool only, not of the node in a workflow', async () => {
		const { nodeTypes } = await loadPackage();
		const plain = (nodeTypes['n8n-nodes-wootric.wootric'].type as INodeType).description;
		const parameters = NodeHelpers.getNodeParameters(
			plain.properties,
			{ resource: 'response', operation: 'create' },
			true,
			false,
			{ typeVersion: plain.defaultVersion } as INode,
			plain,
		);

		expect(parameters).not.toHaveProperty('toolDescription');
		expect(operations.every(({ parameters }) => 'toolDescription' in parameters)).toBe(true);
	});
});

/** n8n's tool name rule on each version of the matrix (n8n-workflow's nodeNameToToolName). */
const TOOL_NAME_RULES: Record<string, (nodeName: string) => string> = {
	// n8n-workflow 1.120 (n8n 1.123.81), tool-helpers.js: the replacement only, any length.
	'1.123.81': (nodeName) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_'),
	// The installed n8n-workflow (2.40): also cut at 64, as in 2.41.
	'2.40.7 and 2.41.1': nodeNameToToolName,
};

/** Some model providers refuse longer tool names (OpenAI's limit, n8n's MAX_TOOL_NAME_LENGTH). */
const MAX_TOOL_NAME_LENGTH = 64;

/**
 * The tool names of new Wootric tools: n8n names a new node after its operation (`makeNodeName`:
 * "<action> in Wootric"), a second one of the same operation with the suffix "1", and a tool after
 * its node.
 */
describe("the Wootric node's tool names", () => {
	let tool: INodeType;
	let operations: ToolOperation[];

	beforeAll(async () => ({ tool, operations } = await loadToolOperations()));

	it('are made from the default node names, "<action> in Wootric"', () => {
		expect(
			operations.map(({ parameters }) => NodeHelpers.makeNodeName(parameters, tool.description)),
		).toEqual(operations.map(({ action }) => `${action} in Wootric`));
	});

	it.each(Object.entries(TOOL_NAME_RULES))(
		'on n8n %s are at most 64 characters and all distinct, also for a second node',
		(_version, toolNameOf) => {
			const nodeNames = operations.flatMap(({ parameters }) => {
				const name = NodeHelpers.makeNodeName(parameters, tool.description);
				return [name, `${name}1`];
			});
			const toolNames = nodeNames.map(toolNameOf);

			expect(toolNames.filter((name) => name.length > MAX_TOOL_NAME_LENGTH)).toEqual([]);
			expect(new Set(toolNames).size).toBe(2 * 28);
		},
	);
});
