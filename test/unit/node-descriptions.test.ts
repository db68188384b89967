import type {
	INode,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

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

/**
 * What an AI agent reads of the Wootric tool: with Tool Description "Set Automatically" (the
 * default), n8n makes it from the chosen operation's `action`, "<action> in Wootric".
 */
describe("the Wootric node's tool descriptions", () => {
	let descriptions: Array<{ operation: string; description: string }>;

	beforeAll(async () => {
		const { nodeTypes } = await loadPackage();
		const tool = toolVariants(nodeTypes)['n8n-nodes-wootric.wootricTool'].type as INodeType;
		const operationSelectors = tool.description.properties.filter(
			(property) => property.name === 'operation',
		);
		descriptions = operationSelectors.flatMap((selector) =>
			(selector.options as INodePropertyOptions[]).map(({ value }) => {
				const resource = String(selector.displayOptions?.show?.resource?.[0]);
				const node = {
					parameters: { descriptionType: 'auto', resource, operation: value },
				} as unknown as INode;
				return {
					operation: `${resource} › ${String(value)}`,
					description: NodeHelpers.getToolDescriptionForNode(node, tool),
				};
			}),
		);
	});

	it('cover all 24 operations, each its own', () => {
		expect(descriptions).toHaveLength(24);
		expect(new Set(descriptions.map(({ description }) => description)).size).toBe(24);
	});

	it('say, for each operation, what it does and in brackets what it returns or means', () => {
		const uninformative = descriptions.filter(
			({ description }) =>
				!/^[A-Z][^()]+ \([^()]{8,}\) in Wootric$/.test(description) || description.length > 90,
		);

		expect(uninformative).toEqual([]);
	});

	it('name what the service is about where they read records: NPS, surveys or end users', () => {
		expect(
			descriptions.filter(({ description }) => !/NPS|survey|end.user/.test(description)),
		).toEqual([]);
	});
});
