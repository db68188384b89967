import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { addResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import type { EndUser } from '../fake/store';
import { responsePayload } from '../fake/webhook-body';
import { runNode } from '../harness';
import { closeWebhookSessions, WebhookSession } from '../support/webhooks';
import { credentialsFor, TriggerSession } from '../support/wootric';

/**
 * Accounts that run CSAT or CES surveys: every place a score is judged follows the credential's
 * Survey Type. The oracle is the categories the service's own SDKs draw, written out score by score
 * (not computed): NPS 0–10: 0–6 / 7–8 / 9–10 · CES 1–7: 1–3 / 4–5 / 6–7 · CSAT 1–5: 1–2 / 3 / 4–5 ·
 * CSAT 1–10: 1–6 / 7–8 / 9–10.
 */
type SurveyType = 'nps' | 'csat5' | 'csat10' | 'ces7';

interface TypeCase {
	type: SurveyType;
	/** survey_mode in the service's webhooks. */
	mode: 'NPS' | 'CSAT' | 'CES';
	/** Where a record says its category. */
	field: 'nps_category' | 'score_category';
	/** Every boundary score with its category, low to high. */
	boundaries: Array<[number, string]>;
	/** The lowest and highest score the type takes. */
	range: [number, number];
}

const TYPES: TypeCase[] = [
	{
		type: 'nps',
		mode: 'NPS',
		field: 'nps_category',
		boundaries: [
			[0, 'detractor'],
			[6, 'detractor'],
			[7, 'passive'],
			[8, 'passive'],
			[9, 'promoter'],
			[10, 'promoter'],
		],
		range: [0, 10],
	},
	{
		type: 'ces7',
		mode: 'CES',
		field: 'score_category',
		boundaries: [
			[1, 'negative'],
			[3, 'negative'],
			[4, 'neutral'],
			[5, 'neutral'],
			[6, 'positive'],
			[7, 'positive'],
		],
		range: [1, 7],
	},
	{
		type: 'csat5',
		mode: 'CSAT',
		field: 'score_category',
		boundaries: [
			[1, 'negative'],
			[2, 'negative'],
			[3, 'neutral'],
			[4, 'positive'],
			[5, 'positive'],
		],
		range: [1, 5],
	},
	{
		type: 'csat10',
		mode: 'CSAT',
		field: 'score_category',
		boundaries: [
			[1, 'negative'],
			[6, 'negative'],
			[7, 'neutral'],
			[8, 'neutral'],
			[9, 'positive'],
			[10, 'positive'],
		],
		range: [1, 10],
	},
];

/** The low, middle and high category of each type, as its records name them. */
const LOW = { nps_category: 'detractor', score_category: 'negative' };
const MIDDLE = { nps_category: 'passive', score_category: 'neutral' };
const HIGH = { nps_category: 'promoter', score_category: 'positive' };

const scoresOf = (items: IDataObject[]) => items.map((item) => item.score);
const locator = (id: number) => ({ __rl: true, mode: 'id', value: String(id) });

describe('Survey types: scores judged on the credential’s Survey Type', () => {
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

	const run = async (type: SurveyType, parameters: INodeParameters, inputItems?: IDataObject[]) =>
		await runNode({
			nodeType: 'wootric',
			parameters,
			credentials: credentialsFor(fake, { surveyType: type }),
			inputItems: inputItems?.map((json) => ({ json })),
		});

	/** One response per boundary score, a second apart from `start`, oldest first. */
	const answerEach = (scores: number[], start = fake.clock.now() - 600) =>
		scores.map((score, index) =>
			addResponse(fake.account, fake.store, {
				endUserId: user.id,
				score,
				text: `Scored ${score}`,
				createdAt: start + index,
			}),
		);

	describe.each(TYPES)('$type', ({ type, mode, field, boundaries, range }) => {
		const scores = boundaries.map(([score]) => score);
		const withCategory = (category: Record<string, string>) =>
			boundaries.filter(([, name]) => name === category[field]).map(([score]) => score);

		it('adds the category of every boundary score to the responses Get Many returns', async () => {
			answerEach(scores);

			const result = await run(type, {
				resource: 'response',
				operation: 'getAll',
				scope: 'all',
				returnAll: true,
				options: { order: 'asc' },
			});

			expect(result.error).toBeUndefined();
			const items = result.items.map((item) => item.json);
			expect(items.map((item) => [item.score, item[field]])).toEqual(boundaries);
			// One vocabulary per type: a CSAT or CES response is never called a detractor.
			const other = field === 'nps_category' ? 'score_category' : 'nps_category';
			expect(items.filter((item) => other in item)).toEqual([]);
		});

		it.each([
			['detractors', LOW],
			['passives', MIDDLE],
			['promoters', HIGH],
		])(
			'Get Many’s Category %s keeps that category, of all end users and of one',
			async (category, names) => {
				answerEach(scores);
				const expected = withCategory(names);

				const all = await run(type, {
					resource: 'response',
					operation: 'getAll',
					scope: 'all',
					category,
					returnAll: true,
					options: { order: 'asc' },
				});
				const requestOfAll = fake.apiRequests().at(-1)!;
				const one = await run(type, {
					resource: 'response',
					operation: 'getAll',
					scope: 'endUser',
					endUser: locator(user.id),
					category,
					returnAll: true,
					options: { order: 'asc' },
				});
				const requestOfOne = fake.apiRequests().at(-1)!;

				expect(scoresOf(all.items.map((item) => item.json))).toEqual(expected);
				expect(scoresOf(one.items.map((item) => item.json))).toEqual(expected);
				expect([requestOfAll.path, requestOfAll.rawQuery]).toEqual([
					'/v1/responses',
					'sort_key=created_at&sort_order=asc&page=1&per_page=50',
				]);
				// Wootric's category lists are NPS's: another type's categories come from the scores.
				expect([requestOfOne.path, requestOfOne.rawQuery]).toEqual(
					type === 'nps'
						? [
								`/v1/end_users/${user.id}/responses/${category}`,
								'sort_order=asc&page=1&per_page=50',
							]
						: [
								`/v1/end_users/${user.id}/responses`,
								'sort_key=created_at&sort_order=asc&page=1&per_page=50',
							],
				);
			},
		);

		it('Response → Create takes the lowest and highest score and refuses one beyond, naming the item, before sending anything', async () => {
			const [lowest, highest] = range;
			const create = {
				resource: 'response',
				operation: 'create',
				endUser: locator(user.id),
				score: '={{ $json.score }}',
				ipAddress: '203.0.113.7',
				originUrl: 'https://app.example.com/',
			};

			for (const beyond of [lowest - 1, highest + 1]) {
				const refused = await run(type, create, [
					{ score: lowest },
					{ score: highest },
					{ score: beyond },
				]);
				expect(refused.error?.message).toBe(
					`Score must be a whole number from ${lowest} to ${highest}` +
						(type === 'nps'
							? ''
							: ` (${mode} ${lowest}–${highest}, the credential's Survey Type)`) +
						` (item 2: got ${beyond})`,
				);
				expect(fake.apiRequests()).toEqual([]);
			}

			const taken = await run(type, create, [{ score: lowest }, { score: highest }]);
			expect(taken.error).toBeUndefined();
			expect(fake.apiRequests().map((request) => request.rawBody)).toEqual([
				`score=${lowest}&ip_address=203.0.113.7&origin_url=https%3A%2F%2Fapp.example.com%2F`,
				`score=${highest}&ip_address=203.0.113.7&origin_url=https%3A%2F%2Fapp.example.com%2F`,
			]);
			expect(taken.items.map((item) => item.json[field])).toEqual([
				boundaries[0][1],
				boundaries.at(-1)![1],
			]);
		});

		it.each([
			['detractor', LOW],
			['passive', MIDDLE],
			['promoter', HIGH],
		])(
			'the Wootric Trigger’s Category %s starts the workflow for that category only',
			async (category, names) => {
				const session = new TriggerSession(
					fake,
					{ events: ['response'], filters: { categories: [category] } },
					{},
					undefined,
					undefined,
					{ surveyType: type },
				);
				await session.poll();
				answerEach(scores, fake.clock.now() + 1);

				const poll = await session.poll();

				expect(poll.error).toBeUndefined();
				expect(poll.items.map((item) => [item.score, item[field]])).toEqual(
					withCategory(names).map((score) => [score, names[field]]),
				);
			},
		);

		it('the Wootric Trigger’s score range counts on the type’s scale; a range beside it is refused', async () => {
			const [lowest, highest] = range;
			const middle = withCategory(MIDDLE);
			const session = new TriggerSession(
				fake,
				{ events: ['response'], filters: { minScore: middle[0], maxScore: middle.at(-1) } },
				{},
				undefined,
				undefined,
				{ surveyType: type },
			);
			await session.poll();
			answerEach(scores, fake.clock.now() + 1);
			expect(scoresOf((await session.poll()).items)).toEqual(middle);

			if (highest < 10) {
				const beside = new TriggerSession(
					fake,
					{ events: ['response'], filters: { minScore: highest + 1 } },
					{},
					undefined,
					undefined,
					{ surveyType: type },
				);
				expect((await beside.poll()).error?.message).toBe(
					`Minimum Score must not be above ${highest}, the top of ${mode} ${lowest}–${highest} (the credential's Survey Type) (got ${highest + 1})`,
				);
			}
			if (lowest > 0) {
				const beside = new TriggerSession(
					fake,
					{ events: ['response'], filters: { maxScore: lowest - 1 } },
					{},
					undefined,
					undefined,
					{ surveyType: type },
				);
				expect((await beside.poll()).error?.message).toBe(
					`Maximum Score must not be below ${lowest}, the bottom of ${mode} ${lowest}–${highest} (the credential's Survey Type) (got ${lowest - 1})`,
				);
			}
		});

		it('the Webhook Trigger judges the service’s deliveries (survey_mode as the credential’s) alike, with no warning', async () => {
			fake.account.surveyMode = mode;
			const session = await WebhookSession.start(
				fake,
				{ events: ['response'], filters: { categories: ['detractor'] } },
				undefined,
				{ surveyType: type },
			);
			for (const response of answerEach(scores, fake.clock.now()))
				await session.deliver(responsePayload(fake.account, response, 'created', fake.clock.now()));

			expect(session.emitted.map((item) => [item.score, item[field]])).toEqual(
				withCategory(LOW).map((score) => [score, LOW[field]]),
			);
			expect(session.emitted.filter((item) => 'survey_type_warning' in item)).toEqual([]);
		});
	});

	it.each([
		['Get', { operation: 'get' }],
		[
			'Get Trend',
			{ operation: 'trend', startDate: '2026-01-05', endDate: '2026-01-18', period: 'week' },
		],
	])(
		'NPS Summary → %s says on a CSAT or CES account that Wootric documents no such summary, and on NPS says nothing',
		async (_, operation) => {
			const parameters = { resource: 'npsSummary', ...operation };
			const hintsOf = async (type: SurveyType) =>
				(await run(type, parameters, [{}, {}])).runData.Wootric[0].hints ?? [];

			expect(await hintsOf('nps')).toEqual([]);
			expect(await hintsOf('ces7')).toEqual([
				expect.objectContaining({
					message: expect.stringMatching(
						/^The credential's Survey Type is CES 1–7: Wootric has no summary/,
					),
					type: 'warning',
				}),
			]);
		},
	);

	describe('the Webhook Trigger and survey_mode', () => {
		const deliverEach = async (session: WebhookSession, scores: number[], withMode = true) => {
			for (const response of answerEach(scores, fake.clock.now())) {
				const payload = responsePayload(fake.account, response, 'created', fake.clock.now());
				await session.deliver(withMode ? payload : { ...payload, surveyMode: undefined });
			}
		};

		it('scores a CES delivery as CES when the credential says NPS, and says so on the item', async () => {
			fake.account.surveyMode = 'CES';
			const session = await WebhookSession.start(fake, {
				events: ['response'],
				filters: { categories: ['detractor'] },
			});

			await deliverEach(session, [2, 5]);

			expect(session.emitted).toEqual([
				expect.objectContaining({
					score: 2,
					score_category: 'negative',
					survey_type_warning:
						'survey_mode is CES, but the credential\'s Survey Type is NPS 0–10: scored on CES 1–7; set Survey Type in the "Wootric API" credential to the account\'s survey',
				}),
			]);
			expect(session.emitted[0]).not.toHaveProperty('nps_category');
		});

		it('scores a CSAT delivery on the credential’s CSAT scale, and on 1–5 or 1–10 by its score when the credential is not CSAT', async () => {
			fake.account.surveyMode = 'CSAT';
			const csat10 = await WebhookSession.start(fake, { events: ['response'] }, undefined, {
				surveyType: 'csat10',
			});
			await deliverEach(csat10, [4]);
			const ces = await WebhookSession.start(fake, { events: ['response'] }, undefined, {
				surveyType: 'ces7',
			});
			await deliverEach(ces, [4, 7]);

			expect(csat10.emitted.map((item) => [item.score, item.score_category])).toEqual([
				[4, 'negative'],
			]);
			expect(csat10.emitted[0]).not.toHaveProperty('survey_type_warning');
			expect(
				ces.emitted.map((item) => [item.score, item.score_category, item.survey_type_warning]),
			).toEqual([
				[4, 'positive', expect.stringContaining('scored on CSAT 1–5')],
				[7, 'neutral', expect.stringContaining('scored on CSAT 1–10')],
			]);
		});

		it('scores a CSAT delivery above the credential’s CSAT 1–5 on CSAT 1–10, and says so; a CES score above 7 is said to be outside', async () => {
			fake.account.surveyMode = 'CSAT';
			const csat5 = await WebhookSession.start(fake, { events: ['response'] }, undefined, {
				surveyType: 'csat5',
			});
			await deliverEach(csat5, [5, 8]);
			const ces = await WebhookSession.start(fake, { events: ['response'] }, undefined, {
				surveyType: 'ces7',
			});
			await deliverEach(ces, [9], false);

			expect(
				csat5.emitted.map((item) => [item.score, item.score_category, item.survey_type_warning]),
			).toEqual([
				[5, 'positive', undefined],
				[
					8,
					'neutral',
					'score 8 is outside the credential\'s Survey Type, CSAT 1–5: scored on CSAT 1–10; set Survey Type in the "Wootric API" credential to the account\'s survey',
				],
			]);
			expect(ces.emitted.map((item) => [item.score, item.survey_type_warning])).toEqual([
				[
					9,
					expect.stringMatching(
						/^score 9 is outside the credential's Survey Type, CES 1–7: scored on CES 1–7;/,
					),
				],
			]);
		});

		it('without survey_mode, or with one it does not know, follows the credential', async () => {
			fake.account.surveyMode = 'CES';
			const session = await WebhookSession.start(fake, { events: ['response'] }, undefined, {
				surveyType: 'csat5',
			});
			await deliverEach(session, [3], false);
			const unknown = responsePayload(
				fake.account,
				answerEach([5], fake.clock.now())[0],
				'created',
				fake.clock.now(),
			);
			await session.deliver({ ...unknown, surveyMode: 'XYZ' as 'CES' });

			expect(
				session.emitted.map((item) => [item.score, item.score_category, item.survey_type_warning]),
			).toEqual([
				[3, 'neutral', undefined],
				[
					5,
					'positive',
					'survey_mode "XYZ" is not NPS, CSAT or CES: scored on the credential\'s Survey Type, CSAT 1–5',
				],
			]);
		});
	});
});
