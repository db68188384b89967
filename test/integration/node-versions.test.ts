import { join } from 'node:path';

import type { INode, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { EXAMPLES_FOLDER } from '../../scripts/e2e/paths';
import { readWorkflows } from '../../scripts/e2e/workflow-files';
import { loadPackage } from '../harness';

/**
 * Version 1.1 moved Simplify of two creates; workflows saved with version 1 (the examples and the
 * end-to-end workflows among them) must keep every parameter they set, as n8n reads them with the
 * node's description.
 */
describe('workflows saved with node version 1', () => {
	const savedNodes = [
		...readWorkflows(EXAMPLES_FOLDER),
		...readWorkflows(join(__dirname, '..', 'e2e', 'workflows')),
	]
		.flatMap((workflow) => workflow.nodes as INode[])
		.filter((node) => node.type === 'n8n-nodes-wootric.wootric');

	it('are there to check, all of version 1', () => {
		expect(savedNodes.length).toBeGreaterThan(10);
		expect(new Set(savedNodes.map((node) => node.typeVersion))).toEqual(new Set([1]));
	});

	it('keep every parameter they set', async () => {
		const { description } = (await loadPackage()).nodeTypes['n8n-nodes-wootric.wootric']
			.type as INodeType;
		const dropped = savedNodes.flatMap((node) => {
			const read =
				NodeHelpers.getNodeParameters(
					description.properties,
					node.parameters,
					true,
					false,
					node,
					description,
				) ?? {};
			return missingIn(node.parameters, read).map((path) => `${node.name}: ${path}`);
		});
		expect(dropped).toEqual([]);
	});
});

/** The paths of `given` (nested objects followed) that `read` lacks. */
function missingIn(given: object, read: object, prefix = ''): string[] {
	return Object.entries(given).flatMap(([key, value]) => {
		if (!(key in read)) return [`${prefix}${key}`];
		const inner = (read as Record<string, unknown>)[key];
		return value &&
			typeof value === 'object' &&
			!Array.isArray(value) &&
			inner &&
			typeof inner === 'object'
			? missingIn(value, inner, `${prefix}${key}.`)
			: [];
	});
}
