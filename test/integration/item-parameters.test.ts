import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startFakeWootric, type FakeWootric } from '../fake';
import { evaluateParameter, runNode } from '../harness';
import { credentialsFor } from '../support/wootric';

/**
 * The node reads every parameter with n8n's `getNodeParameter`, item by item: it sends what n8n's
 * evaluation gives and fails where that evaluation fails. The reference is n8n's own evaluation of
 * the same parameter on the same items (test/harness/evaluate-parameter.ts: n8n-core's
 * ExecuteContext), never a text written here.
 */
describe('parameters as n8n evaluates them, item by item', () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	const run = (parameters: INodeParameters, items: IDataObject[], continueOnFail = false) =>
		runNode({
			nodeType: 'wootric',
			parameters,
			credentials: credentialsFor(fake),
			inputItems: items.map((json) => ({ json })),
			continueOnFail,
		});

	/**
	 * n8n's evaluation of `name` for each item; each item's error message, or undefined where it
	 * gives a value.
	 */
	async function n8nErrors(
		parameters: INodeParameters,
		name: string,
		items: IDataObject[],
	): Promise<Array<string | undefined>> {
		const evaluated = await evaluateParameter({
			nodeType: 'wootric',
			parameters,
			name,
			inputItems: items,
		});
		return evaluated.map((result) => ('error' in result ? result.error.message : undefined));
	}

	/** The addresses of every survey request the fake received, request by request. */
	const surveyed = () =>
		fake
			.requestsTo('/v1/email_survey', 'POST')
			.map((request) => new URLSearchParams(request.rawBody).getAll('emails[]'));

	/**
	 * An item holding `value` under `name` as its own field, even for `__proto__` (which an object
	 * literal would not create).
	 */
	const withField = (json: IDataObject, name: string, value: unknown): IDataObject =>
		Object.defineProperty(json, name, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});

	const BLOCKED_FIELDS = [
		'constructor',
		'__proto__',
		'prototype',
		'caller',
		'arguments',
		'binding',
	];

	describe.each(BLOCKED_FIELDS)('a mapped field named %s', (field) => {
		// Item 1 maps the blocked field by name; items 0 and 2 map their email. Each item holds an
		// address under the blocked name too.
		const items = () => [
			withField({ email: 'ada@example.com', pick: 'email' }, field, 'shadow0@example.com'),
			withField({ email: 'grace@example.com', pick: field }, field, 'shadow1@example.com'),
			withField({ email: 'linus@example.com', pick: 'email' }, field, 'shadow2@example.com'),
		];
		const send = (emails: string, combineItems: boolean) => ({
			resource: 'emailSurvey',
			operation: 'send',
			emails,
			combineItems,
		});
		const createEndUser = (email: string) => ({ resource: 'endUser', operation: 'create', email });

		it.each([
			[false, [['ada@example.com'], ['linus@example.com']]],
			[true, [['ada@example.com', 'linus@example.com']]],
		])(
			'Send (Combine Items %s): with Continue On Fail, n8n’s error on the item that maps it, and the other items sent',
			async (combineItems, sent) => {
				const parameters = send('={{ $json[$json.pick] }}', combineItems);
				const errors = await n8nErrors(parameters, 'emails', items());
				expect(errors.map((error) => error !== undefined)).toEqual([false, true, false]);

				const result = await run(parameters, items(), true);

				const failed = result.items.filter(({ json }) => json.error !== undefined);
				expect(failed.map(({ json, pairedItem }) => [json.error, pairedItem])).toEqual([
					[errors[1], { item: 1 }],
				]);
				expect(surveyed()).toEqual(sent);
				expect(
					result.items
						.filter(({ json }) => json.error === undefined)
						.map(({ json }) => json.emails),
				).toEqual(sent);
			},
		);

		it.each([true, false])(
			'Send (Combine Items %s): without Continue On Fail the run fails with n8n’s error and nothing is sent',
			async (combineItems) => {
				const parameters = send('={{ $json[$json.pick] }}', combineItems);
				const errors = await n8nErrors(parameters, 'emails', items());

				const result = await run(parameters, items());

				expect(result.error?.message).toBe(errors[1]);
				expect(result.error?.context?.itemIndex).toBe(1);
				expect(fake.apiRequests()).toEqual([]);
			},
		);

		it('Send: the field mapped directly fails every item with n8n’s error, and nothing is sent', async () => {
			const parameters = send(`={{ $json.${field} }}`, false);
			const errors = await n8nErrors(parameters, 'emails', items());
			expect(errors.every((error) => error !== undefined)).toBe(true);

			const withContinue = await run(parameters, items(), true);
			const without = await run(send(`={{ $json.${field} }}`, true), items());

			expect(withContinue.items.map(({ json }) => json.error)).toEqual(errors);
			expect(without.error?.message).toBe(errors[0]);
			expect(fake.apiRequests()).toEqual([]);
		});

		it('End User → Create: n8n’s error on the item that maps it; the others are created, or with no Continue On Fail nothing is', async () => {
			const parameters = createEndUser('={{ $json[$json.pick] }}');
			const errors = await n8nErrors(parameters, 'email', items());

			const withContinue = await run(parameters, items(), true);
			const created = fake
				.requestsTo('/v1/end_users', 'POST')
				.map((request) => new URLSearchParams(request.rawBody).get('email'));
			const from = fake.apiRequests().length;
			const without = await run(parameters, items());

			expect(withContinue.items.map(({ json }) => json.error)).toEqual(errors);
			expect(created).toEqual(['ada@example.com', 'linus@example.com']);
			expect(without.error?.message).toBe(errors[1]);
			expect(fake.apiRequests().slice(from)).toEqual([]);
		});
	});

	describe('1,000 items whose mapped field holds strings, numbers, null, objects, arrays or nothing', () => {
		/** Item i's field, by i modulo 9; some items name a field n8n refuses to read. */
		const items: IDataObject[] = Array.from({ length: 1000 }, (_, index) => {
			const values = [
				`p${index}@example.com`,
				`  p${index}@example.com ; q${index}@example.com `,
				index,
				null,
				{ address: `p${index}@example.com` },
				[`p${index}@example.com`, `r${index}@example.com`],
				undefined,
				`not an address ${index}`,
				'',
			];
			const value = values[index % values.length];
			const item: IDataObject = {
				pick: index % 97 === 3 ? BLOCKED_FIELDS[index % BLOCKED_FIELDS.length] : 'email',
			};
			if (value !== undefined) item.email = value;
			return item;
		});

		/**
		 * What the node must do with n8n's value for one item: the addresses it holds (Email Addresses
		 * splits a list at , ; or a line break), or none that are valid.
		 */
		function addressesIn(value: unknown): string[] | undefined {
			const addresses = String(value ?? '')
				.split(/[,;\n]/)
				.map((entry) => entry.trim())
				.filter((entry) => entry !== '');
			return addresses.length > 0 &&
				addresses.every((address) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address))
				? addresses
				: undefined;
		}

		it.each(['={{ $json.email }}', '={{ $json[$json.pick] }}'])(
			'%s: sends what n8n evaluates, item by item, and fails the items n8n fails',
			async (emails) => {
				const parameters = { resource: 'emailSurvey', operation: 'send', emails };
				const evaluated = await evaluateParameter({
					nodeType: 'wootric',
					parameters,
					name: 'emails',
					inputItems: items,
				});
				const expected = evaluated.map((result) =>
					'error' in result
						? { error: result.error.message }
						: { emails: addressesIn(result.value) },
				);
				const sendable = expected.flatMap((outcome) => (outcome.emails ? [outcome.emails] : []));
				expect(sendable.length).toBeGreaterThan(200);
				expect(expected.filter((outcome) => outcome.error !== undefined).length).toBe(
					emails.includes('pick') ? 11 : 0,
				);

				const eachItem = await run({ ...parameters, combineItems: false }, items, true);

				expect(surveyed()).toEqual(sendable);
				expect(
					eachItem.items.map(({ json }, index) => {
						if (json.error === undefined) return { emails: json.emails };
						// The node's own refusal of what n8n gave names the field and the item; n8n's error is
						// n8n's text.
						return /^Email Addresses .*\(item (\d+): /.exec(String(json.error))?.[1] ===
							String(index)
							? { emails: undefined }
							: { error: json.error };
					}),
				).toEqual(expected);
				expect(eachItem.items.map((item) => item.pairedItem)).toEqual(
					items.map((_, item) => ({ item })),
				);

				// Combined, the items n8n and the node accept go out 100 per request, in order.
				const accepted = items.filter((_, index) => expected[index].emails);
				fake.requests.length = 0;
				const combined = await run({ ...parameters, combineItems: true }, accepted);

				expect(combined.error).toBeUndefined();
				expect(surveyed().flat()).toEqual(sendable.flat());
			},
		);
	});
});
