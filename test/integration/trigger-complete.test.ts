import { addResponse, changeResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import type { EndUser, SurveyResponse } from '../fake/store';
import { runNode } from '../harness';
import { credentialsFor, TriggerSession } from '../support/wootric';

/**
 * A response is stored before it is complete: the score first, the comment later (`completed`,
 * `updated_at`). Wait Until Complete emits New Response once, complete; Updated Response emits each change.
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
		addResponse(fake.account, fake.store, { endUserId: user.id, score, completed: false, createdAt, updatedAt: createdAt });
	const comment = (response: SurveyResponse, text: string, at = now()) => changeResponse(fake.account, fake.store, response.id, { text, completed: true }, at);
	const listRequests = () => fake.requestsTo('/v1/responses', 'GET');

	describe('New Response with Wait Until Complete', () => {
		const waiting = (filters = {}, options = {}) =>
			new TriggerSession(fake, { events: ['response'], filters, options: { waitUntilComplete: true, startFrom: new Date((now() - 60) * 1000).toISOString(), ...options } });

		it('holds a response until its comment arrives, then emits it once, with the comment and the Only With a Comment filter judged on it', async () => {
			const session = waiting({ categories: ['detractor'], onlyWithComment: true });
			const response = scored(2);

			const first = await session.poll();
			const still = await session.poll();
			comment(response, 'The export is broken');
			const completed = await session.poll();
			const after = await session.poll();

			expect(first.result).toBeNull();
			expect(still.result).toBeNull();
			expect(completed.items).toEqual([expect.objectContaining({ event: 'response', id: response.id, text: 'The export is broken', completed: true })]);
			expect(after.result).toBeNull();
			expect(session.emitted).toHaveLength(1);
		});

		it('emits a response marked completed without a comment, and one that waited longer than Treat as Complete After, as they are', async () => {
			const session = waiting({}, { completeAfterMinutes: 1 });
			const completedLater = scored(9);
			// Created 58 s ago: one minute old two seconds from now.
			const neverCommented = scored(4, now() - 58);

			await session.poll();
			await runNode({ nodeType: 'wootric', parameters: { resource: 'response', operation: 'update', responseId: completedLater.id, updateFields: { completed: true } }, credentials: credentialsFor(fake) });
			const afterPut = await session.poll();
			await new Promise((resolve) => setTimeout(resolve, 2500));
			const afterWait = await session.poll();

			expect(afterPut.items).toEqual([expect.objectContaining({ id: completedLater.id, completed: true, text: null })]);
			expect(afterWait.items).toEqual([expect.objectContaining({ id: neverCommented.id, completed: false, text: null })]);
			expect(session.emitted.map((item) => item.id)).toEqual([completedLater.id, neverCommented.id]);
		});

		it('emits a response complete when first read at once, and drops one deleted or invalidated while it waited', async () => {
			const session = waiting();
			const complete = addResponse(fake.account, fake.store, { endUserId: user.id, score: 10, text: 'Great', createdAt: now() });
			const deleted = scored(1);
			const invalidated = scored(3);

			const first = await session.poll();
			fake.account.responses.delete(deleted.id);
			changeResponse(fake.account, fake.store, invalidated.id, { excludedFromCalculations: true });
			await session.poll();
			const later = scored(8);
			comment(later, 'ok');
			const last = await session.poll();

			expect(first.items.map((item) => item.id)).toEqual([complete.id]);
			expect(last.items.map((item) => item.id)).toEqual([later.id]);
			expect((session.staticData.response as { pending?: unknown }).pending).toBeUndefined();
		});

		it('costs one request per idle poll, also while a response waits', async () => {
			const session = waiting();
			await session.poll();
			const idleBefore = listRequests().length;
			await session.poll();
			const idle = listRequests().length - idleBefore;
			scored(5);
			await session.poll();
			const waitingBefore = listRequests().length;
			await session.poll();
			const whileWaiting = listRequests().length - waitingBefore;

			expect(idle).toBe(1);
			expect(whileWaiting).toBe(1);
			expect((session.staticData.response as { pending?: unknown[] }).pending).toHaveLength(1);
		});
	});

	describe('Updated Response', () => {
		const watching = (parameters = {}) => new TriggerSession(fake, { events: ['responseUpdated'], ...parameters });

		it('emits each change of a response once, not its creation, and asks for updated[gte] sorted by updated_at', async () => {
			const session = watching();
			await session.poll();
			const response = scored(2, now() - 30);
			const created = await session.poll();
			comment(response, 'Too slow', now() + 1);
			const commented = await session.poll();
			const idle = await session.poll();
			changeResponse(fake.account, fake.store, response.id, { tags: ['billing'] }, now() + 2);
			const since = (session.staticData.responseUpdated as { since: number }).since;
			const tagged = await session.poll();

			expect(created.result).toBeNull();
			expect(commented.items).toEqual([expect.objectContaining({ event: 'responseUpdated', id: response.id, text: 'Too slow', completed: true })]);
			expect(idle.result).toBeNull();
			expect(tagged.items).toEqual([expect.objectContaining({ event: 'responseUpdated', id: response.id, tags: ['billing'] })]);
			expect(listRequests().at(-1)?.rawQuery).toBe(`updated[gte]=${since}&sort_key=updated_at&sort_order=asc&page=1&per_page=50`);
		});

		it('emits a second change within the updated_at second a poll already read', async () => {
			const session = watching();
			await session.poll();
			const response = scored(6, now() - 30);
			const second = now() + 1;
			comment(response, 'first words', second);
			const first = await session.poll();
			changeResponse(fake.account, fake.store, response.id, { text: 'first words, then more' }, second);
			const again = await session.poll();
			const idle = await session.poll();

			expect(first.items.map((item) => item.text)).toEqual(['first words']);
			expect(again.items.map((item) => item.text)).toEqual(['first words, then more']);
			expect(idle.result).toBeNull();
		});

		it('emits 1,600 responses tagged in one second each once (split by created_at); once that second is a minute old, an idle poll is one request per event', async () => {
			const createdAt = now() - 1000;
			const session = watching({ events: ['response', 'responseUpdated'], options: { startFrom: new Date((createdAt + 100) * 1000).toISOString() } });
			const imported = Array.from({ length: 1600 }, (_, index) => addResponse(fake.account, fake.store, { endUserId: user.id, score: index % 11, createdAt: createdAt + (index % 7), updatedAt: createdAt + (index % 7) }));
			const changedAt = now() - 120;
			for (const response of imported) changeResponse(fake.account, fake.store, response.id, { tags: ['imported'] }, changedAt);

			const poll = await session.poll();
			const before = listRequests().length;
			const idle = await session.poll();

			expect(poll.error).toBeUndefined();
			const updatedIds = poll.items.filter((item) => item.event === 'responseUpdated').map((item) => Number(item.id));
			expect(updatedIds.sort((a, b) => a - b)).toEqual(imported.map((response) => response.id));
			expect(poll.items.filter((item) => item.event === 'response')).toEqual([]);
			expect(idle.result).toBeNull();
			expect(listRequests().length - before).toBe(2);
		});
	});
});
