import { encodeParams } from '../../nodes/Wootric/transport/encoding';

describe('encodeParams: the service’s bracket notation', () => {
	it.each([
		[
			{ created: { gt: 1700000000, lte: 1700000999 } },
			'created[gt]=1700000000&created[lte]=1700000999',
		],
		[
			{ properties: { plan: 'pro', 'seat count': 5 } },
			'properties[plan]=pro&properties[seat%20count]=5',
		],
		[{ end_user: { properties: { tier: 'gold' } } }, 'end_user[properties][tier]=gold'],
		[
			{ emails: ['a@example.com', 'b+tag@example.com'] },
			'emails[]=a%40example.com&emails[]=b%2Btag%40example.com',
		],
		[
			{ context: [{ name: 'Ada', team: 'R&D' }, { name: 'Alan' }] },
			'context[][name]=Ada&context[][team]=R%26D&context[][name]=Alan',
		],
		[
			{ survey_settings: { custom_messages: { prompt_text: 'How likely…?' } } },
			'survey_settings[custom_messages][prompt_text]=How%20likely%E2%80%A6%3F',
		],
		[
			{ completed: true, excluded_from_calculations: false },
			'completed=true&excluded_from_calculations=false',
		],
		[{ skipped: undefined, nothing: null, kept: '' }, 'kept='],
	])('%j → %s', (params, expected) => {
		expect(encodeParams(params)).toBe(expected);
	});

	it('reads back to the same structure with the fake’s Rails-style parser', async () => {
		const { parseBracketParams } = await import('../fake/brackets');
		const params = {
			emails: ['x@example.com'],
			context: [{ a: '1', b: '2' }, { a: '3' }],
			end_user: { properties: { k: 'v w' } },
		};
		expect(parseBracketParams(new URLSearchParams(encodeParams(params)))).toEqual(params);
	});
});
