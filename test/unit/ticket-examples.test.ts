import { EXAMPLES_FOLDER, REPO_ROOT } from '../../scripts/e2e/paths';
import { FakeJira } from '../../scripts/e2e/tools/jira';
import { FakeSlack } from '../../scripts/e2e/tools/slack';
import { FakeZendesk } from '../../scripts/e2e/tools/zendesk';
import { readWorkflows, type WorkflowFile } from '../../scripts/e2e/workflow-files';
import {
	example,
	setUp,
	TICKET_EXAMPLES,
	TO_SET,
	TOOL_NAMES,
	ZENDESK_SUBDOMAIN_PLACEHOLDER,
} from '../e2e-tickets/tools';
import { userDocs, workflowsInMarkdown } from '../support/n8n-3';

/**
 * The ticket examples as shipped (examples/new-detractor-to-{zendesk,jira,slack}.json): what the user
 * must set is unset, so n8n marks it and sends nothing anywhere before it is set; and the keys the
 * flow finds its tickets by are defined once. The tickets e2e runs them as `setUp` sets them up, and
 * shows n8n marking the nodes as shipped.
 */

const shipped = TOOL_NAMES.map((name) => ({ name, workflow: example(TICKET_EXAMPLES[name]) }));
const fakes = { zendesk: new FakeZendesk(), jira: new FakeJira(), slack: new FakeSlack() };
const steps = (workflow: WorkflowFile) =>
	workflow.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote');

/** Every resource locator (`{__rl: true, value, mode}`) in a node's parameters. */
function resourceLocators(
	value: unknown,
): Array<{ value: unknown; mode?: unknown; cachedResultName?: unknown }> {
	if (Array.isArray(value)) return value.flatMap(resourceLocators);
	if (typeof value !== 'object' || value === null) return [];
	const object = value as Record<string, unknown>;
	if (object.__rl === true) return [object as { value: unknown }];
	return Object.values(object).flatMap(resourceLocators);
}

describe('the ticket examples as shipped', () => {
	it('leave unset what the user sets: Jira’s project and issue type, Slack’s channel, Zendesk’s subdomain a placeholder', () => {
		const unset = shipped.flatMap(({ name, workflow }) =>
			TO_SET[name].map(({ node, parameter }) => {
				const value = workflow.nodes.find((step) => step.name === node)?.parameters[parameter];
				return { name, node, parameter, value };
			}),
		);
		expect(unset).toEqual([
			{
				name: 'zendesk',
				node: 'Find Ticket',
				parameter: 'url',
				value: `https://${ZENDESK_SUBDOMAIN_PLACEHOLDER}.zendesk.com/api/v2/tickets.json`,
			},
			...['project', 'issueType'].map((parameter) => ({
				name: 'jira',
				node: 'Open Ticket',
				parameter,
				value: { __rl: true, value: '', mode: 'list' },
			})),
			...['Find Ticket', 'Open Ticket', 'Find Comments', 'Add Comment'].map((node) => ({
				name: 'slack',
				node,
				parameter: 'channelId',
				value: { __rl: true, value: '', mode: 'list' },
			})),
		]);
	});

	it('hold no value picked from a list anywhere (an id of the fakes would make the canvas look ready)', () => {
		const picked = shipped.flatMap(({ name, workflow }) =>
			steps(workflow).flatMap((node) =>
				resourceLocators(node.parameters)
					// An expression by ID (Current Response's end user) is no pick.
					.filter(
						(locator) =>
							(locator.mode === 'list' && locator.value !== '') ||
							locator.cachedResultName !== undefined,
					)
					.map((locator) => `${name} › ${node.name}: ${JSON.stringify(locator)}`),
			),
		);
		expect(picked).toEqual([]);
	});

	it('are set up for the tests by setting exactly those, nothing else', () => {
		for (const { name, workflow } of shipped) {
			const set = setUp(name, workflow, fakes[name]);
			const changed = workflow.nodes.flatMap((node, index) =>
				Object.keys({ ...node.parameters, ...set.nodes[index].parameters })
					.filter(
						(parameter) =>
							JSON.stringify(node.parameters[parameter]) !==
							JSON.stringify(set.nodes[index].parameters[parameter]),
					)
					.map((parameter) => ({ node: node.name, parameter })),
			);
			expect({ name, changed }).toEqual({ name, changed: TO_SET[name] });
			expect({ ...set, nodes: [] }).toEqual({ ...workflow, nodes: [] });
		}
	});

	it('define each key and mark once: the response and claim keys in Keys, the comment mark in Comment; every other node reads them there', () => {
		const fieldsOf = (workflow: WorkflowFile, name: string) =>
			(
				workflow.nodes.find((node) => node.name === name)?.parameters.assignments as {
					assignments: Array<{ name: string; value: string }>;
				}
			).assignments;
		for (const { name, workflow } of shipped) {
			expect({ name, keys: fieldsOf(workflow, 'Keys').slice(0, 2) }).toEqual({
				name,
				keys: [
					expect.objectContaining({
						name: 'responseKey',
						value: '=wootric-response-{{ $json.id }}',
					}),
					expect.objectContaining({
						name: 'claimKey',
						value: '=wootric-claim-{{ $workflow.id }}-{{ $json.id }}',
					}),
				],
			});
			expect({ name, comment: fieldsOf(workflow, 'Comment')[0] }).toEqual({
				name,
				comment: expect.objectContaining({
					name: 'commentMark',
					value: expect.stringContaining("'wootric-comment-' + $json.text.hash('md5')"),
				}),
			});
			const elsewhere = steps(workflow)
				.filter((node) => node.name !== 'Keys' && node.name !== 'Comment')
				.filter((node) =>
					/hash\(|wootric[-_](response|claim|ticket)[-_]'|wootric[-_](response|claim|ticket)[-_]\{\{/.test(
						JSON.stringify(node.parameters),
					),
				)
				.map((node) => node.name);
			expect({ name, elsewhere }).toEqual({ name, elsewhere: [] });
		}
	});
});

describe('every workflow of the examples and the docs', () => {
	const workflows = [
		...readWorkflows(EXAMPLES_FOLDER),
		...userDocs(REPO_ROOT).flatMap(({ text }) => workflowsInMarkdown(text)),
	];

	it('sends a credential only to a host the user sets: a fixed URL with a credential is a placeholder no host can be', () => {
		const withCredential = workflows.flatMap((workflow) =>
			workflow.nodes
				.filter((node) => node.credentials && typeof node.parameters.url === 'string')
				.map((node) => ({ workflow: workflow.name, node: node.name, url: node.parameters.url })),
		);
		expect(withCredential.map(({ workflow, node }) => `${workflow} › ${node}`)).toEqual([
			'New detractor → Zendesk ticket › Find Ticket',
		]);
		for (const { url } of withCredential) {
			// An expression would be a host n8n computes: none here.
			expect(String(url).startsWith('=')).toBe(false);
			expect(() => new URL(String(url))).toThrow('Invalid URL');
		}
	});
});
