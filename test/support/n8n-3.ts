/**
 * What n8n 3.0 changes for a workflow, as n8n ships it, for the tests that keep the examples ready for
 * it (test/unit/n8n-3-readiness.test.ts; docs/maintainers/n8n-3.md). The sources: n8n 2.40.7's
 * breaking-changes rules (`dist/modules/breaking-changes/rules/v3/`), n8n-core's `WorkflowExecute`
 * and n8n-nodes-base 2.40.2's nodes (the versions the pinned n8n installs).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { WorkflowFile } from '../../scripts/e2e/workflow-files';

/** A node as a saved workflow has it, with the settings n8n 3.0's rules read. */
export type SavedNode = WorkflowFile['nodes'][number] & {
	typeVersion: number;
	alwaysOutputData?: boolean;
	onError?: string;
};

export function savedNodes(workflow: WorkflowFile): SavedNode[] {
	return workflow.nodes as SavedNode[];
}

/** A node's output: one array of items for each of its main outputs. */
export type NodeOutput = unknown[][];

const EMPTY_ITEM = { json: {} };

/**
 * Always Output Data up to n8n 2.x: the empty item whenever the first output has no item, whatever
 * the others hold (n8n-core 2.40.3, `dist/execution-engine/workflow-execute.js` lines 1017-1033,
 * `ensureAlwaysOutputData`: `if (nodeSuccessData?.[0]?.[0]) return nodeSuccessData;`).
 */
export function alwaysOutputDataUpTo2x(output: NodeOutput): NodeOutput {
	if (output[0]?.[0]) return output;
	return [[EMPTY_ITEM], ...output.slice(1)];
}

/**
 * Always Output Data from n8n 3.0: the empty item only when every output is empty (n8n-io/n8n#37055,
 * which re-lands #17602 as a breaking change; #17602 as n8n-core 1.107.0 shipped it,
 * `dist/execution-engine/workflow-execute.js` lines 989-1012:
 * `nodeSuccessData.every((data) => !data?.length)`). It counts the arrays the node returns, not the
 * outputs its description declares.
 */
export function alwaysOutputDataFrom3(output: NodeOutput): NodeOutput {
	if (output.some((items) => items.length > 0)) return output;
	return [[EMPTY_ITEM], ...output.slice(1)];
}

/**
 * The main outputs of a node type, by `type@typeVersion`, in n8n-nodes-base 2.40.2:
 * - `declared`: its description's `outputs`, which n8n's breaking-changes rule counts
 *   ('expression' where they depend on the parameters: the rule counts those as several);
 * - `returned`: how many arrays `execute()` returns, which the engine's Always Output Data looks at.
 * Filter declares one output and returns two (kept, discarded: the editor shows both).
 */
export interface NodeOutputs {
	declared: number | 'expression';
	returned: (parameters: Record<string, unknown>) => number;
}

const ONE_OUTPUT: NodeOutputs = { declared: 1, returned: () => 1 };

export const NODE_OUTPUTS: Record<string, NodeOutputs> = {
	// Jira/Jira.node.js: `outputs: [Main]` (line 28), `return [returnData]` (line 1381).
	'n8n-nodes-base.jira@1': ONE_OUTPUT,
	// Slack/V2/SlackV2.node.js: `outputs: [Main]` (line 31), `return [returnData]` (line 1196).
	'n8n-nodes-base.slack@2.4': ONE_OUTPUT,
	// HttpRequest/V3/HttpRequestV3.node.js: `return [returnItems]` (line 878).
	'n8n-nodes-base.httpRequest@4.2': ONE_OUTPUT,
	// Zendesk/Zendesk.node.js: `return [returnData]` (line 630).
	'n8n-nodes-base.zendesk@1': ONE_OUTPUT,
	// Filter/V2/FilterV2.node.js: `outputs: [Main]` (line 23), `return [keptItems, discardedItems]`
	// (line 136).
	'n8n-nodes-base.filter@2.2': { declared: 1, returned: () => 2 },
	// If/V2/IfV2.node.js: `outputs: [Main, Main]` (line 23), `return [trueItems, falseItems]` (line 136).
	'n8n-nodes-base.if@2.2': { declared: 2, returned: () => 2 },
	// SplitInBatches/v3/SplitInBatchesV3.node.js: `outputs: [Main, Main]` (line 18), done and loop
	// (lines 145, 148).
	'n8n-nodes-base.splitInBatches@3': { declared: 2, returned: () => 2 },
	// Switch/V3/SwitchV3.node.js: `outputs` an expression of the parameters (line 51); in Rules mode one
	// array per rule, and one more for the fallback output 'extra' (lines 392-396).
	'n8n-nodes-base.switch@3.2': {
		declared: 'expression',
		returned: (parameters) => {
			const rules = (parameters.rules as { values?: unknown[] } | undefined)?.values ?? [];
			const fallback = (parameters.options as { fallbackOutput?: unknown } | undefined)
				?.fallbackOutput;
			return rules.length + (fallback === 'extra' ? 1 : 0);
		},
	},
};

export const outputsKey = (node: SavedNode): string => `${node.type}@${node.typeVersion}`;

/**
 * n8n 2.40.7's rule always-output-data-multi-output-v3 (`always-output-data-multi-output.rule.js`,
 * `hasMultipleMainOutputs`): an error output, or declared outputs that are an expression or more
 * than one.
 */
export function flaggedByN8nMultiOutputRule(node: SavedNode, outputs: NodeOutputs): boolean {
	if (node.alwaysOutputData !== true) return false;
	if (node.onError === 'continueErrorOutput') return true;
	return outputs.declared === 'expression' || outputs.declared > 1;
}

/**
 * How many main outputs a node's run returns: its type's, and an error output one more (n8n-core's
 * `handleNodeErrorOutput` moves failed items there).
 */
export function returnedOutputs(node: SavedNode, outputs: NodeOutputs): number {
	return outputs.returned(node.parameters) + (node.onError === 'continueErrorOutput' ? 1 : 0);
}

/** Every output a node can give, as each array empty or holding an item. */
export function possibleOutputs(node: SavedNode, outputs: NodeOutputs): NodeOutput[] {
	const count = returnedOutputs(node, outputs);
	let shapes: NodeOutput[] = [[]];
	for (let index = 0; index < count; index++)
		shapes = shapes.flatMap((shape) => [
			[...shape, []],
			[...shape, [{ json: { index } }]],
		]);
	return shapes;
}

/** The node types n8n 3.0 removes, by the rules of n8n 2.40.7 that report them. */
export const REMOVED_NODE_TYPES: Record<string, string> = {
	// removed-nodes.rule.js
	'@n8n/n8n-nodes-langchain.documentGithubLoader': 'removed-nodes-v3',
	'@n8n/n8n-nodes-langchain.memoryMotorhead': 'removed-nodes-v3',
	'n8n-nodes-base.orbit': 'removed-nodes-v3',
	'@n8n/n8n-nodes-langchain.memoryZep': 'removed-nodes-v3',
	'@n8n/n8n-nodes-langchain.vectorStoreZep': 'removed-nodes-v3',
	'@n8n/n8n-nodes-langchain.vectorStoreZepInsert': 'removed-nodes-v3',
	'@n8n/n8n-nodes-langchain.vectorStoreZepLoad': 'removed-nodes-v3',
	// removed-nodes-with-replacements.rule.js
	'@n8n/n8n-nodes-langchain.documentBinaryInputLoader': 'binary-input-loader-removed-v3',
	'@n8n/n8n-nodes-langchain.memoryChatRetriever': 'chat-messages-retriever-removed-v3',
	'n8n-nodes-base.moveBinaryData': 'convert-to-from-binary-data-removed-v3',
	'n8n-nodes-base.cron': 'cron-removed-v3',
	'n8n-nodes-base.function': 'function-removed-v3',
	'n8n-nodes-base.functionItem': 'function-item-removed-v3',
	'n8n-nodes-base.htmlExtract': 'html-extract-removed-v3',
	'@n8n/n8n-nodes-langchain.toolHttpRequest': 'http-request-tool-removed-v3',
	'n8n-nodes-base.iCal': 'i-calendar-removed-v3',
	'n8n-nodes-base.itemLists': 'item-lists-removed-v3',
	'@n8n/n8n-nodes-langchain.vectorStoreInMemoryInsert': 'in-memory-vector-store-insert-removed-v3',
	'@n8n/n8n-nodes-langchain.vectorStoreInMemoryLoad': 'in-memory-vector-store-load-removed-v3',
	'n8n-nodes-base.interval': 'interval-removed-v3',
	'@n8n/n8n-nodes-langchain.documentJsonInputLoader': 'json-input-loader-removed-v3',
	'@n8n/n8n-nodes-langchain.manualChatTrigger': 'manual-chat-trigger-removed-v3',
	'@n8n/n8n-nodes-langchain.openAiAssistant': 'openai-assistant-removed-v3',
	'n8n-nodes-base.openAi': 'openai-removed-v3',
	'@n8n/n8n-nodes-langchain.lmOpenAi': 'openai-model-removed-v3',
	'@n8n/n8n-nodes-langchain.vectorStorePineconeInsert': 'pinecone-insert-removed-v3',
	'@n8n/n8n-nodes-langchain.vectorStorePineconeLoad': 'pinecone-load-removed-v3',
	'n8n-nodes-base.readBinaryFile': 'read-binary-file-removed-v3',
	'n8n-nodes-base.readBinaryFiles': 'read-binary-files-removed-v3',
	'n8n-nodes-base.readPDF': 'read-pdf-removed-v3',
	'@n8n/n8n-nodes-langchain.toolSerpApi': 'serpapi-google-search-removed-v3',
	'@n8n/n8n-nodes-langchain.vectorStoreSupabaseInsert': 'supabase-insert-removed-v3',
	'@n8n/n8n-nodes-langchain.vectorStoreSupabaseLoad': 'supabase-load-removed-v3',
	'n8n-nodes-base.workflowTrigger': 'workflow-trigger-removed-v3',
	'n8n-nodes-base.writeBinaryFile': 'write-binary-file-removed-v3',
};

const EXECUTE_WORKFLOW = 'n8n-nodes-base.executeWorkflow';
const AGENT = '@n8n/n8n-nodes-langchain.agent';
const CHAT_TRIGGERS = ['@n8n/n8n-nodes-langchain.chatTrigger', 'n8n-nodes-langchain.chatTrigger'];

/**
 * n8n 2.40.7's v3 rules that look at a workflow's nodes and settings alone, each as its
 * `detectWorkflow` decides, by rule id. always-output-data-multi-output-v3 needs the node types'
 * outputs: the test applies it with NODE_OUTPUTS.
 */
export const STATIC_WORKFLOW_RULES: Record<
	string,
	(node: SavedNode, workflow: WorkflowFile) => boolean
> = {
	// agent-node-version.rule.js and agent-removed-modes.rule.js (agent-node-mode.js): an AI Agent
	// below version 2, with or without one of the removed modes.
	'agent-node-version-v3 / agent-removed-modes-v3': (node) =>
		node.type === AGENT && node.typeVersion < 2,
	// ai-transform-deprecated.rule.js
	'ai-transform-deprecated-v3': (node) => node.type === 'n8n-nodes-base.aiTransform',
	// caller-policy-any-removed.rule.js: the workflow's own settings.
	'caller-policy-any-removed-v3': (_node, workflow) =>
		(workflow.settings as { callerPolicy?: string } | undefined)?.callerPolicy === 'any',
	// chat-trigger-embedded-json.rule.js: Chat Trigger in Embedded Chat mode.
	'chat-trigger-embedded-json-v3': (node) =>
		CHAT_TRIGGERS.includes(node.type) && node.parameters.mode === 'webhook',
	// execute-workflow-each-mode.rule.js: Execute Sub-workflow's "Run once for each item", `mode:
	// 'each'` (n8n-nodes-base 2.40.2, ExecuteWorkflow/ExecuteWorkflow/ExecuteWorkflow.node.js lines
	// 285-303; 'once' is the default).
	'execute-workflow-each-mode-v3': (node) =>
		node.type === EXECUTE_WORKFLOW && node.parameters.mode === 'each',
	// execute-workflow-source-modes.rule.js: the Local File and URL sources.
	'execute-workflow-source-modes-v3': (node) =>
		node.type === EXECUTE_WORKFLOW && ['localFile', 'url'].includes(String(node.parameters.source)),
	// get-paired-item.rule.js: anywhere in the node's parameters.
	'get-paired-item-v3': (node) => JSON.stringify(node.parameters ?? {}).includes('$getPairedItem'),
	// gmail-trigger-version.rule.js
	'gmail-trigger-version-v3': (node) =>
		node.type === 'n8n-nodes-base.gmailTrigger' && node.typeVersion < 1.4,
	// removed-nodes.rule.js and removed-nodes-with-replacements.rule.js
	'removed-nodes-v3 and the *-removed-v3 rules': (node) => node.type in REMOVED_NODE_TYPES,
};

/** The Markdown files users read: README.md and docs/, with docs/maintainers/. */
export function userDocs(repoRoot: string): Array<{ file: string; text: string }> {
	const docs = ['README.md'];
	const walk = (folder: string) => {
		for (const entry of readdirSync(join(repoRoot, folder), { withFileTypes: true })) {
			const path = `${folder}/${entry.name}`;
			if (entry.isDirectory()) walk(path);
			else if (entry.name.endsWith('.md')) docs.push(path);
		}
	};
	walk('docs');
	return docs.map((file) => ({ file, text: readFileSync(join(repoRoot, file), 'utf8') }));
}

/** The workflows a Markdown text shows in its code blocks: each block that parses as one. */
export function workflowsInMarkdown(markdown: string): WorkflowFile[] {
	const blocks = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((match) => match[1]);
	return blocks.flatMap((block) => {
		try {
			const parsed = JSON.parse(block) as Partial<WorkflowFile>;
			return Array.isArray(parsed.nodes) ? [parsed as WorkflowFile] : [];
		} catch {
			return [];
		}
	});
}
