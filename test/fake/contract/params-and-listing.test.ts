import { parseBracketParams } from '../brackets';
import { addResponse, createEndUser, MAX_PAGE, MAX_PER_PAGE } from '../index';
import { errorList, idsOf, invalidParameter, useFakeApi } from './setup';

const T = 1_700_000_000;

/**
 * Re-inserts records so the store's iteration order is not the id order (a sort that leans on it
 * would show).
 */
function storeInOrder<T extends { id: number }>(records: Map<number, T>, order: T[]): void {
	for (const record of order) {
		records.delete(record.id);
		records.set(record.id, record);
	}
}

const parse = (query: string) => parseBracketParams(new URLSearchParams(query));

describe('parseBracketParams (Rails bracket notation)', () => {
	it('reads plain keys, the last repeat winning, with form decoding of + and %XX', () => {
		expect(parse('a=1&b=x+y%2Bz&a=2')).toEqual({ a: '2', b: 'x y+z' });
	});

	it('nests created[gt] and combined comparison keys', () => {
		expect(parse('created[gt]=1&created[lte]=2&updated[eq]=3')).toEqual({
			created: { gt: '1', lte: '2' },
			updated: { eq: '3' },
		});
	});

	it('reads properties[k] and end_user[properties][k]', () => {
		expect(
			parse('properties[plan]=pro&properties[seats]=5&end_user[properties][plan]=team'),
		).toEqual({
			properties: { plan: 'pro', seats: '5' },
			end_user: { properties: { plan: 'team' } },
		});
	});

	it('collects emails[] into an array in order', () => {
		expect(parse('emails[]=a%40example.com&emails[]=b%40example.com')).toEqual({
			emails: ['a@example.com', 'b@example.com'],
		});
	});

	it('starts a new hash in context[][k] when the last one already has k', () => {
		expect(parse('context[][name]=x&context[][title]=y&context[][name]=z')).toEqual({
			context: [{ name: 'x', title: 'y' }, { name: 'z' }],
		});
	});

	it('compares the whole key path, as Rails does, for deeper hashes inside arrays', () => {
		expect(parse('a[][k][j]=1&a[][k][i]=2')).toEqual({ a: [{ k: { j: '1', i: '2' } }] });
		expect(parse('a[][k][j]=1&a[][k][j]=2')).toEqual({ a: [{ k: { j: '1' } }, { k: { j: '2' } }] });
		// A path with an array step never counts as present: it keeps filling the last hash.
		expect(parse('a[][tags][]=x&a[][tags][]=y')).toEqual({ a: [{ tags: ['x', 'y'] }] });
	});

	it('decodes percent-encoded brackets the same as literal ones', () => {
		expect(parse('created%5Bgt%5D=5&emails%5B%5D=a&context%5B%5D%5Bname%5D=x')).toEqual(
			parse('created[gt]=5&emails[]=a&context[][name]=x'),
		);
		expect(parse('created%5Bgt%5D=5')).toEqual({ created: { gt: '5' } });
	});

	it('takes any iterable of pairs (multipart fields)', () => {
		expect(
			parseBracketParams([
				['survey_settings[sampling][registered_percent]', '50'],
				['subject', 'Hi'],
			]),
		).toEqual({
			survey_settings: { sampling: { registered_percent: '50' } },
			subject: 'Hi',
		});
	});

	it('treats names of Object.prototype members as plain keys and never touches the prototype', () => {
		const parsed = parse(
			'__proto__[polluted]=yes&constructor[x]=1&context[][toString]=a&context[][valueOf]=b',
		);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
		expect(Object.keys(parsed)).toEqual(['__proto__', 'constructor', 'context']);
		expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toEqual({
			polluted: 'yes',
		});
		expect(parsed.constructor).toEqual({ x: '1' });
		// One hash: an inherited toString is not "a key the last hash already has".
		expect(JSON.parse(JSON.stringify(parsed.context))).toEqual([{ toString: 'a', valueOf: 'b' }]);
	});
});

describe('bracket parameters over HTTP', () => {
	const { fake, api } = useFakeApi();

	it('parses query strings written with literal and with percent-encoded brackets alike', async () => {
		await api().get('/v1/end_users', 'created%5Bgt%5D=5&created[lt]=10&emails[]=a&emails%5B%5D=b');
		const logged = fake().requestsTo('/v1/end_users', 'GET')[0];
		expect(logged.rawQuery).toBe('created%5Bgt%5D=5&created[lt]=10&emails[]=a&emails%5B%5D=b');
		expect(logged.query).toEqual({ created: { gt: '5', lt: '10' }, emails: ['a', 'b'] });
		expect(logged.status).toBe(200);
	});

	it('parses form bodies with brackets into the stored end user', async () => {
		const reply = await api().post(
			'/v1/end_users',
			'email=form%40example.com&properties%5Bplan%5D=pro&properties[seats]=3',
		);
		expect(reply.status).toBe(201);
		expect(fake().requestsTo('/v1/end_users', 'POST')[0].body).toEqual({
			email: 'form@example.com',
			properties: { plan: 'pro', seats: '3' },
		});
		expect([...fake().account.endUsers.values()].map((user) => user.properties)).toEqual([
			{ plan: 'pro', seats: '3' },
		]);
	});

	it('answers 400 to a multipart body that does not parse, and still logs the request', async () => {
		const reply = await fetch(`${fake().baseUrl}/v1/end_users`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${await api().token()}`,
				'content-type': 'multipart/form-data; boundary=xyz',
			},
			body: 'email=not-multipart%40example.com',
			signal: AbortSignal.timeout(2000),
		});
		expect(reply.status).toBe(400);
		expect(await reply.json()).toEqual(
			errorList('bad_request', 'The request body is not valid multipart/form-data', null),
		);
		expect(fake().requestsTo('/v1/end_users')).toMatchObject([
			{
				method: 'POST',
				route: 'POST /v1/end_users',
				status: 400,
				rawBody: 'email=not-multipart%40example.com',
			},
		]);
		expect(fake().account.endUsers.size).toBe(0);
		// Without a token, the 401 comes first.
		const anonymous = await fetch(`${fake().baseUrl}/v1/end_users`, {
			method: 'POST',
			headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
			body: 'x',
		});
		expect(anonymous.status).toBe(401);
	});

	it('answers 400 to a path segment that is not valid percent-encoding', async () => {
		const reply = await api().get('/v1/end_users/%E0%A4%A');
		expect([reply.status, reply.body]).toEqual([
			400,
			errorList('bad_request', 'The path segment %E0%A4%A is not valid percent-encoding', null),
		]);
	});

	it('answers 400 when a hash is sent where a string is expected, and the reverse', async () => {
		expect((await api().get('/v1/end_users', 'email[x]=a')).body).toEqual(
			invalidParameter('email'),
		);
		expect((await api().get('/v1/end_users', 'created=5')).body).toEqual(
			invalidParameter('created'),
		);
		expect((await api().get('/v1/end_users', 'created[gt][x]=5')).body).toEqual(
			invalidParameter('created[gt]'),
		);
	});
});

describe('common list rules on GET /v1/end_users', () => {
	const { fake, api } = useFakeApi();

	/** Users whose emails sort in creation order: user00@…, user01@…, … */
	function createUsers(
		count: number,
		fields: (index: number) => { createdAt?: number; updatedAt?: number } = () => ({}),
	) {
		return Array.from({ length: count }, (_, index) =>
			createEndUser(
				fake().account,
				fake().store,
				`user${String(index).padStart(2, '0')}@example.com`,
				fields(index),
			),
		);
	}
	const emailsOf = (body: Array<{ email: string }>) => body.map((user) => user.email);

	it('exposes the limits of the spec', () => {
		expect([MAX_PAGE, MAX_PER_PAGE]).toEqual([30, 50]);
	});

	it('answers page over 30 with 400 and the exact error_list body (it does not clamp)', async () => {
		createUsers(1);
		const reply = await api().get('/v1/end_users', 'page=31');
		expect(reply.status).toBe(400);
		expect(reply.body).toEqual({
			type: 'error_list',
			errors: [
				{ status: 'invalid_parameter', message: 'page does not have a valid value', field: 'page' },
			],
		});
		expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
		const last = await api().get('/v1/end_users', 'page=30');
		expect([last.status, last.body]).toEqual([200, []]);
	});

	it('answers per_page over 50 with 400, and takes 50', async () => {
		createUsers(51);
		const reply = await api().get('/v1/end_users', 'per_page=51');
		expect([reply.status, reply.body]).toEqual([400, invalidParameter('per_page')]);
		const full = await api().get('/v1/end_users', 'per_page=50');
		expect([full.status, full.body.length]).toEqual([200, 50]);
	});

	it.each(['0', '-1', 'abc', '', '1.5', '2x'])('answers page=%p with 400', async (value) => {
		const reply = await api().get('/v1/end_users', `page=${value}`);
		expect([reply.status, reply.body]).toEqual([400, invalidParameter('page')]);
	});

	it.each(['0', '-5', 'ten', '', '2.0'])('answers per_page=%p with 400', async (value) => {
		const reply = await api().get('/v1/end_users', `per_page=${value}`);
		expect([reply.status, reply.body]).toEqual([400, invalidParameter('per_page')]);
	});

	it('pages 25 records by default, page 1 first', async () => {
		const users = createUsers(30);
		const first = await api().get('/v1/end_users');
		expect(emailsOf(first.body)).toEqual(users.slice(0, 25).map((user) => user.email));
		const second = await api().get('/v1/end_users', 'page=2');
		expect(emailsOf(second.body)).toEqual(users.slice(25).map((user) => user.email));
		const third = await api().get('/v1/end_users', 'page=3');
		expect(third.body).toEqual([]);
		const bySeven = await api().get('/v1/end_users', 'per_page=7&page=2');
		expect(emailsOf(bySeven.body)).toEqual(users.slice(7, 14).map((user) => user.email));
	});

	describe('created and updated filters', () => {
		// created_at T-1, T, T+1; updated_at set far apart so a filter on the wrong field would show.
		beforeEach(() =>
			createUsers(3, (index) => ({ createdAt: T - 1 + index, updatedAt: T + 1000 - 1 + index })),
		);

		it.each([
			['created[gt]', T, ['user02']],
			['created[gte]', T, ['user01', 'user02']],
			['created[lt]', T, ['user00']],
			['created[lte]', T, ['user00', 'user01']],
			['created[eq]', T, ['user01']],
			['updated[gt]', T + 1000, ['user02']],
			['updated[gte]', T + 1000, ['user01', 'user02']],
			['updated[lt]', T + 1000, ['user00']],
			['updated[lte]', T + 1000, ['user00', 'user01']],
			['updated[eq]', T + 1000, ['user01']],
		])(
			'%s=%d is strict for gt/lt and inclusive for gte/lte/eq at the boundary second',
			async (key, bound, expected) => {
				const reply = await api().get('/v1/end_users', `${key}=${bound}`);
				expect(reply.status).toBe(200);
				expect(emailsOf(reply.body)).toEqual(expected.map((name) => `${name}@example.com`));
			},
		);

		it('combines keys of one filter and both filters', async () => {
			const window = await api().get(
				'/v1/end_users',
				`created%5Bgt%5D=${T - 1}&created%5Blt%5D=${T + 1}`,
			);
			expect(emailsOf(window.body)).toEqual(['user01@example.com']);
			const both = await api().get(
				'/v1/end_users',
				`created[gte]=${T - 1}&created[lte]=${T}&updated[gte]=${T + 1000}`,
			);
			expect(emailsOf(both.body)).toEqual(['user01@example.com']);
			const empty = await api().get('/v1/end_users', `created[gt]=${T}&created[lt]=${T + 1}`);
			expect(empty.body).toEqual([]);
		});

		it('answers 400 naming the key for an unknown comparison or a non-integer bound', async () => {
			expect(await api().get('/v1/end_users', 'created[after]=5')).toMatchObject({
				status: 400,
				body: invalidParameter('created[after]'),
			});
			expect(await api().get('/v1/end_users', 'updated[ne]=5')).toMatchObject({
				status: 400,
				body: invalidParameter('updated[ne]'),
			});
			expect(await api().get('/v1/end_users', 'created[toString]=5')).toMatchObject({
				status: 400,
				body: invalidParameter('created[toString]'),
			});
			expect(await api().get('/v1/end_users', 'created[gt]=yesterday')).toMatchObject({
				status: 400,
				body: invalidParameter('created[gt]'),
			});
			expect(await api().get('/v1/end_users', 'created[gt]=')).toMatchObject({
				status: 400,
				body: invalidParameter('created[gt]'),
			});
		});
	});

	describe('sorting', () => {
		// Stored in an order that is none of the sort orders below.
		let carol: number, alice: number, bob: number;
		beforeEach(() => {
			carol = createEndUser(fake().account, fake().store, 'carol@example.com', {
				createdAt: T - 2,
				updatedAt: T + 1,
			}).id;
			alice = createEndUser(fake().account, fake().store, 'alice@example.com', {
				createdAt: T,
				updatedAt: T + 2,
			}).id;
			bob = createEndUser(fake().account, fake().store, 'bob@example.com', {
				createdAt: T - 1,
				updatedAt: T,
			}).id;
		});

		it('sorts by email ascending by default', async () => {
			expect(idsOf(await api().get('/v1/end_users'))).toEqual([alice, bob, carol]);
		});

		it('takes sort_order and each sort_key', async () => {
			expect(idsOf(await api().get('/v1/end_users', 'sort_order=desc'))).toEqual([
				carol,
				bob,
				alice,
			]);
			expect(idsOf(await api().get('/v1/end_users', 'sort_order=asc&sort_key=email'))).toEqual([
				alice,
				bob,
				carol,
			]);
			expect(idsOf(await api().get('/v1/end_users', 'sort_key=created_at'))).toEqual([
				carol,
				bob,
				alice,
			]);
			expect(
				idsOf(await api().get('/v1/end_users', 'sort_key=created_at&sort_order=desc')),
			).toEqual([alice, bob, carol]);
			expect(idsOf(await api().get('/v1/end_users', 'sort_key=updated_at'))).toEqual([
				bob,
				carol,
				alice,
			]);
			expect(
				idsOf(await api().get('/v1/end_users', 'sort_key=updated_at&sort_order=desc')),
			).toEqual([alice, carol, bob]);
		});

		it('answers 400 for a sort_key or sort_order it does not know', async () => {
			expect(await api().get('/v1/end_users', 'sort_key=name')).toMatchObject({
				status: 400,
				body: invalidParameter('sort_key'),
			});
			expect(await api().get('/v1/end_users', 'sort_key=id')).toMatchObject({
				status: 400,
				body: invalidParameter('sort_key'),
			});
			expect(await api().get('/v1/end_users', 'sort_order=up')).toMatchObject({
				status: 400,
				body: invalidParameter('sort_order'),
			});
		});
	});

	it('breaks ties by id, so paging through equal sort values neither repeats nor skips', async () => {
		const users = Array.from({ length: 7 }, (_, index) =>
			createEndUser(fake().account, fake().store, `tie${index}@example.com`, { createdAt: T }),
		);
		const ids = users.map((user) => user.id);
		storeInOrder(
			fake().account.endUsers,
			[3, 0, 6, 2, 5, 1, 4].map((index) => users[index]),
		);
		for (const [order, expected] of [
			['asc', ids],
			['desc', [...ids].reverse()],
		] as const) {
			const seen: number[] = [];
			for (let page = 1; page <= 3; page++) {
				const reply = await api().get(
					'/v1/end_users',
					`sort_key=created_at&sort_order=${order}&per_page=3&page=${page}`,
				);
				seen.push(...idsOf(reply));
			}
			expect(seen).toEqual(expected);
		}
	});
});

describe('the same list rules on GET /v1/responses', () => {
	const { fake, api } = useFakeApi();
	let endUserId: number;
	beforeEach(() => {
		endUserId = createEndUser(fake().account, fake().store, 'answers@example.com').id;
	});

	const respond = (createdAt: number, updatedAt = createdAt) =>
		addResponse(fake().account, fake().store, { endUserId, score: 8, createdAt, updatedAt }).id;

	it('rejects page over 30 and per_page over 50 with the same bodies', async () => {
		expect(await api().get('/v1/responses', 'page=31')).toMatchObject({
			status: 400,
			body: invalidParameter('page'),
		});
		expect(await api().get('/v1/responses', 'per_page=51')).toMatchObject({
			status: 400,
			body: invalidParameter('per_page'),
		});
		expect(await api().get('/v1/responses', 'page=0')).toMatchObject({
			status: 400,
			body: invalidParameter('page'),
		});
	});

	it('sorts by created_at descending by default, and takes sort_order, sort_key=updated_at, and no other key', async () => {
		const oldest = respond(T - 2, T + 5);
		const middle = respond(T - 1, T + 3);
		const newest = respond(T, T + 4);
		expect(idsOf(await api().get('/v1/responses'))).toEqual([newest, middle, oldest]);
		expect(idsOf(await api().get('/v1/responses', 'sort_order=asc'))).toEqual([
			oldest,
			middle,
			newest,
		]);
		expect(idsOf(await api().get('/v1/responses', 'sort_key=updated_at'))).toEqual([
			oldest,
			newest,
			middle,
		]);
		expect(await api().get('/v1/responses', 'sort_key=email')).toMatchObject({
			status: 400,
			body: invalidParameter('sort_key'),
		});
	});

	it('filters on created with the same comparison keys', async () => {
		respond(T - 1);
		const atT = respond(T);
		const after = respond(T + 1);
		expect(idsOf(await api().get('/v1/responses', `created[gte]=${T}`))).toEqual([after, atT]);
		expect(idsOf(await api().get('/v1/responses', `created[gt]=${T}`))).toEqual([after]);
		expect(await api().get('/v1/responses', 'created[since]=1')).toMatchObject({
			status: 400,
			body: invalidParameter('created[since]'),
		});
	});

	it('reads a created window in either order, skipping what other filters drop, and sees records stored or removed between requests', async () => {
		const ids = [T + 2, T, T + 1, T, T + 3].map((second) => respond(second));
		expect(
			idsOf(
				await api().get('/v1/responses', `created[gt]=${T}&created[lte]=${T + 2}&sort_order=asc`),
			),
		).toEqual([ids[2], ids[0]]);
		expect(
			idsOf(
				await api().get('/v1/responses', `created[gte]=${T}&created[lt]=${T + 2}&sort_order=desc`),
			),
		).toEqual([ids[2], ids[3], ids[1]]);
		expect(
			idsOf(await api().get('/v1/responses', `created[eq]=${T}&sort_order=asc&per_page=1&page=2`)),
		).toEqual([ids[3]]);
		fake().account.responses.get(ids[1])!.excludedFromCalculations = true;
		expect(
			idsOf(await api().get('/v1/responses', `created[eq]=${T}&sort_order=asc&per_page=1&page=1`)),
		).toEqual([ids[3]]);
		const late = respond(T + 1);
		fake().account.responses.delete(ids[4]);
		expect(idsOf(await api().get('/v1/responses', `created[gte]=${T + 1}&sort_order=asc`))).toEqual(
			[ids[2], late, ids[0]],
		);
	});

	it('pages through equal created_at seconds newest id first, without repeats or gaps', async () => {
		const ids = Array.from({ length: 5 }, () => respond(T));
		storeInOrder(
			fake().account.responses,
			[2, 4, 0, 3, 1].map((index) => fake().account.responses.get(ids[index])!),
		);
		const seen: number[] = [];
		for (let page = 1; page <= 3; page++)
			seen.push(...idsOf(await api().get('/v1/responses', `per_page=2&page=${page}`)));
		expect(seen).toEqual([...ids].reverse());
	});
});
