import type { INodeParameters } from 'n8n-workflow';

import { addResponse, startFakeWootric, type FakeWootric } from '../fake';
import { runNode, type NodeRun } from '../harness';
import { credentialsFor, listReading, listRequestBound, seedResponses } from '../support/wootric';


/** Return All and Limit over the list endpoints: every record once, in order, within the request bound. */
describe('paging through lists', () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	const getResponses = (parameters: INodeParameters) =>
		runNode({ nodeType: 'wootric', parameters: { resource: 'response', operation: 'getAll', scope: 'all', ...parameters }, credentials: credentialsFor(fake) });

	it('reads 4,000 responses with a 120-record same-second cluster across a window edge: each once, oldest first', async () => {
		const { responses } = seedResponses(fake, 4000, { cluster: [1441, 1560] });

		const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

		expect(run.error).toBeUndefined();
		expect(run.items.map(({ json }) => json.id)).toEqual(responses.map((response) => response.id));
		const listRequests = fake.requestsTo('/v1/responses');
		expect(listRequests.length).toBeLessThanOrEqual(listRequestBound(4000));
		const clusterSecond = responses[1441].createdAt;
		expect(listRequests[0].rawQuery).toBe('sort_key=created_at&sort_order=asc&page=1&per_page=50');
		expect(listRequests[29].rawQuery).toBe('sort_key=created_at&sort_order=asc&page=30&per_page=50');
		expect(listRequests[30].rawQuery).toBe(`created[gte]=${clusterSecond}&sort_key=created_at&sort_order=asc&page=1&per_page=50`);
	});

	it('reads newest first across windows with created[lte]', async () => {
		const { responses } = seedResponses(fake, 1600, { cluster: [100, 170] });

		const run = await getResponses({ returnAll: true });

		expect(run.items.map(({ json }) => json.id)).toEqual(responses.map((response) => response.id).reverse());
		const listRequests = fake.requestsTo('/v1/responses');
		expect(listRequests.length).toBeLessThanOrEqual(listRequestBound(1600));
		expect(listRequests[30].rawQuery).toMatch(/^created\[lte\]=\d+&sort_key=created_at&sort_order=desc&page=1&per_page=50$/);
	});

	it('stops at the limit', async () => {
		const { responses } = seedResponses(fake, 300);

		const run = await getResponses({ returnAll: false, limit: 120 });

		expect(run.items.map(({ json }) => json.id)).toEqual(responses.slice(-120).map((response) => response.id).reverse());
		expect(fake.requestsTo('/v1/responses')).toHaveLength(3);
	});

	it('combines the user’s created and updated conditions with the window', async () => {
		const { responses } = seedResponses(fake, 100);
		const from = responses[10].createdAt;
		const until = responses[59].createdAt;

		const run = await getResponses({
			returnAll: true,
			filters: {
				created: { conditions: [{ comparison: 'gt', time: from }, { comparison: 'lte', time: new Date(until * 1000).toISOString() }] },
				updated: { conditions: [{ comparison: 'gte', time: 1000 }] },
				includeExcluded: true,
			},
		});

		expect(run.items.map(({ json }) => json.id)).toEqual(responses.slice(11, 60).map((response) => response.id).reverse());
		expect(fake.requestsTo('/v1/responses')[0].rawQuery).toBe(
			`updated[gte]=1000&excluded_from_calculations=true&created[gte]=${from + 1}&created[lte]=${until}&sort_key=created_at&sort_order=desc&page=1&per_page=50`,
		);
	});

	it('uses an end user’s category list, or filters by score for everyone', async () => {
		const { user, responses } = seedResponses(fake, 33);
		const detractorIds = responses.filter((response) => response.score <= 6).map((response) => response.id).reverse();

		const ofUser = await getResponses({ scope: 'endUser', endUserId: user.id, category: 'detractors', returnAll: true });
		const ofEveryone = await getResponses({ category: 'detractors', returnAll: false, limit: 5, options: { simplify: true } });

		expect(ofUser.items.map(({ json }) => json.id)).toEqual(detractorIds);
		expect(fake.requestsTo(`/v1/end_users/${user.id}/responses/detractors`)).toHaveLength(1);
		expect(ofEveryone.items.map(({ json }) => [json.id, json.nps_category])).toEqual(detractorIds.slice(0, 5).map((id) => [id, 'detractor']));
		expect(ofEveryone.items[0].json.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
	});

	describe('a second holding more than a window of 1,500', () => {
		/** `count` responses of one end user created in one second, the i-th updated in second updatedAt(i). */
		const oneSecond = (count: number, updatedAt?: (index: number) => number, score = (index: number) => index % 11) => {
			const { user } = seedResponses(fake, 0);
			const second = fake.clock.now() - 1000;
			const responses = Array.from({ length: count }, (_, index) =>
				addResponse(fake.account, fake.store, { endUserId: user.id, score: score(index), createdAt: second, updatedAt: updatedAt?.(index) ?? second }),
			);
			return { user, second, ids: responses.map((response) => response.id) };
		};
		const sortedIds = (run: NodeRun) => run.items.map(({ json }) => Number(json.id)).sort((a, b) => a - b);

		it('reads 1,600 of one created and updated second, each once, with a few before and after it', async () => {
			const before = seedResponses(fake, 10, { start: fake.clock.now() - 2000 }).responses;
			const { second, ids } = oneSecond(1600);
			const after = seedResponses(fake, 10, { start: fake.clock.now() - 900 }).responses;

			const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

			expect(run.error).toBeUndefined();
			expect(run.items.map(({ json }) => json.id).slice(0, 10)).toEqual(before.map((response) => response.id));
			expect(run.items.map(({ json }) => json.id).slice(-10)).toEqual(after.map((response) => response.id));
			expect(sortedIds(run)).toEqual([...before.map((response) => response.id), ...ids, ...after.map((response) => response.id)]);
			const split = fake.requestsTo('/v1/responses').filter((request) => request.rawQuery.includes(`created[eq]=${second}`));
			expect(split[0].rawQuery).toBe(`created[eq]=${second}&sort_key=updated_at&sort_order=asc&page=1&per_page=50`);
		});

		it('reads 4,000 of one created second imported over 40 seconds newest first, each once', async () => {
			const { second, ids } = oneSecond(4000, (index) => fake.clock.now() - 900 + Math.floor(index / 100));

			const run = await getResponses({ returnAll: true });

			expect(run.error).toBeUndefined();
			expect(sortedIds(run)).toEqual(ids);
			// 80 pages, plus each of the three window moves re-reading its edge second (100 records), plus those ahead of the end.
			expect(fake.requestsTo('/v1/responses').filter((request) => request.rawQuery.includes(`created[eq]=${second}`)).length).toBeLessThanOrEqual(80 + 3 * 2 + listReading.pagesInFlight);
		});

		it('returns the 3,000 of 4,000 sharing both seconds it can read, and says so on the output', async () => {
			const { second, ids } = oneSecond(4000);

			const run = await getResponses({ returnAll: true });

			expect(run.error).toBeUndefined();
			expect(run.items).toHaveLength(3000);
			expect(new Set(sortedIds(run)).size).toBe(3000);
			expect(sortedIds(run).every((id) => ids.includes(id))).toBe(true);
			const iso = new Date(second * 1000).toISOString();
			expect(run.runData.Wootric[0].hints).toEqual([
				{
					message:
						`Records of /v1/responses that share created_at ${iso} and updated_at ${iso} cannot all be reached: ` +
						'Wootric lists at most 1500 records per filter, and 3000 of them were read. Read the rest with Get Many for one end user, or with another filter.',
					type: 'warning',
					location: 'outputPane',
				},
			]);
		});

		it('reads 1,600 detractors of one second from an end user’s category list (no updated filter there) from both ends', async () => {
			const { user, second, ids } = oneSecond(1600, undefined, () => 3);

			const run = await getResponses({ scope: 'endUser', endUserId: user.id, category: 'detractors', returnAll: true });

			expect(run.error).toBeUndefined();
			expect(sortedIds(run)).toEqual(ids);
			const reads = fake.requestsTo(`/v1/end_users/${user.id}/responses/detractors`).map((request) => request.rawQuery);
			expect(reads).toContain(`created[eq]=${second}&sort_order=asc&page=30&per_page=50`);
			expect(reads).toContain(`created[eq]=${second}&sort_order=desc&page=1&per_page=50`);
			expect(reads.every((query) => !query.includes('updated') && !query.includes('sort_key'))).toBe(true);
		});
	});

	describe('pages read ahead', () => {
		const listRequests = () => fake.requestsTo('/v1/responses');
		const pagesAsked = () => listRequests().map((request) => Number(request.query.page));
		const { pagesInFlight } = listReading;

		it('reads with up to the chosen number of pages on their way, and wastes at most that many less one at the end', async () => {
			const { responses } = seedResponses(fake, 500);
			fake.latencyMs = 20;

			const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

			expect(run.items.map(({ json }) => json.id)).toEqual(responses.map((response) => response.id));
			expect(pagesInFlight).toBeGreaterThan(2);
			expect(fake.mostAtOnce).toBe(pagesInFlight);
			// 10 full pages and the empty page 11 that ends the list, then those asked for ahead of it.
			expect(pagesAsked().sort((a, b) => a - b)).toEqual(Array.from({ length: 11 + pagesInFlight - 1 }, (_, index) => index + 1));
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

		it('asks for a failed page ahead again the usual way, with retries', async () => {
			const { responses } = seedResponses(fake, 300);
			fake.faults.inject({ path: '/v1/responses', when: (request) => request.query.page === '4', times: 2, fault: { kind: 'status', status: 503 } });

			const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

			expect(run.error).toBeUndefined();
			expect(run.items.map(({ json }) => json.id)).toEqual(responses.map((response) => response.id));
			const page4 = listRequests().filter((request) => request.query.page === '4');
			expect(page4.map((request) => request.status)).toEqual([503, 503, 200]);
		});

		it('asks for a page ahead that another client’s traffic got refused (429) again after the reset', async () => {
			const { responses } = seedResponses(fake, 400);
			fake.faults.inject({ path: '/v1/responses', when: (request) => request.query.page === '5', times: 1, fault: { kind: 'rateLimited', resetInSeconds: 1 } });

			const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

			expect(run.error).toBeUndefined();
			expect(run.items.map(({ json }) => json.id)).toEqual(responses.map((response) => response.id));
			expect(listRequests().filter((request) => request.query.page === '5').map((request) => request.status)).toEqual([429, 200]);
		});

		it('asks for one page at a time when the rate limit has fewer than two requests left, and earns no 429', async () => {
			const { responses } = seedResponses(fake, 120);
			fake.rateLimits.set('GET /v1/responses', 1, 1);

			const run = await getResponses({ returnAll: true, options: { order: 'asc' } });

			expect(run.items.map(({ json }) => json.id)).toEqual(responses.map((response) => response.id));
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
			expect(run.items.map(({ json }) => json.id)).toEqual(responses.map((response) => response.id));
			// The fake answers 429 to any request past the limit.
			expect(listRequests().filter((request) => request.status !== 200)).toEqual([]);
			// It did read ahead where the limit left room, up to the chosen number of pages.
			expect(fake.mostAtOnce).toBeGreaterThan(1);
			expect(fake.mostAtOnce).toBeLessThanOrEqual(Math.min(pagesInFlight, 6));
			expect(listRequests().length).toBeLessThanOrEqual(listRequestBound(1000));
		});
	});
});
