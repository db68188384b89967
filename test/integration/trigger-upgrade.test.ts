import {
	addDecline,
	addResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import { TriggerSession } from '../support/wootric';

/**
 * What a trigger kept when its settings or the package change: 0.1's cursors, responses held for
 * Wait Until Complete.
 */
describe('Wootric Trigger: static data kept across changes', () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	it('carries on from the oldest second of the old cursors: what they had read is not emitted again, nothing after them is lost', async () => {
		const user = createEndUser(fake.account, fake.store, 'ada@example.com');
		const since = fake.clock.now() - 600;
		const respond = (createdAt: number) =>
			addResponse(fake.account, fake.store, { endUserId: user.id, score: 2, createdAt });
		const read = [respond(since), respond(since)];
		const unread = [respond(since), respond(since + 30)];
		const decline = addDecline(fake.account, fake.store, {
			endUserId: user.id,
			createdAt: since + 40,
		});
		const session = new TriggerSession(
			fake,
			{ events: ['response', 'decline'] },
			{
				response: { since, seen: read.map((response) => [response.id, since]) },
				decline: { since: since + 10, seen: [] },
			},
		);

		const poll = await session.poll();
		fake.clock.advance(60);
		const next = await session.poll();

		expect(poll.items.map((item) => [item.event, item.id])).toEqual([
			...unread.map((response) => ['response', response.id]),
			['decline', decline.id],
		]);
		expect(next.result).toBeNull();
		expect(Object.keys(session.staticData).sort()).toEqual(['declines', 'responses']);
	});

	it('emits, as they are, the responses Wait Until Complete held once the option is turned off', async () => {
		const user = createEndUser(fake.account, fake.store, 'ada@example.com');
		const waiting = new TriggerSession(fake, {
			events: ['response'],
			options: { waitUntilComplete: true },
		});
		await waiting.poll();
		const held = addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 2,
			completed: false,
			createdAt: fake.clock.now(),
		});
		fake.clock.advance(30);
		const first = await waiting.poll();

		const turnedOff = new TriggerSession(fake, { events: ['response'] }, waiting.staticData);
		const next = await turnedOff.poll();

		expect(first.result).toBeNull();
		expect(next.items).toEqual([expect.objectContaining({ id: held.id, completed: false })]);
		expect((turnedOff.staticData.responses as { waiting?: unknown }).waiting).toBeUndefined();
	});
});
