import type { INodeParameters } from 'n8n-workflow';

import {
	addResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
	type TieOrder,
} from '../fake';
import { runNode, type NodeRun } from '../harness';
import {
	credentialsFor,
	listReading,
	listRequestBound,
	seedResponses,
	TriggerSession,
	VERSION_BEFORE_LOCATORS,
} from '../support/wootric';

/** The warning on the output for records of `path` that share `seconds`, `read` of them read. */
const unreadableWarning = (path: string, seconds: string, read: number) =>
	`Records of ${path} that share ${seconds} could not all be read: ${read} were read, and more may exist that cannot be reached, ` +
	'as Wootric lists at most 1500 records per filter and none of its filters tells these records apart. ' +
	'Read the rest with Get Many for one end user, or with another filter.';

/**
 * Return All (and the trigger) over a second holding more than the 1,500 records one filter
 * reaches, whichever way the service orders the records of one second (the spec does not say): the
 * second is read from its other end first, one page at a time, up to where the two ends meet; only
 * when they do not, it is split by the other time where the list filters on it and its records
 * differ in it, else a warning says what could not be read. Then the window past it starts with one
 * page.
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

	const bothEndsMeet = ties === 'reversed';
	/**
	 * The requests listAll's doc comment allows for a second of the sort time holding `count` > 1,500
	 * records and what follows it: the 30 pages that found it; its other end, one page at a time up
	 * to where the two ends meet (ties reversed, fewer than 3,000), else 30 pages (reversed) or the 1
	 * page that shows both ends list ties alike; when they did not meet and the records differ in the
	 * other time, the walk along it through all of them; then `after`, the window past the second (1
	 * page when nothing follows).
	 */
	const largeSecondBound = (count: number, split: boolean, after = 1, splittable = true) => {
		const meet = bothEndsMeet && count < 3000;
		const otherEnd = meet ? Math.floor((count - 1500) / 50) + 1 : bothEndsMeet ? 30 : 1;
		return (
			30 +
			otherEnd +
			(meet || !splittable ? 0 : split ? listRequestBound(count) : sideReads) +
			after
		);
	};
	/**
	 * Where the ends do not meet and every record read shares the other time's second too: one page
	 * either side of it.
	 */
	const sideReads = 2;
	/**
	 * Those two pages, for a `field` second `second` whose records all share that second of the other
	 * time too.
	 */
	const sidesOf = (field: 'created' | 'updated', second: number) =>
		field === 'created'
			? [
					`updated[lte]=${second - 1}&created[eq]=${second}`,
					`updated[gte]=${second + 1}&created[eq]=${second}`,
				].map((query) => `${query}&sort_key=updated_at&sort_order=asc&page=1&per_page=50`)
			: [
					`updated[eq]=${second}&created[lte]=${second - 1}`,
					`updated[eq]=${second}&created[gte]=${second + 1}`,
				].map((query) => `${query}&sort_key=created_at&sort_order=asc&page=1&per_page=50`);
	/**
	 * The other end's pages of 1,600 records: up to page 3, where the first end's last record shows,
	 * or the first page alone.
	 */
	const otherEndOf1600 = bothEndsMeet ? [1, 2, 3] : [1];
	const getResponses = (parameters: INodeParameters) =>
		runNode({
			nodeType: 'wootric',
			nodeTypeVersion: VERSION_BEFORE_LOCATORS,
			parameters: { resource: 'response', operation: 'getAll', scope: 'all', ...parameters },
			credentials: credentialsFor(fake),
		});
	const getEndUsers = (parameters: INodeParameters) =>
		runNode({
			nodeType: 'wootric',
			nodeTypeVersion: VERSION_BEFORE_LOCATORS,
			parameters: { resource: 'endUser', operation: 'getAll', returnAll: true, ...parameters },
			credentials: credentialsFor(fake),
		});
	/**
	 * `count` responses of one end user created in second createdAt(i) (default: one second), the
	 * i-th updated in second updatedAt(i).
	 */
	const oneSecond = (
		count: number,
		updatedAt?: (index: number) => number,
		score = (index: number) => index % 11,
		createdAt?: (index: number) => number,
	) => {
		const { user } = seedResponses(fake, 0);
		const second = fake.clock.now() - 1000;
		const responses = Array.from({ length: count }, (_, index) =>
			addResponse(fake.account, fake.store, {
				endUserId: user.id,
				score: score(index),
				createdAt: createdAt?.(index) ?? second,
				updatedAt: updatedAt?.(index) ?? second,
			}),
		);
		return { user, second, ids: responses.map((response) => response.id) };
	};
	/**
	 * `count` end users updated in one second, the i-th created in second createdAt(i) (default: that
	 * second).
	 */
	const endUsersOfOneSecond = (count: number, createdAt?: (index: number) => number) => {
		const second = fake.clock.now() - 1000;
		const users = Array.from({ length: count }, (_, index) =>
			createEndUser(fake.account, fake.store, `user${index}@example.com`, {
				createdAt: createdAt?.(index) ?? second,
				updatedAt: second,
			}),
		);
		return { second, ids: users.map((user) => user.id) };
	};
	const sortedIds = (run: NodeRun) =>
		run.items.map(({ json }) => Number(json.id)).sort((a, b) => a - b);
	const iso = (second: number) => new Date(second * 1000).toISOString();
	const queries = (path = '/v1/responses') =>
		fake.requestsTo(path).map((request) => request.rawQuery);
	/** The pages asked for of the query that starts with `prefix`, in order. */
	const pagesOf = (prefix: string, path?: string) =>
		queries(path)
			.filter((query) => query.startsWith(`${prefix}&page=`))
			.map((query) => Number(/&page=(\d+)/.exec(query)![1]))
			.sort((a, b) => a - b);
	const pages = (from: number, to: number) =>
		Array.from({ length: to - from + 1 }, (_, index) => from + index);
	const warningsOf = (run: NodeRun) => run.runData.Wootric[0].hints;

	describe.each(['asc', 'desc'] as const)('%s', (order) => {
		const edgeKey = order === 'asc' ? 'gte' : 'lte';
		const otherOrder = order === 'asc' ? 'desc' : 'asc';
		const past = (second: number) => (order === 'asc' ? second + 1 : second - 1);

		describe('sorted by created_at (Responses)', () => {
			it('reads 1,600 of one created and updated second with 100 before and after: the window that found them not again, then their other end, and no split', async () => {
				const before = seedResponses(fake, 100, { start: fake.clock.now() - 2000 }).responses.map(
					(response) => response.id,
				);
				const { second, ids } = oneSecond(1600);
				const after = seedResponses(fake, 100, { start: fake.clock.now() - 900 }).responses.map(
					(response) => response.id,
				);

				const run = await getResponses({ returnAll: true, options: { order } });

				expect(run.error).toBeUndefined();
				const outer = order === 'asc' ? [before, after] : [after.reverse(), before.reverse()];
				expect(run.items.map(({ json }) => json.id).slice(0, 100)).toEqual(outer[0]);
				expect(run.items.map(({ json }) => json.id).slice(-100)).toEqual(outer[1]);
				expect(new Set(sortedIds(run)).size).toBe(run.items.length);
				// The first window holds 100 others and 1,400 of the second; the next starts on its page 29
				// and finds the second's first 1,500 complete, so no window reads them again.
				expect(
					pagesOf(`created[${edgeKey}]=${second}&sort_key=created_at&sort_order=${order}`),
				).toEqual([29, 30]);
				// Then the other end of the same filter, one page at a time; the updated second they share
				// is not split.
				expect(
					pagesOf(`created[eq]=${second}&sort_key=created_at&sort_order=${otherOrder}`),
				).toEqual(otherEndOf1600);
				expect(queries().filter((query) => query.includes('updated'))).toEqual(
					bothEndsMeet ? [] : sidesOf('created', second),
				);
				// The window past the second starts on page 1: 2 full pages, the empty page 3 and those
				// asked for ahead of it.
				const pastPages = pagesOf(
					`created[${edgeKey}]=${past(second)}&sort_key=created_at&sort_order=${order}`,
				);
				expect(pastPages.slice(0, 3)).toEqual([1, 2, 3]);
				expect(pastPages.length).toBeLessThanOrEqual(listRequestBound(100));
				if (bothEndsMeet) {
					expect(sortedIds(run)).toEqual([...before, ...ids, ...after].sort((a, b) => a - b));
					expect(warningsOf(run)).toEqual([]);
				} else {
					expect(run.items).toHaveLength(1700);
					expect(warningsOf(run)).toEqual([
						{
							message: unreadableWarning(
								'/v1/responses',
								`created_at ${iso(second)} and updated_at ${iso(second)}`,
								1500,
							),
							type: 'warning',
							location: 'outputPane',
						},
					]);
				}
			});

			it('reads 1,600 of one created and updated second and nothing else: 30 pages, the other end up to where the ends meet (or its first page), and one empty page past it', async () => {
				const { second, ids } = oneSecond(1600);

				const run = await getResponses({ returnAll: true, options: { order } });

				expect(run.error).toBeUndefined();
				expect(pagesOf(`sort_key=created_at&sort_order=${order}`)).toEqual(pages(1, 30));
				expect(
					pagesOf(`created[eq]=${second}&sort_key=created_at&sort_order=${otherOrder}`),
				).toEqual(otherEndOf1600);
				expect(
					pagesOf(`created[${edgeKey}]=${past(second)}&sort_key=created_at&sort_order=${order}`),
				).toEqual([1]);
				expect(queries()).toHaveLength(
					30 + otherEndOf1600.length + (bothEndsMeet ? 0 : sideReads) + 1,
				);
				expect(queries().length).toBeLessThanOrEqual(largeSecondBound(1600, false));
				if (bothEndsMeet) expect(sortedIds(run)).toEqual(ids);
				else expect(run.items).toHaveLength(1500);
			});

			it('reads 1,600 of one created second updated over 16 seconds, each once: split by updated_at where the two ends do not meet', async () => {
				const { second, ids } = oneSecond(
					1600,
					(index) => fake.clock.now() - 900 + Math.floor(index / 100),
				);

				const run = await getResponses({ returnAll: true, options: { order } });

				expect(run.error).toBeUndefined();
				expect(sortedIds(run)).toEqual(ids);
				expect(warningsOf(run)).toEqual([]);
				expect(
					pagesOf(`created[eq]=${second}&sort_key=created_at&sort_order=${otherOrder}`),
				).toEqual(otherEndOf1600);
				const split = queries().filter((query) => query.includes('sort_key=updated_at'));
				if (bothEndsMeet) {
					expect(split).toEqual([]);
					expect(queries()).toHaveLength(30 + 3 + 1);
				} else {
					expect(split[0]).toBe(
						`created[eq]=${second}&sort_key=updated_at&sort_order=asc&page=1&per_page=50`,
					);
				}
				expect(queries().length).toBeLessThanOrEqual(largeSecondBound(1600, true));
			});

			it('reads 4,000 of one created second imported over 40 seconds, each once', async () => {
				const { second, ids } = oneSecond(
					4000,
					(index) => fake.clock.now() - 900 + Math.floor(index / 100),
				);

				const run = await getResponses({ returnAll: true, options: { order } });

				expect(run.error).toBeUndefined();
				expect(sortedIds(run)).toEqual(ids);
				// The other end does not meet the first (30 pages when ties are reversed, its first page
				// when not), then the walk along updated_at: 80 pages, as each window move starts on the
				// page after the 100 of its second read, then the empty page that ends the list and those
				// asked for ahead of it.
				const otherEnd = pagesOf(
					`created[eq]=${second}&sort_key=created_at&sort_order=${otherOrder}`,
				);
				expect(otherEnd).toEqual(bothEndsMeet ? pages(1, 30) : [1]);
				const split = queries().filter((query) =>
					query.includes(`created[eq]=${second}&sort_key=updated_at`),
				);
				expect(split.length).toBeLessThanOrEqual(80 + listReading.pagesInFlight);
				expect(queries().length).toBeLessThanOrEqual(largeSecondBound(4000, true));
			});

			it('returns what it can read of 4,000 sharing both seconds, and says on the output that the rest could not be read', async () => {
				const { second, ids } = oneSecond(4000);

				const run = await getResponses({ returnAll: true, options: { order } });

				expect(run.error).toBeUndefined();
				const read = bothEndsMeet ? 3000 : 1500;
				expect(run.items).toHaveLength(read);
				expect(new Set(sortedIds(run)).size).toBe(read);
				expect(sortedIds(run).every((id) => ids.includes(id))).toBe(true);
				expect(warningsOf(run)).toEqual([
					{
						message: unreadableWarning(
							'/v1/responses',
							`created_at ${iso(second)} and updated_at ${iso(second)}`,
							read,
						),
						type: 'warning',
						location: 'outputPane',
					},
				]);
				expect(
					pagesOf(`created[eq]=${second}&sort_key=created_at&sort_order=${otherOrder}`),
				).toEqual(bothEndsMeet ? pages(1, 30) : [1]);
				expect(queries()).toHaveLength(largeSecondBound(4000, false));
			});

			it('reads 1,600 detractors of one second from an end user’s category list (no updated filter there) from both ends', async () => {
				const { user, second, ids } = oneSecond(1600, undefined, () => 3);
				const path = `/v1/end_users/${user.id}/responses/detractors`;

				const run = await getResponses({
					scope: 'endUser',
					endUserId: user.id,
					category: 'detractors',
					returnAll: true,
					options: { order },
				});

				expect(run.error).toBeUndefined();
				// The first window is the second's first 1,500: only the other end is read with
				// created[eq].
				expect(pagesOf(`sort_order=${order}`, path)).toEqual(pages(1, 30));
				expect(pagesOf(`created[eq]=${second}&sort_order=${order}`, path)).toEqual([]);
				expect(
					queries(path).every((query) => !query.includes('updated') && !query.includes('sort_key')),
				).toBe(true);
				expect(pagesOf(`created[eq]=${second}&sort_order=${otherOrder}`, path)).toEqual(
					otherEndOf1600,
				);
				expect(queries(path)).toHaveLength(largeSecondBound(1600, false, 1, false));
				if (bothEndsMeet) {
					expect(sortedIds(run)).toEqual(ids);
				} else {
					expect(run.items).toHaveLength(1500);
					expect(warningsOf(run)).toEqual([
						{
							message: unreadableWarning(path, `created_at ${iso(second)}`, 1500),
							type: 'warning',
							location: 'outputPane',
						},
					]);
				}
			});
		});

		describe('sorted by updated_at (End Users)', () => {
			const path = '/v1/end_users';

			it('reads 1,600 of one created and updated second: 30 pages, the other end of updated[eq] only, one empty page past it', async () => {
				const { second, ids } = endUsersOfOneSecond(1600);

				const run = await getEndUsers({ options: { sortKey: 'updated_at', order } });

				expect(run.error).toBeUndefined();
				expect(pagesOf(`sort_key=updated_at&sort_order=${order}`, path)).toEqual(pages(1, 30));
				expect(
					pagesOf(`updated[eq]=${second}&sort_key=updated_at&sort_order=${otherOrder}`, path),
				).toEqual(otherEndOf1600);
				expect(
					pagesOf(
						`updated[${edgeKey}]=${past(second)}&sort_key=updated_at&sort_order=${order}`,
						path,
					),
				).toEqual([1]);
				// No split by created_at: every record read shares that second too; only either side of it
				// is read.
				expect(queries(path).filter((query) => query.includes('created'))).toEqual(
					bothEndsMeet ? [] : sidesOf('updated', second),
				);
				expect(queries(path)).toHaveLength(
					30 + otherEndOf1600.length + (bothEndsMeet ? 0 : sideReads) + 1,
				);
				expect(queries(path).length).toBeLessThanOrEqual(largeSecondBound(1600, false));
				if (bothEndsMeet) {
					expect(sortedIds(run)).toEqual(ids);
					expect(warningsOf(run)).toEqual([]);
				} else {
					expect(run.items).toHaveLength(1500);
					expect(warningsOf(run)).toEqual([
						{
							message: unreadableWarning(
								path,
								`created_at ${iso(second)} and updated_at ${iso(second)}`,
								1500,
							),
							type: 'warning',
							location: 'outputPane',
						},
					]);
				}
			});

			it('reads 1,600 of one updated second created over 16 seconds, each once: split by created_at where the two ends do not meet', async () => {
				const { second, ids } = endUsersOfOneSecond(
					1600,
					(index) => fake.clock.now() - 2000 + Math.floor(index / 100),
				);

				const run = await getEndUsers({ options: { sortKey: 'updated_at', order } });

				expect(run.error).toBeUndefined();
				expect(sortedIds(run)).toEqual(ids);
				expect(warningsOf(run)).toEqual([]);
				expect(
					pagesOf(`updated[eq]=${second}&sort_key=updated_at&sort_order=${otherOrder}`, path),
				).toEqual(otherEndOf1600);
				const split = queries(path).filter((query) => query.includes('sort_key=created_at'));
				if (bothEndsMeet) {
					expect(split).toEqual([]);
					expect(queries(path)).toHaveLength(30 + 3 + 1);
				} else {
					expect(split[0]).toBe(
						`updated[eq]=${second}&sort_key=created_at&sort_order=asc&page=1&per_page=50`,
					);
				}
				expect(queries(path).length).toBeLessThanOrEqual(largeSecondBound(1600, true));
			});
		});
	});

	describe('the trigger (updated[gte], updated_at oldest first)', () => {
		let session: TriggerSession;

		beforeEach(async () => {
			session = new TriggerSession(fake, { events: ['response'] });
			await session.poll();
		});

		const listRequests = () => fake.requestsTo('/v1/responses', 'GET');
		/**
		 * Moves the service's clock on until `second` is `by` seconds old, as time passes after records
		 * are stored.
		 */
		const letTimePass = (second: number, by: number) =>
			fake.clock.advance(second + by - fake.clock.now());
		/** One poll and the raw queries it sent, each query with its pages. */
		const poll = async () => {
			const before = listRequests().length;
			const run = await session.poll();
			const sent = listRequests()
				.slice(before)
				.map((request) => request.rawQuery);
			const read = new Map<string, number[]>();
			for (const query of sent) {
				const [, prefix, page] = /^(.*)&page=(\d+)&per_page=50$/.exec(query)!;
				read.set(
					prefix,
					[...(read.get(prefix) ?? []), Number(page)].sort((a, b) => a - b),
				);
			}
			return { run, sent, read };
		};
		/**
		 * `count` responses updated in one second, the i-th created in second createdAt(i) (default:
		 * that second).
		 */
		const stored = (
			count: number,
			second: number,
			createdAt: (index: number) => number = () => second,
		) => {
			const { user } = seedResponses(fake, 0);
			return Array.from({ length: count }, (_, index) =>
				addResponse(fake.account, fake.store, {
					endUserId: user.id,
					score: 3,
					createdAt: createdAt(index),
					updatedAt: second,
				}),
			).map((response) => response.id);
		};
		/**
		 * After reading 50 or more, a poll looks once at its last 10 seconds for records changed while
		 * it paged.
		 */
		const changeCheck = [
			expect.stringMatching(
				/^updated\[gte\]=\d+&excluded_from_calculations=true&sort_key=updated_at&sort_order=asc$/,
			),
			[1],
		];
		const emitted = (run: { items: Array<{ event?: unknown; id?: unknown }> }) =>
			run.items.filter((item) => item.event === 'response').map((item) => Number(item.id));

		it('reads 1,600 of one created and updated second: 30 pages, the other end of updated[eq], one empty page past it', async () => {
			const second = fake.clock.now() + 1;
			const ids = stored(1600, second);
			letTimePass(second, 30);

			const { run, sent, read } = await poll();

			expect(run.error).toBeUndefined();
			const [first] = [...read.keys()];
			expect(first).toMatch(/^updated\[gte\]=\d+&sort_key=updated_at&sort_order=asc$/);
			expect([...read]).toEqual([
				[first, pages(1, 30)],
				[`updated[eq]=${second}&sort_key=updated_at&sort_order=desc`, otherEndOf1600],
				...(bothEndsMeet
					? []
					: sidesOf('updated', second).map((query) => [
							query.replace('&page=1&per_page=50', ''),
							[1],
						])),
				[`updated[gte]=${second + 1}&sort_key=updated_at&sort_order=asc`, [1]],
				changeCheck,
			]);
			expect(sent.length).toBeLessThanOrEqual(largeSecondBound(1600, false) + 1);
			const warnings = run.items.filter((item) => item.event === 'warning');
			if (bothEndsMeet) {
				expect(emitted(run).sort((a, b) => a - b)).toEqual(ids);
				expect(warnings).toEqual([]);
			} else {
				expect(new Set(emitted(run)).size).toBe(1500);
				expect(warnings).toEqual([
					expect.objectContaining({
						records_read: 1500,
						created_at: iso(second),
						updated_at: iso(second),
					}),
				]);
			}
		});

		it('reads 1,600 of one updated second created over 16 seconds, each once', async () => {
			const created = fake.clock.now() + 1;
			const second = created + 20;
			const ids = stored(1600, second, (index) => created + Math.floor(index / 100));
			letTimePass(second, 30);

			const { run, sent, read } = await poll();

			expect(run.error).toBeUndefined();
			expect(emitted(run).sort((a, b) => a - b)).toEqual(ids);
			expect(run.items.filter((item) => item.event === 'warning')).toEqual([]);
			expect(read.get(`updated[eq]=${second}&sort_key=updated_at&sort_order=desc`)).toEqual(
				otherEndOf1600,
			);
			expect(read.has(`updated[eq]=${second}&sort_key=created_at&sort_order=asc`)).toBe(
				!bothEndsMeet,
			);
			expect([...read].at(-1)).toEqual(changeCheck);
			if (bothEndsMeet) expect(sent).toHaveLength(30 + 3 + 1 + 1);
			expect(sent.length).toBeLessThanOrEqual(largeSecondBound(1600, true) + 1);
		});
	});
});
