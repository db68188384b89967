import { setTimeout as delay } from 'node:timers/promises';

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
import { declinePayload, responsePayload, type WebhookPayload } from '../fake/webhook-body';
import {
	closeWebhookSessions,
	NOTHING_TO_START,
	WebhookSession,
	WORKFLOW_STARTED,
} from '../support/webhooks';

/**
 * Which deliveries start the workflow: the events chosen, the response filters, and the service's
 * at-least-once, unordered delivery (a repeat emits once, an `updated` may come before its
 * `created`).
 */
describe('Wootric Webhook Trigger: events, filters, repeats and order', () => {
	let fake: FakeWootric;
	let user: EndUser;

	beforeEach(async () => {
		fake = await startFakeWootric();
		user = createEndUser(fake.account, fake.store, 'ada@example.com');
	});
	afterEach(async () => {
		await closeWebhookSessions();
		await fake.close();
	});

	const start = async (parameters: INodeParameters) => await WebhookSession.start(fake, parameters);
	/** A response stored now, and its Response Created webhook as the service sends it now. */
	const respond = (fields: Partial<SurveyResponse> = {}) => {
		const response = addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 8,
			...fields,
		});
		return {
			id: response.id,
			created: responsePayload(fake.account, response, 'created', fake.clock.now()),
		};
	};
	/** The response changed a second after its last change, and its Response Updated webhook. */
	const update = (id: number, changes: Parameters<typeof changeResponse>[3]) => {
		const { updatedAt } = fake.account.responses.get(id) as SurveyResponse;
		const changed = changeResponse(fake.account, fake.store, id, changes, updatedAt + 1);
		return responsePayload(fake.account, changed, 'updated', fake.clock.now());
	};
	/** A decline stored now, and its Decline Created webhook. */
	const decline = () => {
		const stored = addDecline(fake.account, fake.store, { endUserId: user.id });
		return { id: stored.id, created: declinePayload(fake.account, stored, fake.clock.now()) };
	};
	/** Each emitted item as `<event>:<id>`, oldest first. */
	const emitted = (session: WebhookSession) =>
		session.emitted.map((item: IDataObject) => `${item.event as string}:${item.id as number}`);
	const deliverAll = async (session: WebhookSession, payloads: WebhookPayload[]) => {
		for (const payload of payloads) await session.deliver(payload);
	};

	it.each([
		[['response'], ['response']],
		[['responseUpdated'], ['responseUpdated']],
		[['decline'], ['decline']],
		[
			['response', 'responseUpdated', 'decline'],
			['response', 'responseUpdated', 'decline'],
		],
	])('watching %j, of a created, an updated and a decline emits %j', async (events, expected) => {
		const session = await start({ events });
		const response = respond();

		await deliverAll(session, [
			response.created,
			update(response.id, { completed: true }),
			decline().created,
		]);

		expect(session.emitted.map((item) => item.event)).toEqual(expected);
	});

	describe('the response filters', () => {
		const scores = Array.from({ length: 11 }, (_, score) => score);

		it.each<[string, INodeParameters, number[]]>([
			['Detractor', { categories: ['detractor'] }, [0, 1, 2, 3, 4, 5, 6]],
			['Passive and Promoter', { categories: ['passive', 'promoter'] }, [7, 8, 9, 10]],
			['Minimum Score 5, Maximum Score 8', { minScore: 5, maxScore: 8 }, [5, 6, 7, 8]],
			['Promoter, Maximum Score 9', { categories: ['promoter'], maxScore: 9 }, [9]],
			['none', {}, scores],
		])('%s: of scores 0 to 10, emits %j', async (_, filters, expected) => {
			const session = await start({ events: ['response', 'decline'], filters });

			await deliverAll(session, [
				...scores.map((score) => respond({ score }).created),
				decline().created,
			]);

			expect(
				session.emitted.filter((item) => item.event === 'response').map((item) => item.score),
			).toEqual(expected);
			// Declines have no score: no filter holds them back.
			expect(session.emitted.filter((item) => item.event === 'decline')).toHaveLength(1);
		});

		it.each([
			[true, ['commented']],
			[false, ['commented', 'silent', 'blank']],
		])(
			'Only With a Comment %s: of a commented, a silent and a blank-text response, emits %j',
			async (onlyWithComment, expected) => {
				const session = await start({ events: ['response'], filters: { onlyWithComment } });
				const responses = {
					commented: respond({ text: 'Great support' }),
					silent: respond({ text: null }),
					blank: respond({ text: '   ' }),
				};

				await deliverAll(
					session,
					Object.values(responses).map((response) => response.created),
				);

				expect(session.emitted.map((item) => item.id)).toEqual(
					expected.map((name) => responses[name as keyof typeof responses].id),
				);
			},
		);

		it.each([
			[false, []],
			[true, ['response', 'responseUpdated']],
		])(
			'Include Excluded From Calculations %s: an invalidated response emits %j',
			async (includeExcluded, expected) => {
				const session = await start({
					events: ['response', 'responseUpdated'],
					filters: { includeExcluded },
				});
				const response = respond({ excludedFromCalculations: true });

				await deliverAll(session, [response.created, update(response.id, { text: 'spam' })]);

				expect(session.emitted.map((item) => item.event)).toEqual(expected);
			},
		);
	});

	describe('at-least-once delivery', () => {
		it('the same event delivered twice emits once; the second is answered that nothing started', async () => {
			const session = await start({ events: ['response', 'responseUpdated', 'decline'] });
			const response = respond();
			const declined = decline();
			const changed = update(response.id, { text: 'Thanks' });

			const twice = [response.created, changed, declined.created].flatMap((payload) => [
				payload,
				payload,
			]);

			const answers = [];
			for (const payload of twice) answers.push(await session.deliver(payload));

			expect(emitted(session)).toEqual([
				`response:${response.id}`,
				`responseUpdated:${response.id}`,
				`decline:${declined.id}`,
			]);
			const started = [200, WORKFLOW_STARTED];
			const repeat = [200, JSON.stringify(NOTHING_TO_START)];
			expect(answers.map(({ status, text }) => [status, text])).toEqual([
				started,
				repeat,
				started,
				repeat,
				started,
				repeat,
			]);
		});

		it('the same event arriving as a form and as JSON is one event', async () => {
			const session = await start({ events: ['response'] });
			const response = respond();

			await session.deliver(response.created, 'form');
			await session.deliver(response.created, 'json');

			expect(emitted(session)).toEqual([`response:${response.id}`]);
		});

		it('the same event delivered five times at once emits once', async () => {
			const session = await start({ events: ['response'] });
			const response = respond();

			const answers = await Promise.all(
				Array.from({ length: 5 }, async () => await session.deliver(response.created)),
			);

			expect(answers.map(({ status }) => status)).toEqual([200, 200, 200, 200, 200]);
			expect(session.trigger.executions).toHaveLength(1);
			expect(emitted(session)).toEqual([`response:${response.id}`]);
		});

		it.each([
			['Response Created', {}, () => respond().created],
			[
				'Response Created at its comment (Only With a Comment)',
				{ filters: { onlyWithComment: true } },
				() => update(respond({ text: '' }).id, { text: 'Thanks' }),
			],
			['Response Updated', { events: ['responseUpdated'] }, () => update(respond().id, {})],
			['Decline Created', { events: ['decline'] }, () => decline().created],
		])(
			'%s that n8n answered 500 (its execution not stored) starts the workflow when the service sends it again',
			async (_, parameters: INodeParameters, delivery: () => WebhookPayload) => {
				const session = await start({ events: ['response'], ...parameters });
				const payload = delivery();
				session.trigger.failExecutionStarts(1);

				const answers = [];
				for (let attempt = 0; attempt < 3; attempt++) answers.push(await session.deliver(payload));

				expect(answers.map(({ status, text }) => [status, text])).toEqual([
					[500, expect.stringContaining('There was a problem executing the workflow')],
					[200, WORKFLOW_STARTED],
					[200, JSON.stringify(NOTHING_TO_START)],
				]);
				expect(session.trigger.executions).toHaveLength(1);
			},
		);

		it('a copy arriving while n8n fails to start its twin’s execution starts it, rather than being told there is nothing to start', async () => {
			const session = await start({ events: ['response'] });
			const response = respond();
			session.trigger.failExecutionStarts(1, 500);

			const [first, copy] = await Promise.all([
				session.deliver(response.created),
				delay(100).then(async () => await session.deliver(response.created)),
			]);

			expect([first, copy].map(({ status, text }) => [status, text])).toEqual([
				[500, expect.stringContaining('There was a problem executing the workflow')],
				[200, WORKFLOW_STARTED],
			]);
			expect(emitted(session)).toEqual([`response:${response.id}`]);
		});

		it('a comment’s change arriving while n8n fails to store its score’s Response Created waits for that answer and emits the Response Created too, though the score’s retry comes too late (F33)', async () => {
			const session = await start({
				events: ['response', 'responseUpdated'],
				options: { maxAgeMinutes: 1 },
			});
			// The score sent 55 s ago, arriving now; its comment, within Treat as Complete After, now.
			const scored = fake.clock.now() - 55;
			const response = addResponse(fake.account, fake.store, {
				endUserId: user.id,
				score: 8,
				createdAt: scored,
				updatedAt: scored,
			});
			const created = responsePayload(fake.account, response, 'created', scored);
			const commented = update(response.id, { text: 'Too slow' });
			session.trigger.failExecutionStarts(1, 500);

			const [score, comment] = await Promise.all([
				session.deliver(created),
				delay(100).then(async () => await session.deliver(commented)),
			]);
			// Wootric's retry of the score, 55 s later: 110 s after it was sent, older than Max Age.
			const retry = await session.deliver({
				...created,
				timestamp: responsePayload(fake.account, response, 'created', scored - 55).timestamp,
			});

			expect([score, comment, retry].map(({ status, text }) => [status, text])).toEqual([
				[500, expect.stringContaining('There was a problem executing the workflow')],
				[200, WORKFLOW_STARTED],
				[200, expect.stringContaining('older than Max Age (1 minutes)')],
			]);
			expect(emitted(session)).toEqual([
				`response:${response.id}`,
				`responseUpdated:${response.id}`,
			]);
		});

		it('a copy waits for its twin’s answer 10 s at most: then it is answered 503, and the service’s retry starts the workflow', async () => {
			const session = await start({ events: ['response'] });
			const response = respond();
			// n8n takes 12 s to fail to store the twin's execution.
			session.trigger.failExecutionStarts(1, 12_000);

			const copySent = Date.now();
			const [first, copy] = await Promise.all([
				session.deliver(response.created),
				delay(100).then(async () => {
					const answer = await session.deliver(response.created);
					return { ...answer, afterMs: Date.now() - copySent };
				}),
			]);
			const retry = await session.deliver(response.created);

			expect(copy.status).toBe(503);
			expect(copy.afterMs).toBeGreaterThanOrEqual(10_000);
			expect(copy.afterMs).toBeLessThan(11_500);
			expect([first.status, retry.status, retry.text]).toEqual([500, 200, WORKFLOW_STARTED]);
			expect(emitted(session)).toEqual([`response:${response.id}`]);
		}, 30_000);

		it('a delivery the service hangs up on while the node reads it starts nothing, and leaves nothing to wait on: its retry starts the workflow', async () => {
			const session = await start({ events: ['response'] });
			const response = respond();
			session.trigger.hangUpNext('whileReceiving');

			await expect(session.deliver(response.created)).rejects.toThrow();
			const retry = await session.deliver(response.created);
			const repeat = await session.deliver(response.created);

			expect(session.trigger.executions.map(({ answered }) => answered)).toEqual([true]);
			expect([retry, repeat].map(({ status, text }) => [status, text])).toEqual([
				[200, WORKFLOW_STARTED],
				[200, JSON.stringify(NOTHING_TO_START)],
			]);
		});

		it('a delivery the service hangs up on after the node handed n8n its items is started again by its retry, under the same key', async () => {
			const session = await start({ events: ['response'] });
			const response = respond();
			session.trigger.hangUpNext('afterWebhook');

			await expect(session.deliver(response.created)).rejects.toThrow();
			const retry = await session.deliver(response.created);
			const repeat = await session.deliver(response.created);

			expect(session.trigger.executions.map(({ answered }) => answered)).toEqual([false, true]);
			expect(emitted(session)).toEqual([`response:${response.id}`, `response:${response.id}`]);
			expect([retry.status, repeat.text]).toEqual([200, JSON.stringify(NOTHING_TO_START)]);
		});

		it('a copy arriving while its twin’s execution starts is told there is nothing to start once it has', async () => {
			const session = await start({ events: ['response'] });
			const response = respond();

			const answers = await Promise.all([
				session.deliver(response.created),
				session.deliver(response.created),
			]);

			expect(answers.map(({ status, text }) => [status, text])).toEqual(
				expect.arrayContaining([
					[200, JSON.stringify(NOTHING_TO_START)],
					[200, WORKFLOW_STARTED],
				]),
			);
			expect(emitted(session)).toEqual([`response:${response.id}`]);
		});

		it('two updates of one response in different seconds are two events', async () => {
			const session = await start({ events: ['responseUpdated'] });
			const response = respond();
			const first = update(response.id, { text: 'Slow' });
			const second = update(response.id, { text: 'Slow, then fixed' });

			await deliverAll(session, [first, second, first]);

			expect(session.emitted.map((item) => item.text)).toEqual(['Slow', 'Slow, then fixed']);
		});

		it('an updated arriving before its created loses neither: made within Treat as Complete After, it stands for both, and the created starts nothing', async () => {
			const session = await start({ events: ['response', 'responseUpdated'] });
			const response = respond();
			const changed = update(response.id, { text: 'Thanks' });

			await deliverAll(session, [changed, response.created]);

			expect(emitted(session)).toEqual([
				`response:${response.id}`,
				`responseUpdated:${response.id}`,
			]);
		});
	});

	describe('Only With a Comment, a response created without text and given one later', () => {
		it.each([
			['created, then updated with text', (c: WebhookPayload, u: WebhookPayload) => [c, u]],
			['the update arriving first', (c: WebhookPayload, u: WebhookPayload) => [u, c]],
			['each delivered twice', (c: WebhookPayload, u: WebhookPayload) => [c, u, c, u]],
		])('%s: reaches the workflow once, as Response Created, with its comment', async (_, order) => {
			const session = await start({ events: ['response'], filters: { onlyWithComment: true } });
			const response = respond({ text: null });
			const withComment = update(response.id, { text: 'Took a while' });

			await deliverAll(session, order(response.created, withComment));

			expect(session.emitted).toEqual([
				expect.objectContaining({ event: 'response', id: response.id, text: 'Took a while' }),
			]);
		});

		it('watching Response Updated too: that update is the Response Created and a Response Updated; a later one a Response Updated', async () => {
			const session = await start({
				events: ['response', 'responseUpdated'],
				filters: { onlyWithComment: true },
			});
			const response = respond({ text: null });
			const withComment = update(response.id, { text: 'Took a while' });
			const edited = update(response.id, { text: 'Took a while, but fine' });

			await deliverAll(session, [response.created, withComment, edited]);

			expect(session.emitted.map(({ event, text }) => [event, text])).toEqual([
				['response', 'Took a while'],
				['responseUpdated', 'Took a while'],
				['responseUpdated', 'Took a while, but fine'],
			]);
		});

		/** The response given a comment `seconds` after its score, and that update's webhook. */
		const commentAfter = (id: number, seconds: number) => {
			const { createdAt } = fake.account.responses.get(id) as SurveyResponse;
			const changed = changeResponse(
				fake.account,
				fake.store,
				id,
				{ text: 'Later thoughts' },
				createdAt + seconds,
			);
			return responsePayload(fake.account, changed, 'updated', fake.clock.now());
		};

		it.each<[string, string[], INodeParameters, number]>([
			['300 s after the score (the default 5 minutes)', ['response', 'responseUpdated'], {}, 300],
			['301 s after the score (the default 5 minutes)', ['responseUpdated'], {}, 301],
			[
				'30 minutes after (Treat as Complete After 30)',
				['response', 'responseUpdated'],
				{ completeAfterMinutes: 30 },
				1800,
			],
			[
				'31 minutes after (Treat as Complete After 30)',
				['responseUpdated'],
				{ completeAfterMinutes: 30 },
				1860,
			],
		])('a comment given %s is %j', async (_, expected, options, seconds) => {
			const session = await start({
				events: ['response', 'responseUpdated'],
				filters: { onlyWithComment: true },
				options,
			});
			const response = respond({ text: null });

			await deliverAll(session, [response.created, commentAfter(response.id, seconds)]);

			expect(session.emitted.map(({ event }) => event)).toEqual(expected);
		});

		it('decided by the delivery, not by what a process remembers: a node that never saw a response (a restart, a second webhook process) opens nothing for an old one that changes', async () => {
			const old = respond({ text: 'Said this long ago' });
			// Its comment edited an hour after the score.
			const edited = commentAfter(old.id, 3600);
			const recent = respond({ text: null });
			const commented = commentAfter(recent.id, 60);
			const restarted = await start({ events: ['response'], filters: { onlyWithComment: true } });

			await deliverAll(restarted, [edited, commented]);

			expect(emitted(restarted)).toEqual([`response:${recent.id}`]);
		});

		it('a response that never gets a comment never reaches the workflow', async () => {
			const session = await start({ events: ['response'], filters: { onlyWithComment: true } });
			const response = respond({ text: null });

			await deliverAll(session, [response.created, update(response.id, { completed: true })]);

			expect(session.emitted).toEqual([]);
		});
	});

	/**
	 * A system downstream folds items by idempotency_key (the examples' ticket endpoint): what it
	 * keeps of the items emitted, in order, wherever they were emitted.
	 */
	const foldedByKey = (...sessions: WebhookSession[]) => {
		const kept = new Map<string, IDataObject>();
		for (const item of sessions.flatMap((session) => session.emitted))
			if (!kept.has(item.idempotency_key as string)) kept.set(item.idempotency_key as string, item);
		return [...kept.values()].map(({ event, score, text }) => [event, score, text]);
	};

	describe('no change folded into an event the workflow has seen, whichever process it reaches', () => {
		const both = { events: ['response', 'responseUpdated'] };

		it('Only With a Comment: the comment reaches one process, a new score and comment within Treat as Complete After another; the second change is not lost in a second Response Created', async () => {
			const parameters = { ...both, filters: { onlyWithComment: true } };
			const [first, restarted] = [await start(parameters), await start(parameters)];
			const response = respond({ text: null });
			const commented = update(response.id, { text: 'Slow' });
			const rescored = update(response.id, { score: 2, text: 'Slow and rude' });

			await deliverAll(first, [response.created, commented]);
			await deliverAll(restarted, [rescored]);

			expect(foldedByKey(first, restarted)).toEqual([
				['response', 8, 'Slow'],
				['responseUpdated', 8, 'Slow'],
				['responseUpdated', 2, 'Slow and rude'],
			]);
		});

		it.each([
			['re-scored', { score: 3 }, 3],
			['tagged', { tags: ['billing'] }, 8],
		])(
			'Only With a Comment: a response with its comment %s within Treat as Complete After, at another process, reaches the workflow as a Response Updated',
			async (_, changes, score) => {
				const parameters = { ...both, filters: { onlyWithComment: true } };
				const [first, restarted] = [await start(parameters), await start(parameters)];
				const response = respond({ text: 'Fine' });
				const changed = update(response.id, changes);

				await deliverAll(first, [response.created]);
				await deliverAll(restarted, [changed]);

				expect(foldedByKey(first, restarted)).toEqual([
					['response', 8, 'Fine'],
					['responseUpdated', score, 'Fine'],
				]);
			},
		);

		it('in one process, a change within Treat as Complete After is a Response Updated only: its Response Created was emitted', async () => {
			const session = await start(both);
			const response = respond({ text: null });

			await deliverAll(session, [response.created, update(response.id, { text: 'Why' })]);

			expect(session.emitted.map(({ event, text }) => [event, text])).toEqual([
				['response', null],
				['responseUpdated', 'Why'],
			]);
		});

		it('Category Detractor: a passive re-scored a detractor within Treat as Complete After is a new detractor, as the polling trigger finds it', async () => {
			const session = await start({ ...both, filters: { categories: ['detractor'] } });
			const response = respond({ score: 8 });

			await deliverAll(session, [response.created, update(response.id, { score: 4 })]);

			expect(session.emitted.map(({ event, score }) => [event, score])).toEqual([
				['response', 4],
				['responseUpdated', 4],
			]);
		});
	});
});
