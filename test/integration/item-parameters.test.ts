import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startFakeWootric, type FakeWootric } from '../fake';
import { runNode } from '../harness';
import { credentialsFor } from '../support/wootric';

/**
 * Parameters read once per run (helpers/parameters.ts): a plain `{{ $json.field }}` mapping is read from
 * the item itself, not evaluated by n8n. Each case runs twice, once with the mapping and once with the
 * same expression in a form the shortcut does not take (n8n evaluates it), and both runs must send the
 * same and output the same, item by item.
 */
describe('item parameters read once per run', () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	/** Send, one request per item, with Continue On Fail: each item's output, and what each request sent. */
	async function sendEach(parameters: INodeParameters, items: IDataObject[]) {
		const from = fake.requests.length;
		const run = await runNode({
			nodeType: 'wootric',
			parameters: { resource: 'emailSurvey', operation: 'send', combineItems: false, ...parameters },
			credentials: credentialsFor(fake),
			inputItems: items.map((json) => ({ json })),
			continueOnFail: true,
		});
		expect(run.error).toBeUndefined();
		const sent = fake.requests.slice(from).filter((request) => request.path === '/v1/email_survey');
		return {
			outputs: run.items.map(({ json }) => (json.error === undefined ? { emails: json.emails } : { error: json.error, description: json.description })),
			sent: sent.map((request) => request.rawBody),
		};
	}

	const items: IDataObject[] = [
		{ email: 'Ada@Example.com', contact: { email: 'Grace@Example.com' }, 'e-mail': 'Linus@Example.com' },
		{ email: '  Spaced@Example.com , second@example.com ', contact: { email: 'a@example.com;b@example.com' }, 'e-mail': 'x{{y}}@example.com' },
		{ email: 42, contact: { email: ['in@array.com'] }, 'e-mail': null },
		{ email: '', contact: null, 'e-mail': true },
		{ contact: 'not an object' },
		{ email: 'not an address', contact: { email: { nested: 'deeper@example.com' } }, 'e-mail': 'ok@example.com' },
	];

	it.each([
		['a top-level field', '={{ $json.email }}', '={{ ($json.email) }}'],
		['a nested field', '={{ $json.contact.email }}', '={{ ($json.contact.email) }}'],
		['a quoted field name', '={{ $json["e-mail"] }}', '={{ ($json["e-mail"]) }}'],
		['a quoted field name in single quotes, with spaces', "={{  $json[ 'e-mail' ]  }}", "={{ ($json['e-mail']) }}"],
	])('reads %s as n8n evaluates it, for strings, other types and missing fields', async (_, mapping, evaluated) => {
		const byMapping = await sendEach({ emails: mapping }, items);
		const byEvaluation = await sendEach({ emails: evaluated }, items);

		expect(byMapping).toEqual(byEvaluation);
		expect(byMapping.outputs.some((output) => 'emails' in output)).toBe(true);
	});

	it('evaluates other expressions per item, and reads item-invariant ones once per run with the same result', async () => {
		const people = [{ email: 'ada@example.com', plan: 'pro' }, { email: 'grace@example.com', plan: 'free' }];

		const run = await sendEach(
			{
				emails: '={{ $json.email.toUpperCase() }}',
				subject: '={{ $itemIndex ? "Second" : "First" }}',
				endUserProperties: { property: [{ name: 'plan', value: '={{ $json.plan }}' }, { name: 'source', value: 'n8n' }] },
			},
			people,
		);

		expect(run.outputs).toEqual([{ emails: ['ADA@EXAMPLE.COM'] }, { emails: ['GRACE@EXAMPLE.COM'] }]);
		expect(run.sent).toEqual([
			'emails[]=ADA%40EXAMPLE.COM&end_user[properties][plan]=pro&end_user[properties][source]=n8n&subject=First',
			'emails[]=GRACE%40EXAMPLE.COM&end_user[properties][plan]=free&end_user[properties][source]=n8n&subject=Second',
		]);
	});
});
