import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	changeResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import type { EndUser, SurveyResponse } from '../fake/store';
import {
	declinePayload,
	encodeWebhook,
	responsePayload,
	type WebhookPayload,
} from '../fake/webhook-body';
import {
	closeWebhookSessions,
	NOTHING_TO_START,
	post,
	signed,
	WebhookSession,
	WORKFLOW_STARTED,
} from '../support/webhooks';
import { fakeDateOnly } from '../support/wootric';

const MINUTE = 60;

/**
 * What n8n cannot fold, and what it refuses: every item carries the idempotency key a system
 * downstream folds repeats by (the same in every n8n process); a delivery older than Max Age (its
 * signed timestamp) starts nothing; what a process remembers lasts Max Age.
 */
describe('Wootric Webhook Trigger: idempotency keys, Max Age and the memory’s time bound', () => {
	let fake: FakeWootric;
	let user: EndUser;

	beforeEach(async () => {
		fakeDateOnly(Date.UTC(2026, 10, 25, 12, 0, 0));
		// Times in the body are local with an offset (-0700): Max Age must read them as instants.
		fake = await startFakeWootric({ utcOffsetMinutes: -420 });
		user = createEndUser(fake.account, fake.store, 'ada@example.com');
	});
	afterEach(async () => {
		await closeWebhookSessions();
		await fake.close();
		jest.useRealTimers();
	});

	const start = async (parameters: INodeParameters = {}) =>
		await WebhookSession.start(fake, {
			events: ['response', 'responseUpdated', 'decline'],
			...parameters,
		});
	const response = (fields: Partial<SurveyResponse> = {}) =>
		addResponse(fake.account, fake.store, { endUserId: user.id, score: 3, ...fields });
	const created = (record: SurveyResponse, sentAt = fake.clock.now()) =>
		responsePayload(fake.account, record, 'created', sentAt);
	const advanceMinutes = (minutes: number) => jest.setSystemTime(Date.now() + minutes * 60_000);
	const keys = (session: WebhookSession) => session.emitted.map((item) => item.idempotency_key);
	const message = (text: string) => (JSON.parse(text) as IDataObject).message;

	describe('the idempotency key', () => {
		it('is the event and the record id for a creation, with the updated_at second for a change', async () => {
			const session = await start();
			const scored = response({ text: null });
			const changed = changeResponse(
				fake.account,
				fake.store,
				scored.id,
				{ text: 'Why' },
				scored.createdAt + 42,
			);
			const declined = addDecline(fake.account, fake.store, { endUserId: user.id });

			for (const payload of [
				created(scored),
				responsePayload(fake.account, changed, 'updated', fake.clock.now()),
				declinePayload(fake.account, declined, fake.clock.now()),
			])
				await session.deliver(payload);

			const changedAt = new Date((scored.createdAt + 42) * 1000)
				.toISOString()
				.replace('.000Z', 'Z');
			expect(keys(session)).toEqual([
				`response:${scored.id}`,
				`responseUpdated:${scored.id}:${changedAt}`,
				`decline:${declined.id}`,
			]);
			// Right after the event, simplified or not.
			expect(Object.keys(session.emitted[0]).slice(0, 2)).toEqual(['event', 'idempotency_key']);
		});

		it('a response completed by its comment (Only With a Comment) has the key of its creation', async () => {
			const session = await start({ events: ['response'], filters: { onlyWithComment: true } });
			const scored = response({ text: null });
			const commented = changeResponse(
				fake.account,
				fake.store,
				scored.id,
				{ text: 'Why' },
				scored.createdAt + 60,
			);

			await session.deliver(created(scored));
			await session.deliver(responsePayload(fake.account, commented, 'updated', fake.clock.now()));

			expect(keys(session)).toEqual([`response:${scored.id}`]);
		});

		it('the same delivery at two n8n processes (each remembering nothing of the other) starts both, with one key', async () => {
			const parameters = { events: ['response'], options: { simplify: true } };
			const [first, second] = [await start(parameters), await start(parameters)];
			const stored = response();

			await first.deliver(created(stored));
			await second.deliver(created(stored), 'json');

			expect([...keys(first), ...keys(second)]).toEqual([
				`response:${stored.id}`,
				`response:${stored.id}`,
			]);
		});
	});

	describe('Max Age', () => {
		it.each<[string, boolean, INodeParameters, number]>([
			['sent 59 minutes ago (the default 60)', true, {}, 59],
			['sent 61 minutes ago (the default 60)', false, {}, 61],
			['sent 4 minutes ago (Max Age 5)', true, { maxAgeMinutes: 5 }, 4],
			['sent 6 minutes ago (Max Age 5)', false, { maxAgeMinutes: 5 }, 6],
		])('a delivery %s starts the workflow: %s', async (_, starts, options, minutesAgo) => {
			const session = await start({ events: ['response'], options });
			const sentAt = fake.clock.now() - minutesAgo * MINUTE;

			const answer = await session.deliver(created(response(), sentAt));

			expect(answer.status).toBe(200);
			if (starts) {
				expect(answer.text).toBe(WORKFLOW_STARTED);
				expect(session.emitted).toHaveLength(1);
			} else {
				const maxAge = (options.maxAgeMinutes as number | undefined) ?? 60;
				expect(message(answer.text)).toBe(
					`Ignored: sent at ${new Date(sentAt * 1000).toISOString()}, older than Max Age (${maxAge} minutes)`,
				);
				expect(session.emitted).toEqual([]);
			}
		});

		it('a captured delivery replayed after Max Age starts nothing, in a process that remembers it or not', async () => {
			const session = await start({ events: ['response'] });
			const payload = created(response());
			await session.deliver(payload);
			advanceMinutes(61);
			const restarted = await start({ events: ['response'] });

			const answers = [await session.deliver(payload), await restarted.deliver(payload, 'json')];

			expect(answers.map(({ text }) => message(text))).toEqual([
				expect.stringMatching(/^Ignored: sent at .*, older than Max Age \(60 minutes\)$/),
				expect.stringMatching(/^Ignored: /),
			]);
			expect([session.emitted.length, restarted.emitted.length]).toEqual([1, 0]);
		});

		/** The form body of a payload without its timestamp, signed. */
		const withoutTimestamp = (payload: WebhookPayload) => {
			const form = new URLSearchParams(encodeWebhook(payload, 'form').body);
			form.delete('timestamp');
			return signed(fake, form.toString(), 'application/x-www-form-urlencoded');
		};

		it.each([
			['changed 59 minutes ago', true, 59],
			['changed 61 minutes ago', false, 61],
		])(
			'a body without a timestamp is as old as its record’s updated_at (signed too, and never after the sending): %s, starts the workflow: %s',
			async (_, starts, minutesAgo) => {
				const session = await start({ events: ['response'] });
				const at = fake.clock.now() - minutesAgo * MINUTE;
				const stored = response({ createdAt: at, updatedAt: at });

				const answer = await post(session.trigger.productionUrl, withoutTimestamp(created(stored)));

				expect(answer.status).toBe(200);
				expect(session.emitted).toHaveLength(starts ? 1 : 0);
			},
		);

		it.each([
			[
				'a form timestamp that is not a date',
				(payload: WebhookPayload) => ({ ...payload, timestamp: 'yesterday' }),
				'form',
			],
			[
				'a JSON timestamp that is an object',
				(payload: WebhookPayload) => ({ ...payload, timestamp: {} as unknown as string }),
				'json',
			],
		] as const)('%s is answered 400 and starts nothing', async (_, change, format) => {
			const session = await start({ events: ['response'] });

			const answer = await session.deliver(change(created(response())), format);

			expect([answer.status, message(answer.text)]).toEqual([400, 'timestamp is not a datetime']);
			expect(session.emitted).toEqual([]);
		});

		it.each([-8.64e12 - 1, 8.64e12 + 1, -Number.MAX_VALUE])(
			'a JSON timestamp of %d seconds, past the dates that can be told, is answered 400 and starts nothing',
			async (timestamp) => {
				const session = await start({ events: ['response'] });
				const body = JSON.parse(encodeWebhook(created(response()), 'json').body) as IDataObject;

				const answer = await post(
					session.trigger.productionUrl,
					signed(fake, JSON.stringify({ ...body, timestamp }), 'application/json'),
				);

				expect([answer.status, message(answer.text)]).toEqual([
					400,
					'timestamp is outside the dates that can be told (within 8.64e12 seconds of 1970)',
				]);
				expect(session.emitted).toEqual([]);
			},
		);

		it('a JSON timestamp in UNIX seconds is read as such', async () => {
			const session = await start({ events: ['response'] });
			const fresh = created(response());
			const old = created(response());
			const json = (payload: WebhookPayload, timestamp: number) => {
				const body = JSON.parse(encodeWebhook(payload, 'json').body) as IDataObject;
				return signed(fake, JSON.stringify({ ...body, timestamp }), 'application/json');
			};

			await post(session.trigger.productionUrl, json(fresh, fake.clock.now()));
			const answer = await post(
				session.trigger.productionUrl,
				json(old, fake.clock.now() - 2 * 3600),
			);

			expect(session.emitted).toHaveLength(1);
			expect(message(answer.text)).toMatch(/^Ignored: /);
		});
	});

	describe('what a process remembers lasts Max Age', () => {
		it('with the service’s clock 5 minutes ahead of n8n’s, a delivery starts, and a replay of it is folded until Max Age after its sending, not only after its arrival', async () => {
			const session = await start({ events: ['response'], options: { maxAgeMinutes: 10 } });
			fake.clock.advance(5 * MINUTE);
			const payload = created(response());
			const first = await session.deliver(payload);

			// 12 minutes after arriving, 7 after the sending by n8n's clock: young enough to pass Max Age.
			advanceMinutes(12);
			const replayed = await session.deliver(payload);
			advanceMinutes(4);
			const tooOld = await session.deliver(payload);

			expect([first.text, replayed.text]).toEqual([
				WORKFLOW_STARTED,
				JSON.stringify(NOTHING_TO_START),
			]);
			expect(message(tooOld.text)).toMatch(/^Ignored: /);
			expect(session.emitted).toHaveLength(1);
		});

		it('a repeat the service sends again (a fresh timestamp) within Max Age starts nothing; after it, it starts again with the same key', async () => {
			const session = await start({ events: ['response'], options: { maxAgeMinutes: 10 } });
			const stored = response();
			await session.deliver(created(stored));

			advanceMinutes(9);
			const within = await session.deliver(created(stored));
			advanceMinutes(2);
			const after = await session.deliver(created(stored));

			expect([within.text, after.text]).toEqual([
				JSON.stringify(NOTHING_TO_START),
				WORKFLOW_STARTED,
			]);
			expect(keys(session)).toEqual([`response:${stored.id}`, `response:${stored.id}`]);
		});
	});

	describe('a change that does not say when it was made (no updated_at)', () => {
		/** The form body of an `updated` webhook without updated_at and, `timestamp` false, without a timestamp. */
		const withoutUpdatedAt = (changed: SurveyResponse, timestamp: boolean) => {
			const payload = responsePayload(fake.account, changed, 'updated', fake.clock.now());
			const form = new URLSearchParams(encodeWebhook(payload, 'form').body);
			form.delete('response[updated_at]');
			if (!timestamp) form.delete('timestamp');
			return signed(fake, form.toString(), 'application/x-www-form-urlencoded');
		};
		const scoredHoursAgo = (hours: number) => {
			const at = fake.clock.now() - hours * 3600;
			return response({ text: null, createdAt: at, updatedAt: at });
		};

		it('without a timestamp either, a change made now to a response scored two hours ago is not called older than Max Age: it starts the workflow', async () => {
			const session = await start({ events: ['responseUpdated'] });
			const scored = scoredHoursAgo(2);
			const changed = changeResponse(fake.account, fake.store, scored.id, { text: 'Why' });

			const answer = await post(session.trigger.productionUrl, withoutUpdatedAt(changed, false));

			expect(answer.text).toBe(WORKFLOW_STARTED);
			expect(session.emitted).toEqual([
				expect.objectContaining({ event: 'responseUpdated', id: scored.id, text: 'Why' }),
			]);
		});

		it('two changes have two keys; a repeat of one, its key: it starts nothing', async () => {
			const session = await start({ events: ['responseUpdated'] });
			const scored = scoredHoursAgo(2);
			const first = withoutUpdatedAt(
				changeResponse(fake.account, fake.store, scored.id, { text: 'Why' }),
				true,
			);
			const second = withoutUpdatedAt(
				changeResponse(fake.account, fake.store, scored.id, { score: 1 }),
				true,
			);

			const answers = [];
			for (const delivery of [first, second, first])
				answers.push((await post(session.trigger.productionUrl, delivery)).text);

			expect(answers.slice(0, 2)).toEqual([WORKFLOW_STARTED, WORKFLOW_STARTED]);
			expect(JSON.parse(answers[2])).toEqual(NOTHING_TO_START);
			const [one, two] = keys(session) as string[];
			expect(one).toMatch(new RegExp(`^responseUpdated:${scored.id}:v[0-9a-f]+$`));
			expect(two).toMatch(new RegExp(`^responseUpdated:${scored.id}:v[0-9a-f]+$`));
			expect(one).not.toBe(two);
		});

		it('with Only With a Comment, its timestamp tells whether the comment came within Treat as Complete After: sent a minute after the score, it is the Response Created', async () => {
			const session = await start({
				events: ['response', 'responseUpdated'],
				filters: { onlyWithComment: true },
			});
			const scored = response({ text: null });
			advanceMinutes(1);
			const changed = changeResponse(fake.account, fake.store, scored.id, { text: 'Why' });

			await post(session.trigger.productionUrl, withoutUpdatedAt(changed, true));

			expect(session.emitted.map((item) => item.event)).toEqual(['response', 'responseUpdated']);
		});
	});
});
