/**
 * The Wootric node as an AI agent's tools, as an MCP client meets it: the workflow "MCP Server
 * Trigger with Wootric tools" (workflows/mcp-tools.json: Response → Get Many of detractors and
 * Response → Create, their parameters filled by `$fromAI`), published, and @modelcontextprotocol/sdk's
 * client over Streamable HTTP at the trigger's production URL. No language model: the tests call the
 * tools with the arguments a model would send.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import type { WorkflowFile } from '../../scripts/e2e/workflow-files';

export const MCP_WORKFLOW = JSON.parse(
	readFileSync(join(__dirname, 'workflows', 'mcp-tools.json'), 'utf8'),
) as WorkflowFile;

const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';

/** Where n8n serves the published trigger (version 2: Streamable HTTP and SSE on one URL). */
export function mcpServerUrl(n8nBaseUrl: string): string {
	const trigger = MCP_WORKFLOW.nodes.find((node) => node.type === MCP_TRIGGER_TYPE);
	if (!trigger) throw new Error(`${MCP_WORKFLOW.id} has no MCP Server Trigger`);
	return `${n8nBaseUrl}/mcp/${String(trigger.parameters.path)}`;
}

export async function connectMcpClient(url: string): Promise<Client> {
	const client = new Client({ name: 'n8n-nodes-wootric-e2e', version: '1.0.0' });
	await client.connect(new StreamableHTTPClientTransport(new URL(url)));
	return client;
}

/** A tool call's answer: whether it is an error, and its text content (parsed when JSON). */
export interface ToolAnswer {
	isError: boolean;
	text: string;
	json?: unknown;
}

/** How long a tool call may take before the test calls it hanging. */
const TOOL_CALL_TIMEOUT_MS = 30_000;

export async function callTool(
	client: Client,
	name: string,
	args: Record<string, unknown>,
): Promise<ToolAnswer> {
	const result = await client.callTool({ name, arguments: args }, undefined, {
		timeout: TOOL_CALL_TIMEOUT_MS,
	});
	const text = (result.content as Array<{ type: string; text?: string }>)
		.filter((part) => part.type === 'text')
		.map((part) => part.text ?? '')
		.join('');
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		// An error's text, or a message: kept as text.
	}
	return { isError: result.isError === true, text, json };
}
