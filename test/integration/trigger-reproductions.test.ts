import type { IDataObject } from 'n8n-workflow';

import {
	addResponse,
	changeResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import type { EndUser, SurveyResponse } from '../fake/store';
import { itAtFullSize } from '../support/test-size';
import { fakeDateOnly, TriggerSession } from '../support/wootric';

/**
 * How long the full-size reproductions (10,100 to 25,000 records through n8n's engine) may take: a
 * guard against a hang, not a speed check (`npm run bench` measures speed). The 25,000 take half a
 * minute alone; beside CI's background install on a slow two-core machine they ran past 90 s.
 */
const FULL_SIZE_TIMEOUT_MS = 300_000;

/**
 * What went wrong with the trigger's cursor, each as it was reproduced: before its redesign, poll
 * gaps of n8n's "Every Minute", a long Lookback, waiting responses, Start From's time zone,
 * Lookback at activation, and a second holding more than a window; after it, a change in the
 * creation second, a record emitted both as new and as changed by one sighting, and a new record
 * that changed past where a poll stopped before the poll reached it; a response stored invalidated,
 * counted later, taken for an import. The host's clock (Date) is the test's and moves with the
 * service's, as time passes for both.
 */

describe('Wootric Trigger: the cursor reproductions', () => {
	let fake: FakeWootric;
	let user: EndUser;

	beforeAll(() => fakeDateOnly(Date.UTC(2026, 10, 20, 12, 0, 0, 400)));
	afterAll(() => jest.useRealTimers());
	beforeEach(async () => {
		fake = await startFakeWootric();
		user = createEndUser(fake.account, fake.store, 'ada@example.com');
	});
	afterEach(async () => await fake.close());

	const now = () => fake.clock.now();
	/** Time passes on both clocks. */
	const wait = (seconds: number) => jest.setSystemTime(Date.now() + seconds * 1000);
	const store = (fields: Partial<SurveyResponse> = {}) =>
		addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 3,
			createdAt: now(),
			...fields,
		});
	const listRequests = () => fake.requestsTo('/v1/responses', 'GET');
	const ids = (items: IDataObject[]) => items.map((item) => Number(item.id));
	const stateSize = (session: TriggerSession) => JSON.stringify(session.staticData).length;

	it.each(['response', 'responseUpdated'] as const)(
		'1. %s: a record stored in the second of the last read comes with polls a minute apart',
		async (event) => {
			const session = new TriggerSession(fake, { events: [event] });
			await session.poll();
			wait(5);
			const a = store({ text: null, completed: false, createdAt: now() - 3 });
			if (event === 'responseUpdated')
				changeResponse(fake.account, fake.store, a.id, { text: 'first' }, now());
			await session.poll();
			// In the same second, after that read.
			const b =
				event === 'response'
					? store()
					: changeResponse(
							fake.account,
							fake.store,
							store({ createdAt: now() - 3 }).id,
							{ text: 'second' },
							now(),
						);
			wait(60);
			await session.poll();
			wait(60);
			await session.poll();

			expect(ids(session.emitted)).toEqual([a.id, b.id]);
		},
	);

	// 25,000 records through n8n's engine: half a minute alone, more on a busy machine; at full size
	// only (test/support/test-size.ts), as the 20,100 and 10,100 below.
	itAtFullSize(
		'2. Lookback of 10,080 minutes over 25,000 responses of three days: each once, then idle polls read nothing twice',
		async () => {
			const start = now();
			const responses = Array.from({ length: 25_000 }, (_, index) =>
				store({ createdAt: start + Math.floor((index * 3 * 86_400) / 25_000) }),
			);
			wait(3 * 86_400 + 60);
			const session = new TriggerSession(fake, {
				events: ['response'],
				options: { lookbackMinutes: 10_080, startFrom: new Date(start * 1000).toISOString() },
			});

			const perPoll: number[] = [];
			for (let poll = 0; poll < 5; poll++) {
				perPoll.push((await session.poll()).items.length);
				wait(60);
			}
			const before = listRequests().length;
			await session.poll();

			// At most 10,000 a poll (a page more where the cap falls inside one), then nothing.
			expect(perPoll.slice(3)).toEqual([0, 0]);
			expect(perPoll.slice(0, 2).every((count) => count >= 10_000 && count < 10_050)).toBe(true);
			expect(ids(session.emitted)).toEqual(responses.map((response) => response.id));
			expect(listRequests().length - before).toBe(1);
			expect(stateSize(session)).toBeLessThan(300);
		},
		FULL_SIZE_TIMEOUT_MS,
	);

	itAtFullSize(
		'2. Wait Until Complete with 1,440 minutes: one response waiting and 20,100 after it, each once, one request per idle poll',
		async () => {
			const session = new TriggerSession(fake, {
				events: ['response'],
				options: { waitUntilComplete: true, completeAfterMinutes: 1440 },
			});
			await session.poll();
			wait(1);
			const waiting = store({ completed: false });
			const after = Array.from({ length: 20_100 }, (_, index) =>
				store({ createdAt: now() + 1 + Math.floor(index / 10), completed: true }),
			);
			wait(2100);
			for (let poll = 0; poll < 4; poll++) {
				await session.poll();
				wait(60);
			}
			const before = listRequests().length;
			const idle = await session.poll();
			const idleRequests = listRequests().length - before;
			wait(1440 * 60);
			const timedOut = await session.poll();

			expect(ids(session.emitted)).toEqual([...after.map((response) => response.id), waiting.id]);
			expect(idle.result).toBeNull();
			expect(idleRequests).toBe(1);
			expect(timedOut.items).toEqual([
				expect.objectContaining({ id: waiting.id, completed: false }),
			]);
			// 20,100 records paged through n8n's engine: ~11 s alone, more on a loaded CI machine.
		},
		FULL_SIZE_TIMEOUT_MS,
	);

	it('3. one response waiting and 2,000 newer: an idle poll costs one request; 200,000 waiting ones do not break the poll', async () => {
		const session = new TriggerSession(fake, {
			events: ['response'],
			options: { waitUntilComplete: true },
		});
		await session.poll();
		wait(1);
		store({ completed: false });
		wait(1);
		const second = now();
		for (let index = 0; index < 2000; index++)
			store({ completed: true, createdAt: second + Math.floor(index / 20) });
		wait(130);
		await session.poll();
		wait(60);
		const before = listRequests().length;
		await session.poll();
		const idleRequests = listRequests().length - before;
		const cursor = session.staticData.responses as { waiting: Array<[number, number]> };
		expect(cursor.waiting).toHaveLength(1);

		// As many waiting as a very busy account could hold: all due at once, none still listed.
		cursor.waiting = Array.from({ length: 200_000 }, (_, index) => [
			10_000_000 + index,
			now() - 600,
		]);
		const due = await session.poll();

		expect(idleRequests).toBe(1);
		expect(due.error).toBeUndefined();
		expect((session.staticData.responses as { waiting?: unknown }).waiting).toBeUndefined();
	});

	it("4. Start From is read in the workflow's time zone, as the action node reads dates", async () => {
		// 2026-11-20 10:00 in New York is 15:00 UTC.
		const tenInNewYork = Date.UTC(2026, 10, 20, 15, 0, 0) / 1000;
		const before = store({ createdAt: tenInNewYork - 1 });
		const at = store({ createdAt: tenInNewYork });
		const session = new TriggerSession(
			fake,
			{ events: ['response'], options: { startFrom: '2026-11-20T10:00:00' } },
			{},
			'America/New_York',
		);

		const first = await session.poll();
		const wrong = await new TriggerSession(fake, {
			events: ['response'],
			options: { startFrom: 'next Tuesday' },
		}).poll();

		expect(ids(first.items)).toEqual([at.id]);
		expect(ids(first.items)).not.toContain(before.id);
		expect(wrong.error?.message).toMatch(
			/^Start From must be a date \(ISO 8601, e\.g\. 2026-01-31T12:00:00Z\) or UNIX seconds \(got "next Tuesday"\)/,
		);
	});

	it('5. Lookback at activation emits nothing stored before the trigger was activated', async () => {
		const before = Array.from({ length: 5 }, () => store({ createdAt: now() - 300 }));
		const session = new TriggerSession(fake, {
			events: ['response'],
			options: { lookbackMinutes: 10 },
		});
		await session.poll();
		wait(60);
		const after = store();
		wait(60);
		await session.poll();

		expect(ids(session.emitted)).toEqual([after.id]);
		expect(ids(session.emitted)).not.toEqual(expect.arrayContaining([before[0].id]));
	});

	describe.each(['reversed', 'idAscending'] as const)(
		'6. a second of 1,600 records, ties %s',
		(tieOrder) => {
			it('is read without depending on how ties are ordered: every record once, or a warning of what could not be read; once, not again on every poll', async () => {
				fake.tieOrder = tieOrder;
				const session = new TriggerSession(fake, { events: ['response'] });
				await session.poll();
				wait(1);
				const second = now();
				const cluster = Array.from({ length: 1600 }, () => store({ createdAt: second }));
				wait(30);

				const poll = await session.poll();
				const requests = listRequests().length;
				wait(60);
				const idle = await session.poll();

				const responses = poll.items.filter((item) => item.event === 'response');
				const warnings = poll.items.filter((item) => item.event === 'warning');
				expect(new Set(ids(responses)).size).toBe(responses.length);
				if (responses.length < cluster.length) {
					expect(warnings).toEqual([
						expect.objectContaining({ warning: expect.stringMatching(/could not all be read/) }),
					]);
				} else {
					expect(ids(responses).sort((a, b) => a - b)).toEqual(
						cluster.map((response) => response.id),
					);
					expect(warnings).toEqual([]);
				}
				// Read in one poll: the first poll's request, the 30 pages that found the second, its other
				// end up to where the two ends meet (3 pages reversed; else 1, and a page either side of
				// its created second), the empty page past it, and one look at the last 10 seconds for
				// records changed while it paged; an idle poll after it is one request.
				expect(requests).toBeLessThanOrEqual(1 + 30 + 3 + 1 + 1);
				expect(idle.result).toBeNull();
				expect(listRequests().length - requests).toBe(1);
			});
		},
	);
	it('7. a response read in its creation second and changed within that second is emitted as changed', async () => {
		const session = new TriggerSession(fake, { events: ['response', 'responseUpdated'] });
		await session.poll();
		wait(5);
		const response = store({ text: null, completed: false });
		await session.poll();
		// Same second as the read and as created_at: updated_at = created_at.
		changeResponse(fake.account, fake.store, response.id, { tags: ['billing'] }, now());
		wait(60);
		await session.poll();
		wait(60);
		await session.poll();

		expect(session.emitted.map(({ event, id, tags }) => ({ event, id, tags }))).toEqual([
			{ event: 'response', id: response.id, tags: [] },
			{ event: 'responseUpdated', id: response.id, tags: ['billing'] },
		]);
	});

	it.each([0, 10])(
		"8. a response created a few seconds before it is stored (after the cursor's complete second), Lookback %i minutes: emitted once as new, and as changed since",
		async (lookbackMinutes) => {
			const session = new TriggerSession(fake, {
				events: ['response', 'responseUpdated'],
				options: { lookbackMinutes },
			});
			await session.poll();
			wait(30);
			await session.poll();
			// Created a few seconds ago (after the cursor's complete second), stored now: the trigger
			// cannot tell it from one changed since it was stored, before a poll could read it.
			const imported = store({ createdAt: now() - 5, updatedAt: now() });
			wait(60);
			await session.poll();
			wait(60);
			await session.poll();

			expect(session.emitted.map(({ event, id }) => ({ event, id }))).toEqual([
				{ event: 'response', id: imported.id },
				{ event: 'responseUpdated', id: imported.id },
			]);
		},
	);

	it('8. an import stored after activation with a created_at the trigger had read past, Lookback 10 minutes: emitted once, as new', async () => {
		const session = new TriggerSession(fake, {
			events: ['response', 'responseUpdated'],
			options: { lookbackMinutes: 10 },
		});
		await session.poll();
		wait(120);
		await session.poll();
		const imported = store({ createdAt: now() - 60, updatedAt: now() });
		wait(60);
		await session.poll();
		wait(60);
		await session.poll();

		expect(session.emitted.map(({ event, id }) => ({ event, id }))).toEqual([
			{ event: 'response', id: imported.id },
		]);
	});

	it('9. Wait Until Complete: a held response emitted when its comment comes is emitted as it is then, new and changed', async () => {
		const session = new TriggerSession(fake, {
			events: ['response', 'responseUpdated'],
			options: { waitUntilComplete: true },
		});
		await session.poll();
		wait(5);
		const response = store({ text: null, completed: false });
		wait(30);
		await session.poll();
		changeResponse(fake.account, fake.store, response.id, { text: 'Too slow', completed: true });
		wait(60);
		await session.poll();
		wait(60);
		await session.poll();

		expect(session.emitted.map(({ event, id, text }) => ({ event, id, text }))).toEqual([
			{ event: 'response', id: response.id, text: 'Too slow' },
			{ event: 'responseUpdated', id: response.id, text: 'Too slow' },
		]);
	});

	it('10. Wait Until Complete: a held response tagged just before its wait runs out, after the poll read it, is emitted once as new and once as changed, as it is', async () => {
		const session = new TriggerSession(fake, {
			events: ['response', 'responseUpdated'],
			options: { waitUntilComplete: true, completeAfterMinutes: 1 },
		});
		await session.poll();
		wait(5);
		const response = store({ text: null, completed: false });
		wait(30);
		await session.poll();
		wait(60);
		// Between the poll's read of it and the listing of the responses whose wait ran out.
		fake.arrivalHooks.push((request) => {
			if (request.query.created && response.tags.length === 0)
				changeResponse(fake.account, fake.store, response.id, { tags: ['billing'] });
		});
		await session.poll();
		wait(60);
		await session.poll();

		expect(session.emitted.map(({ event, id, tags }) => ({ event, id, tags }))).toEqual([
			{ event: 'response', id: response.id, tags: ['billing'] },
			{ event: 'responseUpdated', id: response.id, tags: ['billing'] },
		]);
	});
	it('12. a poll resuming inside a second an older response changed into, before the page it checks, after the poll that stopped there read that far: the change is emitted', async () => {
		const older = store({ createdAt: now() - 600 });
		const session = new TriggerSession(fake, { events: ['responseUpdated'] });
		await session.poll();
		// 220 of the activation second, whose fourth page takes 7 s of n8n's 20 for the poll: the poll
		// stops inside that second, two seconds old, having read 199 of its records.
		const second = now();
		for (let index = 0; index < 220; index++) store({ createdAt: second, updatedAt: second });
		wait(2);
		// Once the poll has read the second's first page: the change, stamped in that second (readable
		// within the 10 s the cursor allows), lists first among its records, shifting them one on; the
		// next poll's check of page 3 finds it all known.
		const pagesOfSecond = new Set<unknown>();
		fake.arrivalHooks.push((request) => {
			const { page } = request.query;
			if (request.path !== '/v1/responses' || request.query.excluded_from_calculations) return;
			if (pagesOfSecond.has(page)) return;
			pagesOfSecond.add(page);
			if (page === '2')
				changeResponse(fake.account, fake.store, older.id, { tags: ['late'] }, second);
			if (page === '4') wait(7);
		});
		const stopped = await session.poll('trigger', 20_000);
		fake.arrivalHooks.length = 0;
		expect(stopped.error).toBeUndefined();
		expect(session.staticData.responses).toEqual(expect.objectContaining({ complete: second - 1 }));
		wait(60);
		await session.poll();
		wait(60);
		await session.poll();

		expect(session.emitted.filter(({ id }) => id === older.id).map(({ tags }) => tags)).toEqual([
			['late'],
		]);
	});

	itAtFullSize.each([
		['created in the seconds it read', 0],
		[
			'stored late in the seconds it read with a created_at before them (an import; Lookback 10 minutes)',
			10,
		],
	])(
		'11. a poll that stops at 10,000 records: a response %s, changed past where it stopped before it was read, is emitted once as new',
		async (_, lookbackMinutes) => {
			const session = new TriggerSession(fake, {
				events: ['response'],
				options: { lookbackMinutes },
			});
			await session.poll();
			wait(120);
			await session.poll();
			const start = now() + 1;
			// Ten a second; the one changed later is stored halfway, so that records read after it have
			// higher ids.
			const responses = Array.from({ length: 10_100 }, (_, index) =>
				index === 5_000 && lookbackMinutes > 0
					? store({ createdAt: start - 60, updatedAt: start + 500 })
					: store({ createdAt: start + Math.floor(index / 10) }),
			);
			const moved = responses[5_000];
			wait(1_100);
			changeResponse(fake.account, fake.store, moved.id, { text: 'Added later' }, now());
			for (let poll = 0; poll < 3; poll++) {
				wait(60);
				await session.poll();
			}

			expect(session.emitted.filter(({ id }) => id === moved.id)).toHaveLength(1);
			expect(ids(session.emitted).sort((a, b) => a - b)).toEqual(
				responses.map(({ id }) => id).sort((a, b) => a - b),
			);
		},
		FULL_SIZE_TIMEOUT_MS,
	);

	it('13. a response stored invalidated, then counted with a comment, read for the first time after the cursor passed its creation, within Lookback: emitted as new and as changed, not as an import', async () => {
		const session = new TriggerSession(fake, {
			events: ['response', 'responseUpdated'],
			options: { lookbackMinutes: 10 },
		});
		await session.poll();
		wait(5);
		// Left out of the list until counted.
		const counted = store({ text: null, completed: true, excludedFromCalculations: true });
		changeResponse(fake.account, fake.store, counted.id, { text: 'Said later' }, now() + 2);
		wait(60);
		await session.poll();
		// Stored after it (a higher id), read before it, in a second before it is counted.
		wait(5);
		const later = store();
		wait(30);
		changeResponse(
			fake.account,
			fake.store,
			counted.id,
			{ excludedFromCalculations: false },
			now(),
		);
		wait(60);
		await session.poll();
		wait(60);
		await session.poll();

		expect(
			session.emitted
				.map(({ event, id, text }) => ({ event: String(event), id: Number(id), text }))
				.sort((a, b) => a.id - b.id || a.event.localeCompare(b.event)),
		).toEqual([
			{ event: 'response', id: counted.id, text: 'Said later' },
			{ event: 'responseUpdated', id: counted.id, text: 'Said later' },
			{ event: 'response', id: later.id, text: null },
		]);
	});
});
