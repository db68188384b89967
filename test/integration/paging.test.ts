import type { INodeParameters } from 'n8n-workflow';

import { addResponse, startFakeWootric, type FakeWootric, type TieOrder } from '../fake';
import type { SurveyResponse } from '../fake/store';
import { runNode, type RunNodeOptions } from '../harness';
import {
	createdAfterUntil,
	credentialsFor,
	listReading,
	listRequestBound,
	seedResponses,
	VERSION_BEFORE_LOCATORS,
} from '../support/wootric';

/**
 * Return All and Limit over the list endpoints: every record once, in order, within the request
 * bound.
 */
describe('paging through lists', () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	const getResponses = (parameters: INodeParameters, inputItems?: RunNodeOptions['inputItems']) =>
		runNode({
			nodeType: 'wootric',
			nodeTypeVersion: VERSION_BEFORE_LOCATORS,
			parameters: { resource: 'response', operation: 'getAll', scope: 'all', ...parameters },
			credentials: credentialsFor(fake),
			inputItems,
		});

	describe.each<TieOrder>(['reversed', 'idAscending'])(
		'the window moving, records sharing a second ordered %s',
		(ties) => {
			beforeEach(() => (fake.tieOrder = ties));

			/**
			 * The ids in the order the list gives them: by created_at, ties by id as the fake orders
			 * them.
			 */
			const inListOrder = (responses: SurveyResponse[], order: 'asc' | 'desc') => {
				const direction = order === 'asc' ? 1 : -1;
				const tieDirection = ties === 'reversed' ? direction : 1;
				return [...responses]
					.sort((a, b) => direction * (a.createdAt - b.createdAt) || tieDirection * (a.id - b.id))
					.map((response) => response.id);
			};
			/**
			 * `count` responses of one end user, the i-th created in second secondOf(i) from now -
			 * 10,000.
			 */
			const seedSeconds = (count: number, secondOf: (index: number) => number) => {
				const { user } = seedResponses(fake, 0);
				const start = fake.clock.now() - 10_000;
				return Array.from({ length: count }, (_, index) =>
					addResponse(fake.account, fake.store, {
						endUserId: user.id,
						score: index % 11,
						createdAt: start + secondOf(index),
					}),
				);
			};

			it('reads 4,000 responses with a 120-record same-second cluster across a window edge: each once, oldest first', async () => {
				const { responses } = seedResponses(fake, 4000, { cluster: [1441, 1560] });

				const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

				expect(run.error).toBeUndefined();
				expect(run.items.map(({ json }) => json.id)).toEqual(inListOrder(responses, 'asc'));
				const listRequests = fake.requestsTo('/v1/responses');
				expect(listRequests.length).toBeLessThanOrEqual(listRequestBound(4000));
				const clusterSecond = responses[1441].createdAt;
				expect(listRequests[0].rawQuery).toBe(
					'sort_key=created_at&sort_order=asc&page=1&per_page=50',
				);
				expect(listRequests[29].rawQuery).toBe(
					'sort_key=created_at&sort_order=asc&page=30&per_page=50',
				);
				// The window restarts at the cluster's second, on the page of its 60th record: 59 were
				// read.
				expect(listRequests[30].rawQuery).toBe(
					`created[gte]=${clusterSecond}&sort_key=created_at&sort_order=asc&page=2&per_page=50`,
				);
			});

			it('reads newest first across windows with created[lte]', async () => {
				const { responses } = seedResponses(fake, 1600, { cluster: [100, 170] });

				const run = await getResponses({ returnAll: true });

				expect(run.items.map(({ json }) => json.id)).toEqual(inListOrder(responses, 'desc'));
				const listRequests = fake.requestsTo('/v1/responses');
				expect(listRequests.length).toBeLessThanOrEqual(listRequestBound(1600));
				// The first window ends with the 71 of the cluster's second: the next one starts on page 2
				// of it.
				expect(listRequests[30].rawQuery).toBe(
					`created[lte]=${responses[100].createdAt}&sort_key=created_at&sort_order=desc&page=2&per_page=50`,
				);
			});

			describe.each(['asc', 'desc'] as const)('%s', (order) => {
				it.each<[string, number, (index: number) => number]>([
					['5,000, one a second', 5000, (index) => index],
					[
						'1,600: 100, then 1,400 in the second that ends the first window, then 100',
						1600,
						(index) => (index < 100 ? index : index < 1500 ? 100 : index - 1399),
					],
					['3,000 in seconds of 130', 3000, (index) => Math.floor(index / 130)],
					[
						'3,000 in seconds of 1,499 and 1',
						3000,
						(index) => Math.floor(index / 1500) * 2 + (index % 1500 === 1499 ? 1 : 0),
					],
				])(
					'reads %s: each once, within ceil(N/50) + ceil(N/1500) + the pages in flight requests',
					async (_, count, secondOf) => {
						const responses = seedSeconds(count, secondOf);

						const run = await getResponses({ returnAll: true, options: { order } });

						expect(run.error).toBeUndefined();
						expect(run.items.map(({ json }) => json.id)).toEqual(inListOrder(responses, order));
						expect(fake.requestsTo('/v1/responses').length).toBeLessThanOrEqual(
							listRequestBound(count),
						);
					},
				);
			});
		},
	);

	it('stops at the limit', async () => {
		const { responses } = seedResponses(fake, 300);

		const run = await getResponses({ returnAll: false, limit: 120 });

		expect(run.items.map(({ json }) => json.id)).toEqual(
			responses
				.slice(-120)
				.map((response) => response.id)
				.reverse(),
		);
		expect(fake.requestsTo('/v1/responses')).toHaveLength(3);
	});

	it('combines the user’s created and updated conditions with the window', async () => {
		const { responses } = seedResponses(fake, 100);
		const from = responses[10].createdAt;
		const until = responses[59].createdAt;

		const run = await getResponses({
			returnAll: true,
			filters: {
				created: createdAfterUntil(from, until),
				updated: { conditions: [{ comparison: 'gte', time: 1000 }] },
				includeExcluded: true,
			},
		});

		expect(run.items.map(({ json }) => json.id)).toEqual(
			responses
				.slice(11, 60)
				.map((response) => response.id)
				.reverse(),
		);
		expect(fake.requestsTo('/v1/responses')[0].rawQuery).toBe(
			`updated[gte]=1000&excluded_from_calculations=true&created[gte]=${from + 1}&created[lte]=${until}&sort_key=created_at&sort_order=desc&page=1&per_page=50`,
		);
	});

	it('uses an end user’s category list, or filters by score for everyone', async () => {
		const { user, responses } = seedResponses(fake, 33);
		const detractorIds = responses
			.filter((response) => response.score <= 6)
			.map((response) => response.id)
			.reverse();

		const ofUser = await getResponses({
			scope: 'endUser',
			endUserId: user.id,
			category: 'detractors',
			returnAll: true,
		});
		const ofEveryone = await getResponses({
			category: 'detractors',
			returnAll: false,
			limit: 5,
			options: { simplify: true },
		});

		expect(ofUser.items.map(({ json }) => json.id)).toEqual(detractorIds);
		expect(fake.requestsTo(`/v1/end_users/${user.id}/responses/detractors`)).toHaveLength(1);
		expect(ofEveryone.items.map(({ json }) => [json.id, json.nps_category])).toEqual(
			detractorIds.slice(0, 5).map((id) => [id, 'detractor']),
		);
		expect(ofEveryone.items[0].json.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
	});

	describe('pages read ahead', () => {
		const listRequests = () => fake.requestsTo('/v1/responses');
		const pagesAsked = () => listRequests().map((request) => Number(request.query.page));
		const { pagesInFlight } = listReading;
		/**
		 * An answer's delay that outlasts the node's work on a page however loaded the machine (a cold
		 * CI runs the tests beside installs): every page asked for ahead is out before one returns.
		 */
		const FILLS_THE_PAGES_AHEAD_MS = 200;

		it('reads with up to the chosen number of pages on their way, and wastes at most that many less one at the end', async () => {
			const { responses } = seedResponses(fake, 500);
			fake.latencyMs = FILLS_THE_PAGES_AHEAD_MS;

			const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

			expect(run.items.map(({ json }) => json.id)).toEqual(
				responses.map((response) => response.id),
			);
			expect(pagesInFlight).toBeGreaterThan(2);
			expect(fake.mostAtOnce).toBe(pagesInFlight);
			// 10 full pages and the empty page 11 that ends the list, then those asked for ahead of it.
			expect(pagesAsked().sort((a, b) => a - b)).toEqual(
				Array.from({ length: 11 + pagesInFlight - 1 }, (_, index) => index + 1),
			);
			expect(pagesAsked()[0]).toBe(1);
		});

		it('sends one request for a list shorter than a page, and grows the pages ahead with the full pages read', async () => {
			seedResponses(fake, 49);
			fake.latencyMs = 20;
			expect((await getResponses({ returnAll: true })).items).toHaveLength(49);
			expect(pagesAsked()).toEqual([1]);
			expect(fake.mostAtOnce).toBe(1);

			seedResponses(fake, 51);
			fake.requests.length = 0;
			expect((await getResponses({ returnAll: true })).items).toHaveLength(100);
			// Page 1 full: page 2 and one ahead; page 2 full: two more ahead of page 3.
			expect(pagesAsked().sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
		});

		it('keeps reading ahead in a window moved past an ordinary second: its page 1 does not go alone', async () => {
			const { responses } = seedResponses(fake, 1600);
			fake.latencyMs = FILLS_THE_PAGES_AHEAD_MS;
			// From the moved window's first request on, count again how many are on their way at once.
			let moved = false;
			fake.arrivalHooks.push((request) => {
				if (moved || !request.rawQuery.startsWith('created[gte]=')) return;
				moved = true;
				fake.mostAtOnce = 1;
			});

			const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

			expect(run.items.map(({ json }) => json.id)).toEqual(
				responses.map((response) => response.id),
			);
			expect(moved).toBe(true);
			expect(fake.mostAtOnce).toBe(pagesInFlight);
			expect(listRequests().length).toBeLessThanOrEqual(listRequestBound(1600));
		});

		it('asks for a failed page ahead again the usual way, with retries', async () => {
			const { responses } = seedResponses(fake, 300);
			fake.faults.inject({
				path: '/v1/responses',
				when: (request) => request.query.page === '4',
				times: 2,
				fault: { kind: 'status', status: 503 },
			});

			const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

			expect(run.error).toBeUndefined();
			expect(run.items.map(({ json }) => json.id)).toEqual(
				responses.map((response) => response.id),
			);
			const page4 = listRequests().filter((request) => request.query.page === '4');
			expect(page4.map((request) => request.status)).toEqual([503, 503, 200]);
		});

		it('asks for a page ahead that another client’s traffic got refused (429) again after the reset', async () => {
			const { responses } = seedResponses(fake, 400);
			fake.faults.inject({
				path: '/v1/responses',
				when: (request) => request.query.page === '5',
				times: 1,
				fault: { kind: 'rateLimited', resetInSeconds: 1 },
			});

			const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

			expect(run.error).toBeUndefined();
			expect(run.items.map(({ json }) => json.id)).toEqual(
				responses.map((response) => response.id),
			);
			expect(
				listRequests()
					.filter((request) => request.query.page === '5')
					.map((request) => request.status),
			).toEqual([429, 200]);
		});

		it('asks for one page at a time when the rate limit has fewer than two requests left, and earns no 429', async () => {
			const { responses } = seedResponses(fake, 120);
			fake.rateLimits.set('GET /v1/responses', 1, 1);

			const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

			expect(run.items.map(({ json }) => json.id)).toEqual(
				responses.map((response) => response.id),
			);
			expect(pagesAsked()).toEqual([1, 2, 3]);
			expect(listRequests().map((request) => request.status)).toEqual([200, 200, 200]);
			expect(fake.mostAtOnce).toBe(1);
		});

		it('keeps the pages on their way within what the rate limit has left: no 429, every record once', async () => {
			const { responses } = seedResponses(fake, 1000);
			fake.latencyMs = 20;
			fake.rateLimits.set('GET /v1/responses', 6, 2);

			const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

			expect(run.error).toBeUndefined();
			expect(run.items.map(({ json }) => json.id)).toEqual(
				responses.map((response) => response.id),
			);
			// The fake answers 429 to any request past the limit.
			expect(listRequests().filter((request) => request.status !== 200)).toEqual([]);
			// It did read ahead where the limit left room, up to the chosen number of pages.
			expect(fake.mostAtOnce).toBeGreaterThan(1);
			expect(fake.mostAtOnce).toBeLessThanOrEqual(Math.min(pagesInFlight, 6));
			expect(listRequests().length).toBeLessThanOrEqual(listRequestBound(1000));
		});
	});
	describe('a service that accepts a filter and ignores it (an older API variant, updatedIndex off)', () => {
		beforeEach(() => (fake.updatedIndex = false));

		it('fails Return All with an Updated filter on its first page, naming the filter Wootric ignored and the item', async () => {
			const { responses } = seedResponses(fake, 3000);
			const since = responses[2000].updatedAt;

			const run = await getResponses(
				{
					returnAll: true,
					options: { order: 'asc' },
					// The first item's filter keeps every record, so only the second item's shows.
					filters: {
						updated: {
							conditions: [{ comparison: 'gte', time: `={{ $itemIndex === 0 ? 0 : ${since} }}` }],
						},
					},
				},
				[{ json: {} }, { json: {} }],
			);

			expect(run.error?.message).toMatch(
				/^Wootric ignored updated\[gte\] on \/v1\/responses: record \d+ has updated_at \S+, outside the updated_at asked for \(from \S+\)$/,
			);
			expect(run.error).toMatchObject({ context: { itemIndex: 1 } });
			// The first item read its 3,000; the second stopped at its first page, the oldest records.
			const secondItem = fake
				.requestsTo('/v1/responses')
				.filter((request) => request.rawQuery.startsWith(`updated[gte]=${since}&`));
			expect(secondItem.map((request) => request.query.page)).toEqual(['1']);
		});
	});
});
