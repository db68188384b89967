import { join } from 'node:path';

import type { INode, INodeParameters, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { EXAMPLES_FOLDER } from '../../scripts/e2e/paths';
import { readWorkflows } from '../../scripts/e2e/workflow-files';
import { loadPackage } from '../harness';
import { parametersAsLoaded } from '../support/wootric';

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
		// The ticket examples' Current Response is of the version it was added with (1.3).
		.filter((node) => node.type === 'n8n-nodes-wootric.wootric' && node.typeVersion === 1);

	it('are there to check', () => {
		expect(savedNodes.length).toBeGreaterThan(10);
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

/**
 * Version 1.2 picks the end user and the survey template with resource locators: a node of 1.2 reads
 * the locators and not the older fields, a node saved with 1 or 1.1 the older fields and not the
 * locators.
 */
describe('node version 1.2', () => {
	const endUser = { __rl: true, mode: 'email', value: 'ada@example.com' };
	const surveyTemplate = { __rl: true, mode: 'list', value: 501 };
	const saved = [
		{
			resource: 'endUser',
			operation: 'get',
			lookUpBy: 'email',
			email: 'ada@example.com',
			endUser,
		},
		{ resource: 'response', operation: 'getAll', scope: 'endUser', endUserId: 7, endUser },
		{ resource: 'endUserSettings', operation: 'get', endUserId: 7, endUser },
		{ resource: 'emailSurvey', operation: 'send', surveyTemplateId: 501, surveyTemplate },
	];
	const olderFields = ['lookUpBy', 'email', 'endUserId', 'surveyTemplateId'];
	const locators = ['endUser', 'surveyTemplate'];

	/** The parameters n8n keeps of `parameters` on a node of that version. */
	async function readAs(typeVersion: number, parameters: INodeParameters) {
		const read = await parametersAsLoaded(typeVersion, parameters);
		return Object.keys(parameters).filter((name) => name in read);
	}

	it.each([1, 1.1])('version %s keeps the older fields and shows no locator', async (version) => {
		for (const parameters of saved) {
			const kept = await readAs(version, parameters);
			expect(kept.filter((name) => locators.includes(name))).toEqual([]);
			expect(Object.keys(parameters).filter((name) => !kept.includes(name))).toEqual(
				locators.filter((name) => name in parameters),
			);
		}
	});

	it('version 1.2 reads the locators instead of the older fields', async () => {
		for (const parameters of saved) {
			const kept = await readAs(1.2, parameters);
			expect(kept.filter((name) => olderFields.includes(name))).toEqual([]);
			expect(Object.keys(parameters).filter((name) => !kept.includes(name))).toEqual(
				olderFields.filter((name) => name in parameters),
			);
		}
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
