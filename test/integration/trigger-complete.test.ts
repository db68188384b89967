import {
	addResponse,
	changeResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import type { EndUser, SurveyResponse } from '../fake/store';
import { runNode } from '../harness';
import { credentialsFor, cursorOf, TriggerSession, updatedSinceQuery } from '../support/wootric';

/**
 * A response is stored before it is complete: the score first, the comment later (`completed`,
 * `updated_at`). Wait Until Complete emits New Response once, complete; Updated Response emits each
 * change.
 */
describe('Wootric Trigger: responses completed after the score', () => {
	let fake: FakeWootric;
	let user: EndUser;

	beforeEach(async () => {
		fake = await startFakeWootric();
		user = createEndUser(fake.account, fake.store, 'ada@example.com');
	});
	afterEach(async () => await fake.close());

	const now = () => fake.clock.now();
	/** A response as the survey stores it when the score is given: not completed, no comment yet. */
	const scored = (score: number, createdAt = now()) =>
		addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score,
			completed: false,
			createdAt,
			updatedAt: createdAt,
		});
	const comment = (response: SurveyResponse, text: string, at = now()) =>
		changeResponse(fake.account, fake.store, response.id, { text, completed: true }, at);
	const listRequests = () => fake.requestsTo('/v1/responses', 'GET');
	/**
	 * The raw query of the listing that finds responses that waited long enough, by their created
	 * seconds.
	 */
	const createdQuery = (from: number, to: number) =>
		`created[lte]=${to}&created[gte]=${from}&sort_key=created_at&sort_order=asc&page=1&per_page=50`;

	describe('New Response with Wait Until Complete', () => {
		const waiting = (filters = {}, options = {}) =>
			new TriggerSession(fake, {
				events: ['response'],
				filters,
				options: {
					waitUntilComplete: true,
					startFrom: new Date((now() - 60) * 1000).toISOString(),
					...options,
				},
			});

		it('holds a response until its comment arrives, then emits it once, with the comment and the Only With a Comment filter judged on it', async () => {
			const session = waiting({ categories: ['detractor'], onlyWithComment: true });
			const response = scored(2);

			const first = await session.poll();
			const held = cursorOf(session, 'responses').waiting;
			// Half a minute later (the response's seconds are read for good), still no comment.
			fake.clock.advance(30);
			const still = await session.poll();
			comment(response, 'The export is broken');
			const completed = await session.poll();
			const after = await session.poll();

			expect(first.result).toBeNull();
			expect(held).toEqual([[response.id, response.createdAt]]);
			expect(still.result).toBeNull();
			expect(completed.items).toEqual([
				expect.objectContaining({
					event: 'response',
					id: response.id,
					text: 'The export is broken',
					completed: true,
				}),
			]);
			expect(after.result).toBeNull();
			expect(session.emitted).toHaveLength(1);
			expect(cursorOf(session, 'responses').waiting).toBeUndefined();
		});

		it('emits a response marked completed without a comment, and one that waited longer than Treat as Complete After, as they are', async () => {
			const session = waiting({}, { completeAfterMinutes: 1 });
			const completedLater = scored(9);
			// Created 50 s ago: one minute old ten seconds from now.
			const neverCommented = scored(4, now() - 50);

			const first = await session.poll();
			await runNode({
				nodeType: 'wootric',
				parameters: {
					resource: 'response',
					operation: 'update',
					responseId: completedLater.id,
					updateFields: { completed: true },
				},
				credentials: credentialsFor(fake),
			});
			const afterPut = await session.poll();
			const { complete } = cursorOf(session, 'responses');
			const beforeWait = listRequests().length;
			fake.clock.advance(15);
			const afterWait = await session.poll();
			const waitRequests = listRequests().slice(beforeWait);
			const idle = await session.poll();

			expect(first.result).toBeNull();
			expect(afterPut.items).toEqual([
				expect.objectContaining({ id: completedLater.id, completed: true, text: null }),
			]);
			expect(afterWait.items).toEqual([
				expect.objectContaining({ id: neverCommented.id, completed: false, text: null }),
			]);
			// Its updated_at did not move, so the updated stream does not bring it: one listing of its
			// created second does.
			expect(complete).toBeGreaterThanOrEqual(neverCommented.updatedAt);
			expect(waitRequests.map((request) => request.rawQuery)).toEqual([
				updatedSinceQuery(complete + 1),
				createdQuery(neverCommented.createdAt, neverCommented.createdAt),
			]);
			expect(idle.result).toBeNull();
			expect(listRequests()).toHaveLength(beforeWait + 3);
			expect(session.emitted.map((item) => item.id)).toEqual([
				completedLater.id,
				neverCommented.id,
			]);
			expect(cursorOf(session, 'responses').waiting).toBeUndefined();
		});

		it('emits a response complete when first read at once, and drops one deleted or invalidated while it waited', async () => {
			const session = waiting();
			const complete = addResponse(fake.account, fake.store, {
				endUserId: user.id,
				score: 10,
				text: 'Great',
				createdAt: now(),
			});
			const deleted = scored(1);
			const invalidated = scored(3);

			const first = await session.poll();
			fake.account.responses.delete(deleted.id);
			changeResponse(fake.account, fake.store, invalidated.id, { excludedFromCalculations: true });
			await session.poll();
			const later = scored(8);
			comment(later, 'ok');
			const last = await session.poll();
			const stillWaiting = cursorOf(session, 'responses').waiting;
			// Treat as Complete After (5 minutes) passes: the listing of their created seconds no longer
			// shows them.
			fake.clock.advance(5 * 60 + 5);
			const { complete: completeBefore } = cursorOf(session, 'responses');
			const before = listRequests().length;
			const timedOut = await session.poll();

			expect(first.items.map((item) => item.id)).toEqual([complete.id]);
			expect(last.items.map((item) => item.id)).toEqual([later.id]);
			expect(stillWaiting).toEqual([
				[deleted.id, deleted.createdAt],
				[invalidated.id, invalidated.createdAt],
			]);
			expect(timedOut.result).toBeNull();
			expect(
				listRequests()
					.slice(before)
					.map((request) => request.rawQuery),
			).toEqual([
				updatedSinceQuery(completeBefore + 1),
				createdQuery(deleted.createdAt, invalidated.createdAt),
			]);
			expect(cursorOf(session, 'responses').waiting).toBeUndefined();
			expect(session.emitted.map((item) => item.id)).toEqual([complete.id, later.id]);
		});

		it('costs one request per idle poll, also while a response waits', async () => {
			const session = waiting();
			await session.poll();
			const idleBefore = listRequests().length;
			await session.poll();
			const idle = listRequests().length - idleBefore;
			const response = scored(5);
			await session.poll();
			// A minute later its second is read for good; it still waits for its comment.
			fake.clock.advance(60);
			await session.poll();
			const { complete } = cursorOf(session, 'responses');
			const waitingBefore = listRequests().length;
			const whileWaiting = await session.poll();

			expect(idle).toBe(1);
			expect(complete).toBeGreaterThanOrEqual(response.createdAt);
			expect(whileWaiting.result).toBeNull();
			expect(
				listRequests()
					.slice(waitingBefore)
					.map((request) => request.rawQuery),
			).toEqual([updatedSinceQuery(complete + 1)]);
			expect(cursorOf(session, 'responses').waiting).toEqual([[response.id, response.createdAt]]);
		});
	});

	describe('Updated Response', () => {
		const watching = (parameters = {}) =>
			new TriggerSession(fake, { events: ['responseUpdated'], ...parameters });

		it('emits each change of a response once, not its creation, and asks for updated[gte] sorted by updated_at', async () => {
			const session = watching();
			await session.poll();
			const response = scored(2);
			const created = await session.poll();
			fake.clock.advance(15);
			comment(response, 'Too slow');
			const commented = await session.poll();
			const idle = await session.poll();
			fake.clock.advance(15);
			changeResponse(fake.account, fake.store, response.id, { tags: ['billing'] });
			const { complete } = cursorOf(session, 'responses');
			const tagged = await session.poll();

			expect(fake.requestsTo('/v1/responses').map((request) => request.rawQuery)).toContain(
				updatedSinceQuery(cursorOf(session, 'responses').from),
			);
			expect(created.result).toBeNull();
			expect(commented.items).toEqual([
				expect.objectContaining({
					event: 'responseUpdated',
					id: response.id,
					text: 'Too slow',
					completed: true,
				}),
			]);
			expect(idle.result).toBeNull();
			expect(tagged.items).toEqual([
				expect.objectContaining({ event: 'responseUpdated', id: response.id, tags: ['billing'] }),
			]);
			expect(complete).toBeGreaterThanOrEqual(response.createdAt);
			expect(listRequests().at(-1)?.rawQuery).toBe(updatedSinceQuery(complete + 1));
		});

		it('emits a second change within the updated_at second a poll already read', async () => {
			const session = watching();
			await session.poll();
			const response = scored(6, now() - 30);
			const second = now() + 1;
			comment(response, 'first words', second);
			const first = await session.poll();
			changeResponse(
				fake.account,
				fake.store,
				response.id,
				{ text: 'first words, then more' },
				second,
			);
			const again = await session.poll();
			const idle = await session.poll();

			expect(first.items.map((item) => item.text)).toEqual(['first words']);
			expect(again.items.map((item) => item.text)).toEqual(['first words, then more']);
			expect(idle.result).toBeNull();
		});

		it('emits 1,600 responses tagged in one second each once (read from both ends); once that second is a minute old, an idle poll is one request for both events', async () => {
			const createdAt = now() - 1000;
			const startFrom = createdAt + 100;
			const session = watching({
				events: ['response', 'responseUpdated'],
				options: { startFrom: new Date(startFrom * 1000).toISOString() },
			});
			const imported = Array.from({ length: 1600 }, (_, index) =>
				addResponse(fake.account, fake.store, {
					endUserId: user.id,
					score: index % 11,
					createdAt: createdAt + (index % 7),
					updatedAt: createdAt + (index % 7),
				}),
			);
			const changedAt = now() - 120;
			for (const response of imported)
				changeResponse(fake.account, fake.store, response.id, { tags: ['imported'] }, changedAt);

			const poll = await session.poll();
			const { complete } = cursorOf(session, 'responses');
			const before = listRequests().length;
			const idle = await session.poll();

			expect(poll.error).toBeUndefined();
			const updatedIds = poll.items
				.filter((item) => item.event === 'responseUpdated')
				.map((item) => Number(item.id));
			expect(updatedIds.sort((a, b) => a - b)).toEqual(imported.map((response) => response.id));
			expect(poll.items.filter((item) => item.event === 'response')).toEqual([]);
			expect(listRequests()[0].rawQuery).toBe(updatedSinceQuery(startFrom));
			// The tagged second read from both ends, which meet: no split by created_at.
			expect(
				listRequests().filter((request) =>
					request.rawQuery.startsWith(
						`updated[eq]=${changedAt}&sort_key=updated_at&sort_order=desc&`,
					),
				),
			).toHaveLength(3);
			expect(listRequests().filter((request) => request.rawQuery.includes('created['))).toEqual([]);
			expect(idle.result).toBeNull();
			expect(complete).toBeGreaterThanOrEqual(changedAt);
			expect(
				listRequests()
					.slice(before)
					.map((request) => request.rawQuery),
			).toEqual([updatedSinceQuery(complete + 1)]);
		});
	});
});
