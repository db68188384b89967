import type { INodeParameters } from 'n8n-workflow';

import { addResponse, startFakeWootric, type FakeWootric, type TieOrder } from '../fake';
import { runNode, type NodeRun } from '../harness';
import { credentialsFor, listReading, seedResponses } from '../support/wootric';

/** The warning on the output for records of `path` that share `seconds`, `read` of them read. */
const unreadableWarning = (path: string, seconds: string, read: number) =>
	`Records of ${path} that share ${seconds} could not all be read: ${read} were read, and more may exist that cannot be reached, ` +
	'as Wootric lists at most 1500 records per filter and none of its filters tells these records apart. ' +
	'Read the rest with Get Many for one end user, or with another filter.';

/**
 * Return All over a second holding more than the 1,500 records one filter reaches, whichever way the
 * service orders the records of one second (the spec does not say): split by the other time where the
 * list filters on it, else read from both ends, and a warning when the two ends do not show they met.
 */
describe.each<[TieOrder, string]>([
	['reversed', 'newest first is oldest first reversed'],
	['idAscending', 'ties by id ascending both ways'],
])('a second holding more than a window of 1,500, ties ordered %s (%s)', (ties) => {
	let fake: FakeWootric;

	beforeEach(async () => {
		fake = await startFakeWootric();
		fake.tieOrder = ties;
	});
	afterEach(async () => await fake.close());

	const { pagesInFlight } = listReading;
	const bothEndsMeet = ties === 'reversed';
	const getResponses = (parameters: INodeParameters) =>
		runNode({ nodeType: 'wootric', parameters: { resource: 'response', operation: 'getAll', scope: 'all', ...parameters }, credentials: credentialsFor(fake) });
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
	const iso = (second: number) => new Date(second * 1000).toISOString();
	const queries = (path = '/v1/responses') => fake.requestsTo(path).map((request) => request.rawQuery);
	/** The pages asked for of the query that starts with `prefix`, in order. */
	const pagesOf = (prefix: string, path?: string) =>
		queries(path)
			.filter((query) => query.startsWith(`${prefix}&page=`))
			.map((query) => Number(/&page=(\d+)/.exec(query)![1]))
			.sort((a, b) => a - b);
	const pages = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

	describe.each(['asc', 'desc'] as const)('%s', (order) => {
		const edgeKey = order === 'asc' ? 'gte' : 'lte';

		it('reads 1,600 of one created and updated second with 100 before and after: the window that found them not again, then split and read from the other end', async () => {
			const before = seedResponses(fake, 100, { start: fake.clock.now() - 2000 }).responses.map((response) => response.id);
			const { second, ids } = oneSecond(1600);
			const after = seedResponses(fake, 100, { start: fake.clock.now() - 900 }).responses.map((response) => response.id);

			const run = await getResponses({ returnAll: true, options: { order } });

			expect(run.error).toBeUndefined();
			const outer = order === 'asc' ? [before, after] : [after.reverse(), before.reverse()];
			expect(run.items.map(({ json }) => json.id).slice(0, 100)).toEqual(outer[0]);
			expect(run.items.map(({ json }) => json.id).slice(-100)).toEqual(outer[1]);
			expect(new Set(sortedIds(run)).size).toBe(run.items.length);
			// The first window holds 100 others and 1,400 of the second; the next starts on its page 29 and
			// finds the second's first 1,500 complete, so no window reads them again.
			expect(pagesOf(`created[${edgeKey}]=${second}&sort_key=created_at&sort_order=${order}`)).toEqual([29, 30]);
			// Split along updated_at, where they share one second too: from the other end of that.
			expect(pagesOf(`created[eq]=${second}&sort_key=updated_at&sort_order=asc`)).toEqual(pages(1, 30));
			expect(pagesOf(`updated[eq]=${second}&created[eq]=${second}&sort_key=updated_at&sort_order=asc`)).toEqual([]);
			const otherEnd = pagesOf(`updated[eq]=${second}&created[eq]=${second}&sort_key=updated_at&sort_order=desc`);
			if (bothEndsMeet) {
				expect(sortedIds(run)).toEqual([...before, ...ids, ...after].sort((a, b) => a - b));
				// They meet on page 3: 100 records, then the last one read oldest first.
				expect(otherEnd).toEqual(pages(1, 2 + pagesInFlight));
				expect(run.runData.Wootric[0].hints).toEqual([]);
			} else {
				expect(run.items).toHaveLength(1700);
				expect(otherEnd).toEqual(pages(1, 30));
				expect(run.runData.Wootric[0].hints).toEqual([
					{ message: unreadableWarning('/v1/responses', `created_at ${iso(second)} and updated_at ${iso(second)}`, 1500), type: 'warning', location: 'outputPane' },
				]);
			}
		});

		it('reads 1,600 of one second and nothing else: 30 pages by created_at, 30 by updated_at, then the other end only', async () => {
			oneSecond(1600);

			await getResponses({ returnAll: true, options: { order } });

			// The other end up to page 3, where the ends meet, or all 30; then one page past the second of each
			// time. Each read that ends before page 30 asks for up to pagesInFlight - 1 pages past its end.
			const otherEnd = bothEndsMeet ? 3 + pagesInFlight - 1 : 30;
			expect(queries()).toHaveLength(30 + 30 + otherEnd + 2 * pagesInFlight);
		});

		it('reads 4,000 of one created second imported over 40 seconds, each once', async () => {
			const { second, ids } = oneSecond(4000, (index) => fake.clock.now() - 900 + Math.floor(index / 100));

			const run = await getResponses({ returnAll: true, options: { order } });

			expect(run.error).toBeUndefined();
			expect(sortedIds(run)).toEqual(ids);
			// 80 pages, as each window move starts on the page after the 100 of its second read, then the empty
			// page that ends the list and those asked for ahead of it.
			expect(queries().filter((query) => query.includes(`created[eq]=${second}`)).length).toBeLessThanOrEqual(80 + pagesInFlight);
		});

		it('returns what it can read of 4,000 sharing both seconds, and says on the output that the rest could not be read', async () => {
			const { second, ids } = oneSecond(4000);

			const run = await getResponses({ returnAll: true, options: { order } });

			expect(run.error).toBeUndefined();
			const read = bothEndsMeet ? 3000 : 1500;
			expect(run.items).toHaveLength(read);
			expect(new Set(sortedIds(run)).size).toBe(read);
			expect(sortedIds(run).every((id) => ids.includes(id))).toBe(true);
			expect(run.runData.Wootric[0].hints).toEqual([
				{ message: unreadableWarning('/v1/responses', `created_at ${iso(second)} and updated_at ${iso(second)}`, read), type: 'warning', location: 'outputPane' },
			]);
		});

		it('reads 1,600 detractors of one second from an end user’s category list (no updated filter there) from both ends', async () => {
			const { user, second, ids } = oneSecond(1600, undefined, () => 3);
			const path = `/v1/end_users/${user.id}/responses/detractors`;

			const run = await getResponses({ scope: 'endUser', endUserId: user.id, category: 'detractors', returnAll: true, options: { order } });

			expect(run.error).toBeUndefined();
			const otherOrder = order === 'asc' ? 'desc' : 'asc';
			// The first window is the second's first 1,500: only the other end is read with created[eq].
			expect(pagesOf(`sort_order=${order}`, path)).toEqual(pages(1, 30));
			expect(pagesOf(`created[eq]=${second}&sort_order=${order}`, path)).toEqual([]);
			expect(queries(path).every((query) => !query.includes('updated') && !query.includes('sort_key'))).toBe(true);
			if (bothEndsMeet) {
				expect(sortedIds(run)).toEqual(ids);
				expect(pagesOf(`created[eq]=${second}&sort_order=${otherOrder}`, path)).toEqual(pages(1, 2 + pagesInFlight));
			} else {
				expect(run.items).toHaveLength(1500);
				expect(pagesOf(`created[eq]=${second}&sort_order=${otherOrder}`, path)).toEqual(pages(1, 30));
				expect(run.runData.Wootric[0].hints).toEqual([{ message: unreadableWarning(path, `created_at ${iso(second)}`, 1500), type: 'warning', location: 'outputPane' }]);
			}
		});
	});
});
