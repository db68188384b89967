import { FakeZendesk, type ZendeskTicket } from '../../scripts/e2e/tools/zendesk';
import { basic, eachTest, send, type Answer } from './send';

type Ticket = Omit<ZendeskTicket, 'comments' | 'createdWith'> & { url: string };

/**
 * The fake Zendesk, over real HTTP (the proxy's part is tls-proxy.test.ts), sent what n8n's Zendesk
 * node (v1, Zendesk/GenericFunctions.js and Zendesk.node.js) and the HTTP Request node with the
 * zendeskApi credential send.
 */
describe('FakeZendesk', () => {
	let zendesk: FakeZendesk;

	eachTest(() => (zendesk = new FakeZendesk()));

	/** As zendeskApiRequest sends it (`/api/v2${resource}.json`, JSON, `email/token` Basic auth). */
	async function api<Body = Record<string, unknown>>(
		method: string,
		resource: string,
		body?: unknown,
		auth = basic(`${zendesk.email}/token`, zendesk.apiToken),
	): Promise<Answer<Body>> {
		return await send<Body>(`${zendesk.url}/api/v2${resource}`, {
			method,
			headers: { accept: 'application/json', authorization: auth },
			body,
		});
	}

	/** The node's ticket create with JSON parameters, as the detractor example fills it. */
	async function createTicket(
		id: number,
		email = 'pat@example.com',
		extra: Record<string, unknown> = {},
	) {
		return await api<{ ticket: Ticket }>('POST', '/tickets.json', {
			ticket: {
				comment: { body: `Score: 2\nComment: slow` },
				subject: `Detractor: ${email} scored 2`,
				external_id: `wootric-response-${id}`,
				tags: [`wootric_response_${id}`, 'Wootric_Comment_0123456789ab'],
				requester: { name: email, email },
				...extra,
			},
		});
	}

	it('answers the credential test, and 401 to a wrong token or a token sent without /token', async () => {
		const fields = await api<{ ticket_fields: unknown[]; count: number }>(
			'GET',
			'/ticket_fields.json',
		);
		const wrong = await api(
			'GET',
			'/ticket_fields.json',
			undefined,
			basic(`${zendesk.email}/token`, 'nope'),
		);
		const noSuffix = await api(
			'GET',
			'/ticket_fields.json',
			undefined,
			basic(zendesk.email, zendesk.apiToken),
		);

		expect(fields.status).toBe(200);
		expect(fields.body.count).toBe(fields.body.ticket_fields.length);
		for (const refused of [wrong, noSuffix]) {
			expect(refused).toEqual({ status: 401, body: { error: "Couldn't authenticate you" } });
		}
	});

	it('creates a ticket as the node sends it: 201, status new, tags lower-cased, the requester a user', async () => {
		const created = await createTicket(7);
		const again = await createTicket(8, 'PAT@example.com');
		const other = await createTicket(9, 'sam@example.com');

		expect(created.status).toBe(201);
		expect(created.body.ticket).toMatchObject({
			id: 1,
			url: `https://acme.zendesk.com/api/v2/tickets/1.json`,
			external_id: 'wootric-response-7',
			subject: 'Detractor: pat@example.com scored 2',
			description: 'Score: 2\nComment: slow',
			status: 'new',
			tags: ['wootric_response_7', 'wootric_comment_0123456789ab'],
			created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
		});
		// The same email (any case) is the same end user; another is another.
		expect(again.body.ticket.requester_id).toBe(created.body.ticket.requester_id);
		expect(other.body.ticket.requester_id).not.toBe(created.body.ticket.requester_id);
		expect(zendesk.users.map((user) => user.email)).toEqual([
			zendesk.email,
			'pat@example.com',
			'sam@example.com',
		]);
		expect(zendesk.counts).toEqual({ tickets: 3, updates: 0, comments: 3 });
		expect(zendesk.requests[0]).toMatchObject({
			method: 'POST',
			path: '/api/v2/tickets.json',
			body: { ticket: { external_id: 'wootric-response-7' } },
			status: 201,
		});
	});

	it('refuses a create without a comment (422 RecordInvalid) and creates nothing', async () => {
		const none = await api('POST', '/tickets.json', { ticket: { subject: 'x' } });
		const blank = await api('POST', '/tickets.json', { ticket: { comment: { body: ' ' } } });

		for (const answer of [none, blank]) {
			expect(answer).toEqual({
				status: 422,
				body: {
					error: 'RecordInvalid',
					description: 'Record validation errors',
					details: {
						description: [{ description: 'Description: cannot be blank', error: 'BlankValue' }],
					},
				},
			});
		}
		expect(zendesk.counts.tickets).toBe(0);
	});

	it('refuses a requester email it does not take (422, naming the requester) and creates nothing', async () => {
		const emails = ['pat..two@example.com', '.pat@example.com', 'pat@localhost', 'pat @x.com'];
		const answers = [];
		for (const [index, email] of emails.entries()) answers.push(await createTicket(index, email));

		expect(answers.map(({ status, body }) => ({ status, body }))).toEqual(
			emails.map((email) => ({
				status: 422,
				body: {
					error: 'RecordInvalid',
					description: 'Record validation errors',
					details: {
						requester: [
							{
								description: `Requester: Email: ${email} is not properly formatted`,
								error: 'InvalidFormat',
							},
						],
					},
				},
			})),
		);
		expect(zendesk.counts.tickets).toBe(0);
		expect(zendesk.users.map((user) => user.email)).toEqual([zendesk.email]);
	});

	it('lists tickets by external_id as the HTTP Request node asks, consistently right after the create', async () => {
		await createTicket(7);
		await createTicket(8);

		const found = await api<{ tickets: Ticket[] }>(
			'GET',
			'/tickets.json?external_id=wootric-response-7',
		);
		const none = await api('GET', '/tickets.json?external_id=wootric-response-99');

		expect(found.body).toEqual({
			tickets: [expect.objectContaining({ id: 1, external_id: 'wootric-response-7' })],
			next_page: null,
			previous_page: null,
			count: 1,
		});
		expect(none.body).toEqual({ tickets: [], next_page: null, previous_page: null, count: 0 });
		expect(zendesk.requests[2].query).toEqual({ external_id: 'wootric-response-7' });
	});

	it('updates as the node sends it: a private comment and an added tag in one PUT → {ticket, audit}', async () => {
		await createTicket(7);
		const updated = await api<{
			ticket: Ticket;
			audit: { events: Array<Record<string, unknown>> };
		}>('PUT', '/tickets/1.json', {
			ticket: {
				comment: { body: 'still slow', public: false },
				additional_tags: ['wootric_comment_feedbeef0001'],
			},
		});
		const note = await api('PUT', '/tickets/1.json', {
			ticket: {
				comment: { html_body: '<p>internal <b>note</b></p>', public: false },
				remove_tags: ['wootric_response_7'],
			},
		});
		const comments = await api<{
			comments: Array<{ body: string; public: boolean }>;
			count: number;
		}>('GET', '/tickets/1/comments.json');
		const ticket = await api<{ ticket: Ticket }>('GET', '/tickets/1.json');

		expect(updated.status).toBe(200);
		expect(updated.body.ticket.tags).toEqual([
			'wootric_response_7',
			'wootric_comment_0123456789ab',
			'wootric_comment_feedbeef0001',
		]);
		expect(updated.body.audit.events).toEqual([
			expect.objectContaining({ type: 'Comment', body: 'still slow', public: false }),
			expect.objectContaining({ type: 'Change', field_name: 'tags' }),
		]);
		expect(note.status).toBe(200);
		expect(
			comments.body.comments.map(({ body, public: isPublic }) => ({ body, isPublic })),
		).toEqual([
			{ body: 'Score: 2\nComment: slow', isPublic: true },
			{ body: 'still slow', isPublic: false },
			{ body: 'internal note', isPublic: false },
		]);
		expect(ticket.body.ticket.tags).toEqual([
			'wootric_comment_0123456789ab',
			'wootric_comment_feedbeef0001',
		]);
		expect(zendesk.counts).toEqual({ tickets: 1, updates: 2, comments: 3 });
	});

	it('refuses any change to a closed ticket (422), as Zendesk does', async () => {
		await createTicket(7);
		const closing = await api('PUT', '/tickets/1.json', { ticket: { status: 'closed' } });
		const comment = await api('PUT', '/tickets/1.json', {
			ticket: { comment: { body: 'later', public: false }, additional_tags: ['x'] },
		});

		expect(closing.status).toBe(200);
		expect(comment).toEqual({
			status: 422,
			body: {
				error: 'RecordInvalid',
				description: 'Record validation errors',
				details: {
					status: [
						{ description: 'Status: closed prevents ticket update', error: 'ClosedPreventsUpdate' },
					],
				},
			},
		});
		expect(zendesk.tickets[0]).toMatchObject({ status: 'closed', comments: [expect.anything()] });
		expect(zendesk.tickets[0].tags).not.toContain('x');
	});

	it('replaces the tags when an update sends tags, and refuses an unknown status (422)', async () => {
		await createTicket(7);
		const replaced = await api<{ ticket: Ticket }>('PUT', '/tickets/1.json', {
			ticket: { tags: ['Only'] },
		});
		const badStatus = await api('PUT', '/tickets/1.json', { ticket: { status: 'bogus' } });

		expect(replaced.body.ticket.tags).toEqual(['only']);
		expect(badStatus.status).toBe(422);
		expect(badStatus.body.error).toBe('RecordInvalid');
	});

	it('answers 404 RecordNotFound for a ticket that does not exist, and InvalidEndpoint for other paths', async () => {
		const get = await api('GET', '/tickets/42.json');
		const put = await api('PUT', '/tickets/42.json', { ticket: { comment: { body: 'x' } } });
		const comments = await api('GET', '/tickets/42/comments.json');
		const search = await api('GET', '/search.json?query=type%3Aticket');

		for (const answer of [get, put, comments]) {
			expect(answer).toEqual({
				status: 404,
				body: { error: 'RecordNotFound', description: 'Not found' },
			});
		}
		expect(search).toEqual({
			status: 404,
			body: { error: 'InvalidEndpoint', description: 'Not found' },
		});
	});
});
