import { endpointKey } from '../../nodes/Wootric/transport/rateLimits';
import { endpoints as API_ENDPOINTS } from '../fake/endpoints.json';

/**
 * Every endpoint of the API (test/fake/endpoints.json, from its spec and, for the v2 email
 * statistics, API-FACTS; checked below), written out here, each with paths as the node builds them
 * for two different values: ids, and where the API takes them, emails and external ids
 * (URL-encoded, by the lookup flags on the by-id path, which is one endpoint) and phone numbers. The key of an endpoint is its template: `:id` where the API takes a
 * numeric id, `:key` where it takes any value.
 */
const ENDPOINTS: Array<[method: string, template: string, paths: string[]]> = [
	['GET', '/v1/end_users', ['/v1/end_users']],
	[
		'GET',
		'/v1/end_users/:key',
		[
			'/v1/end_users/12',
			'/v1/end_users/ada%40example.com',
			'/v1/end_users/crm-7',
			// External ids that are words of other paths.
			'/v1/end_users/settings',
			'/v1/end_users/phone_number',
			'/v1/end_users/responses',
		],
	],
	[
		'GET',
		'/v1/end_users/phone_number/:key',
		['/v1/end_users/phone_number/%2B15550100', '/v1/end_users/phone_number/%2B4930123'],
	],
	['POST', '/v1/end_users', ['/v1/end_users']],
	['PUT', '/v1/end_users/:key', ['/v1/end_users/12', '/v1/end_users/13']],
	['DELETE', '/v1/end_users/:key', ['/v1/end_users/12', '/v1/end_users/ada%40example.com']],
	['GET', '/v1/end_users/:id/export', ['/v1/end_users/12/export', '/v1/end_users/13/export']],
	['GET', '/v1/responses', ['/v1/responses']],
	[
		'GET',
		'/v1/end_users/:id/responses',
		['/v1/end_users/12/responses', '/v1/end_users/13/responses'],
	],
	[
		'GET',
		'/v1/end_users/:id/responses/promoters',
		['/v1/end_users/12/responses/promoters', '/v1/end_users/13/responses/promoters'],
	],
	[
		'GET',
		'/v1/end_users/:id/responses/passives',
		['/v1/end_users/12/responses/passives', '/v1/end_users/13/responses/passives'],
	],
	[
		'GET',
		'/v1/end_users/:id/responses/detractors',
		['/v1/end_users/12/responses/detractors', '/v1/end_users/13/responses/detractors'],
	],
	[
		'GET',
		'/v1/end_users/:id/responses/:id',
		['/v1/end_users/12/responses/5', '/v1/end_users/13/responses/6'],
	],
	[
		'POST',
		'/v1/end_users/:id/responses',
		['/v1/end_users/12/responses', '/v1/end_users/13/responses'],
	],
	['PUT', '/v1/responses/:id', ['/v1/responses/5', '/v1/responses/6']],
	[
		'DELETE',
		'/v1/end_users/:id/responses/:id',
		['/v1/end_users/12/responses/5', '/v1/end_users/13/responses/6'],
	],
	['GET', '/v1/declines', ['/v1/declines']],
	['GET', '/v1/end_users/:id/declines', ['/v1/end_users/12/declines', '/v1/end_users/13/declines']],
	[
		'GET',
		'/v1/end_users/:id/declines/:id',
		['/v1/end_users/12/declines/5', '/v1/end_users/13/declines/6'],
	],
	[
		'POST',
		'/v1/end_users/:id/declines',
		['/v1/end_users/12/declines', '/v1/end_users/13/declines'],
	],
	['PUT', '/v1/declines/:id', ['/v1/declines/5', '/v1/declines/6']],
	[
		'DELETE',
		'/v1/end_users/:id/declines/:id',
		['/v1/end_users/12/declines/5', '/v1/end_users/13/declines/6'],
	],
	['GET', '/v1/end_users/:id/settings', ['/v1/end_users/12/settings', '/v1/end_users/13/settings']],
	['PUT', '/v1/end_users/:id/settings', ['/v1/end_users/12/settings', '/v1/end_users/13/settings']],
	['GET', '/v1/nps_summary', ['/v1/nps_summary']],
	['GET', '/v1/segments', ['/v1/segments']],
	['GET', '/v1/survey_templates', ['/v1/survey_templates']],
	['POST', '/v1/email_survey', ['/v1/email_survey']],
	['POST', '/v1/email_survey_csv', ['/v1/email_survey_csv']],
	['GET', '/v2/email_stats', ['/v2/email_stats']],
	['GET', '/v2/email_stats/sources', ['/v2/email_stats/sources']],
	['POST', '/v2/email_stats/bounce_report', ['/v2/email_stats/bounce_report']],
];

/** `GET /v1/end_users/*`: an endpoint with its variable segments and query left out. */
const shapeOf = (method: string, path: string) =>
	`${method} ${path.split('?')[0].replace(/<[^>]+>|:id|:key/g, '*')}`;

describe('rate-limit endpoint keys: one per endpoint, whatever the values in its path', () => {
	it('are checked for every endpoint of the API but its sign-in', () => {
		const listed = new Set(ENDPOINTS.map(([method, template]) => shapeOf(method, template)));
		const api = new Set(
			API_ENDPOINTS.filter(({ path }) => path !== '/oauth/token').map(({ method, path }) =>
				shapeOf(method, path),
			),
		);
		expect([...listed].sort()).toEqual([...api].sort());
	});

	it.each(ENDPOINTS)(
		'%s %s: every path of it has its template as key',
		(method, template, paths) => {
			for (const path of paths) expect(endpointKey(method, path)).toBe(`${method} ${template}`);
		},
	);

	it('gives every endpoint of the API a key of its own', () => {
		const keys = ENDPOINTS.map(([method, , [path]]) => endpointKey(method, path));
		expect(new Set(keys).size).toBe(ENDPOINTS.length);
	});

	it.each([
		['a new resource', 'GET', '/v1/tags/12', 'GET /v1/tags/:id'],
		[
			'a new version of an endpoint',
			'GET',
			'/v2/end_users/12/responses',
			'GET /v2/end_users/:id/responses',
		],
		['a new list of an end user', 'GET', '/v1/end_users/12/notes', 'GET /v1/end_users/:id/notes'],
		['a new action on a response', 'POST', '/v1/responses/5/tags', 'POST /v1/responses/:id/tags'],
		[
			'a new word where the API has ids',
			'GET',
			'/v1/end_users/12/responses/summary',
			'GET /v1/end_users/:id/responses/summary',
		],
	])('%s shares no key with an endpoint of the API: %s %s → %s', (_, method, path, key) => {
		expect(endpointKey(method, path)).toBe(key);
		const known = ENDPOINTS.map(([knownMethod, template]) => `${knownMethod} ${template}`);
		expect(known).not.toContain(key);
	});

	it('keys two ids of a new endpoint alike, and values that are not numbers apart', () => {
		expect(endpointKey('GET', '/v1/tags/12')).toBe(endpointKey('GET', '/v1/tags/13'));
		expect(endpointKey('GET', '/v1/tags/vip')).not.toBe(endpointKey('GET', '/v1/tags/12'));
	});
});
