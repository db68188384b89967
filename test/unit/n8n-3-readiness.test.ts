import { EXAMPLES_FOLDER, REPO_ROOT } from '../../scripts/e2e/paths';
import { readWorkflows, type WorkflowFile } from '../../scripts/e2e/workflow-files';
import {
	NODE_OUTPUTS,
	REMOVED_NODE_TYPES,
	STATIC_WORKFLOW_RULES,
	alwaysOutputDataFrom3,
	alwaysOutputDataUpTo2x,
	flaggedByN8nMultiOutputRule,
	outputsKey,
	possibleOutputs,
	savedNodes,
	userDocs,
	workflowsInMarkdown,
	type SavedNode,
} from '../support/n8n-3';

/**
 * The examples under n8n 3.0, checked with n8n 2.x's code (docs/maintainers/n8n-3.md): Always Output
 * Data decided by every output instead of the first, and what 3.0 removes from workflows.
 */

// This page lists what 3.0 removes, by name.
const N8N_3_PAGE = 'docs/maintainers/n8n-3.md';
const docs = userDocs(REPO_ROOT).filter(({ file }) => file !== N8N_3_PAGE);
const workflows: WorkflowFile[] = [
	...readWorkflows(EXAMPLES_FOLDER),
	...docs.flatMap(({ text }) => workflowsInMarkdown(text)),
];
const nodesOf = (workflow: WorkflowFile) =>
	savedNodes(workflow).map((node) => ({ workflow, node }));
const allNodes = workflows.flatMap(nodesOf);

function alwaysOutputDataProblem(node: SavedNode): string | undefined {
	const outputs = NODE_OUTPUTS[outputsKey(node)];
	if (!outputs) return `${outputsKey(node)}'s outputs are not in NODE_OUTPUTS`;
	if (flaggedByN8nMultiOutputRule(node, outputs))
		return "flagged by n8n's rule always-output-data-multi-output-v3";
	const changes = possibleOutputs(node, outputs).some(
		(output) =>
			JSON.stringify(alwaysOutputDataUpTo2x(output)) !==
			JSON.stringify(alwaysOutputDataFrom3(output)),
	);
	return changes ? 'another output from n8n 3.0' : undefined;
}

describe('n8n 3.0: Always Output Data on nodes with several outputs', () => {
	const alwaysOutputData = allNodes.filter(({ node }) => node.alwaysOutputData === true);

	it('is set on nodes of the examples: Find Ticket (Jira, Slack)', () => {
		expect(
			alwaysOutputData.map(({ workflow, node }) => `${workflow.name} › ${node.name}`).sort(),
		).toEqual([
			'New detractor → Jira issue › Find Ticket',
			'New detractor → Slack alert › Find Ticket',
		]);
	});

	it('up to 2.x adds the empty item when the first output is empty, from 3.0 when every one is', () => {
		const item = { json: { kept: false } };
		expect(alwaysOutputDataUpTo2x([[], [item]])).toEqual([[{ json: {} }], [item]]);
		expect(alwaysOutputDataFrom3([[], [item]])).toEqual([[], [item]]);
		expect(alwaysOutputDataUpTo2x([[], []])).toEqual(alwaysOutputDataFrom3([[], []]));
		expect(alwaysOutputDataUpTo2x([[]])).toEqual(alwaysOutputDataFrom3([[]]));
	});

	it('gives every node of the examples that sets it the same output under both', () => {
		const problems = alwaysOutputData.flatMap(({ workflow, node }) => {
			const problem = alwaysOutputDataProblem(node);
			return problem ? [`${workflow.name} › ${node.name}: ${problem}`] : [];
		});
		expect(problems).toEqual([]);
	});

	it("would catch it on the examples' If, Switch and Loop Over Items nodes", () => {
		const multiOutput = allNodes.filter(({ node }) =>
			['n8n-nodes-base.if', 'n8n-nodes-base.switch', 'n8n-nodes-base.splitInBatches'].includes(
				node.type,
			),
		);
		expect(new Set(multiOutput.map(({ node }) => node.type)).size).toBe(3);
		const unnoticed = multiOutput.filter(
			({ node }) => alwaysOutputDataProblem({ ...node, alwaysOutputData: true }) === undefined,
		);
		expect(unnoticed.map(({ workflow, node }) => `${workflow.name} › ${node.name}`)).toEqual([]);
	});
});

describe('n8n 3.0: removed nodes, modes and helpers', () => {
	it.each(Object.entries(STATIC_WORKFLOW_RULES))(
		'no example and no workflow in the docs is affected by %s',
		(_rule, affects) => {
			const affected = allNodes.filter(({ workflow, node }) => affects(node, workflow));
			expect(affected.map(({ workflow, node }) => `${workflow.name} › ${node.name}`)).toEqual([]);
		},
	);

	it('the rules catch what they stand for', () => {
		const node = (type: string, parameters: Record<string, unknown> = {}, typeVersion = 1) =>
			({ id: type, name: type, type, typeVersion, position: [0, 0], parameters }) as SavedNode;
		const workflow = { id: 'w', name: 'w', nodes: [], settings: { callerPolicy: 'any' } };
		const caught = (rule: string, sample: SavedNode) =>
			STATIC_WORKFLOW_RULES[rule](sample, workflow);
		const removed = 'removed-nodes-v3 and the *-removed-v3 rules';
		expect(caught(removed, node('n8n-nodes-base.function'))).toBe(true);
		expect(caught(removed, node('n8n-nodes-base.functionItem'))).toBe(true);
		expect(caught(removed, node('n8n-nodes-base.itemLists'))).toBe(true);
		expect(caught(removed, node('n8n-nodes-base.code'))).toBe(false);
		const executeWorkflow = 'n8n-nodes-base.executeWorkflow';
		expect(caught('execute-workflow-each-mode-v3', node(executeWorkflow, { mode: 'each' }))).toBe(
			true,
		);
		expect(caught('execute-workflow-each-mode-v3', node(executeWorkflow, { mode: 'once' }))).toBe(
			false,
		);
		expect(
			caught(
				'get-paired-item-v3',
				node('n8n-nodes-base.set', { value: '={{ $getPairedItem() }}' }),
			),
		).toBe(true);
		expect(caught('caller-policy-any-removed-v3', node('n8n-nodes-base.set'))).toBe(true);
	});

	it('no doc tells of them', () => {
		const mentions = [
			'$getPairedItem',
			...Object.keys(REMOVED_NODE_TYPES),
			'Function node',
			'Function Item',
			'Item Lists',
			// Execute Sub-workflow's label; the Code node's "Run Once for Each Item" stays.
			'Run once for each item',
		];
		const found = docs.flatMap(({ file, text }) =>
			mentions.filter((mention) => text.includes(mention)).map((mention) => `${file}: ${mention}`),
		);
		expect(found).toEqual([]);
	});
});
