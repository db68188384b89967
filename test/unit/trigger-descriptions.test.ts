import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { loadPackage } from '../harness';

const POLLING = 'n8n-nodes-wootric.wootricTrigger';
const WEBHOOK = 'n8n-nodes-wootric.wootricWebhookTrigger';
const VERSIONS = [1, 1.1];

async function descriptionOf(type: string): Promise<INodeTypeDescription> {
	return ((await loadPackage()).nodeTypes[type].type as INodeType).description;
}

const propertyNamed = (description: INodeTypeDescription, name: string) =>
	description.properties.find((property) => property.name === name) as INodeProperties;

/**
 * The display names of the fields the editor shows for `parameters` on a node of `typeVersion`: at
 * the top, or in the collection `collection` (its options, as its Add Option list offers them).
 */
function shownInEditor(
	description: INodeTypeDescription,
	parameters: INodeParameters,
	typeVersion: number,
	collection?: string,
): string[] {
	const node = { parameters, typeVersion } as unknown as INode;
	const fields = collection
		? (propertyNamed(description, collection).options as INodeProperties[])
		: description.properties;
	return fields
		.filter((field) =>
			NodeHelpers.displayParameterPath(
				{ parameters },
				field,
				collection ? `parameters.${collection}` : 'parameters',
				node,
				description,
			),
		)
		.map((field) => field.displayName);
}

/** What n8n keeps of `parameters` when it runs the workflow: a field not shown is dropped. */
function keptAtRunTime(
	description: INodeTypeDescription,
	parameters: INodeParameters,
	typeVersion: number,
): INodeParameters {
	const node = { parameters, typeVersion } as unknown as INode;
	return (
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			false,
			false,
			node,
			description,
		) ?? {}
	);
}

/**
 * Options show only when they act, on every version, in the editor and alike when n8n runs the
 * workflow (it drops a field that is not shown, so a hidden one cannot act).
 */
describe.each(VERSIONS)('trigger options shown only when they act (version %s)', (version) => {
	let polling: INodeTypeDescription;
	let webhook: INodeTypeDescription;

	beforeAll(async () => {
		[polling, webhook] = await Promise.all([descriptionOf(POLLING), descriptionOf(WEBHOOK)]);
	});

	const options = (description: INodeTypeDescription, parameters: INodeParameters) =>
		shownInEditor(description, parameters, version, 'options');

	it('Wootric Trigger: Wait Until Complete and Treat as Complete After (the rule both triggers share) with Response Created', () => {
		const wait = 'Wait Until Complete';
		const treat = 'Treat as Complete After (Minutes)';

		expect(options(polling, { events: ['response'] })).toEqual(
			expect.arrayContaining([wait, treat]),
		);
		expect(
			options(polling, { events: ['response'], options: { waitUntilComplete: true } }),
		).toEqual(expect.arrayContaining([wait, treat]));
		expect(
			options(polling, {
				events: ['responseUpdated', 'decline'],
				options: { waitUntilComplete: true },
			}),
		).not.toContain(wait);
		expect(
			options(polling, {
				events: ['responseUpdated', 'decline'],
				options: { waitUntilComplete: true },
			}),
		).not.toContain(treat);
	});

	it('Wootric Trigger: Lookback with Response Created or Decline Created, not with Response Updated alone', () => {
		const lookback = 'Lookback (Minutes)';

		expect(options(polling, { events: ['response'] })).toContain(lookback);
		expect(options(polling, { events: ['decline'] })).toContain(lookback);
		expect(options(polling, { events: ['responseUpdated'] })).not.toContain(lookback);
	});

	it('Wootric Webhook Trigger: Treat as Complete After with Response Created', () => {
		const treat = 'Treat as Complete After (Minutes)';

		expect(options(webhook, { events: ['response'] })).toContain(treat);
		expect(options(webhook, { events: ['responseUpdated', 'decline'] })).not.toContain(treat);
	});

	it.each([
		['Wootric Trigger', POLLING],
		['Wootric Webhook Trigger', WEBHOOK],
	])('%s: Filters with a response event, not with Decline Created alone', async (_, type) => {
		const description = await descriptionOf(type);
		const top = (events: string[]) => shownInEditor(description, { events }, version);

		expect(top(['response'])).toContain('Filters');
		expect(top(['responseUpdated'])).toContain('Filters');
		expect(top(['decline'])).not.toContain('Filters');
	});

	it('n8n keeps what is shown when it runs the workflow, and drops what is not', () => {
		const options = { waitUntilComplete: true, completeAfterMinutes: 10, lookbackMinutes: 5 };
		const filters = { onlyWithComment: true };

		expect(keptAtRunTime(polling, { events: ['response'], filters, options }, version)).toEqual(
			expect.objectContaining({ filters, options }),
		);
		expect(
			keptAtRunTime(polling, { events: ['responseUpdated'], filters, options }, version),
		).toEqual(expect.objectContaining({ filters, options: {} }));
		expect(keptAtRunTime(polling, { events: ['decline'], filters, options }, version)).toEqual(
			expect.objectContaining({ options: { lookbackMinutes: 5 } }),
		);
		expect(
			keptAtRunTime(polling, { events: ['decline'], filters, options }, version),
		).not.toHaveProperty('filters');
		expect(
			keptAtRunTime(
				webhook,
				{ events: ['response'], filters, options: { completeAfterMinutes: 10 } },
				version,
			),
		).toEqual(expect.objectContaining({ options: { completeAfterMinutes: 10 } }));
		expect(
			keptAtRunTime(
				webhook,
				{ events: ['responseUpdated'], filters, options: { completeAfterMinutes: 10 } },
				version,
			),
		).toEqual(expect.objectContaining({ options: {} }));
	});

	it('Simplify: one option, described as this version treats it', () => {
		const simplify = (description: INodeTypeDescription) =>
			(propertyNamed(description, 'options').options as INodeProperties[]).filter(
				(option) =>
					option.name === 'simplify' &&
					NodeHelpers.displayParameterPath(
						{ parameters: {} },
						option,
						'parameters.options',
						{ typeVersion: version } as INode,
						description,
					),
			);

		for (const description of [polling, webhook]) {
			const shown = simplify(description);
			expect(shown).toHaveLength(1);
			expect(shown[0].description).toMatch(
				version === 1 ? /add nps_category/ : /only the main fields/,
			);
		}
	});
});

/** A workflow moves between the two triggers unchanged: both show the same names for the same values. */
describe('both triggers, one vocabulary', () => {
	let polling: INodeTypeDescription;
	let webhook: INodeTypeDescription;

	beforeAll(async () => {
		[polling, webhook] = await Promise.all([descriptionOf(POLLING), descriptionOf(WEBHOOK)]);
	});

	const namesOf = (options: INodePropertyOptions[]) =>
		options.map(({ name, value }) => `${String(value)}: ${name}`);

	it('name the events alike, as n8n names events ("Response Created")', () => {
		const events = (description: INodeTypeDescription) =>
			namesOf(propertyNamed(description, 'events').options as INodePropertyOptions[]);

		expect(events(polling)).toEqual([
			'decline: Decline Created',
			'response: Response Created',
			'responseUpdated: Response Updated',
		]);
		expect(events(webhook)).toEqual(events(polling));
	});

	it('show the same Filters, and the options both have under the same names', () => {
		expect(propertyNamed(webhook, 'filters')).toEqual(propertyNamed(polling, 'filters'));
		const optionNames = (description: INodeTypeDescription) =>
			new Map(
				(propertyNamed(description, 'options').options as INodeProperties[]).map((option) => [
					option.name,
					option.displayName,
				]),
			);
		const pollingOptions = optionNames(polling);
		const shared = [...optionNames(webhook)].filter(([name]) => pollingOptions.has(name));

		expect(shared.map(([name]) => name).sort()).toEqual(['completeAfterMinutes', 'simplify']);
		for (const [name, displayName] of shared) expect(pollingOptions.get(name)).toBe(displayName);
	});

	it('say "Response Created", never "New Response", wherever a user reads them', () => {
		const text = JSON.stringify([polling, webhook]);

		expect(text).not.toMatch(/New Response|Updated Response|New Decline/);
	});
});

describe('Wootric Webhook Trigger: its setup steps', () => {
	it('are shown once: in the parameters, which the trigger panel points to', async () => {
		const description = await descriptionOf(WEBHOOK);
		const steps = /Settings → Outgoing Webhooks, paste it/g;

		expect(JSON.stringify(description).match(steps)).toHaveLength(1);
		expect(propertyNamed(description, 'setupNotice').displayName).toMatch(steps);
	});
});
