import { REPORTS_PATH, TicketServer, type TicketChange } from '../../scripts/e2e/ticket-server';

/**
 * The ticket stand-in the e2e suites and `npm run dev` send tickets to, over real HTTP: it folds a
 * request sent again by its Idempotency-Key, as the examples rely on a ticket system doing.
 */
describe('the ticket stand-in', () => {
	let server: TicketServer;
	const changes: TicketChange[] = [];

	beforeEach(async () => {
		changes.length = 0;
		server = await new TicketServer((change) => changes.push(change)).listen();
	});
	afterEach(async () => await server.close());

	async function send(
		method: string,
		path: string,
		body: unknown,
		idempotencyKey?: string,
	): Promise<{ status: number; body: Record<string, unknown> }> {
		const answer = await fetch(`${server.url}${path}`, {
			method,
			headers: {
				'content-type': 'application/json',
				...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
			},
			body: typeof body === 'string' ? body : JSON.stringify(body),
		});
		return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
	}

	it('opens a ticket per POST; a POST with a key used already opens nothing and answers that ticket', async () => {
		const first = await send('POST', '', { wootric_response_id: 7, score: 2 }, 'response:7');
		const repeat = await send('POST', '', { wootric_response_id: 7, score: 2 }, 'response:7');
		const other = await send('POST', '', { wootric_response_id: 8, score: 1 }, 'response:8');
		const unkeyed = await send('POST', '', { wootric_response_id: 8, score: 1 });

		expect([first.status, repeat.status, other.status, unkeyed.status]).toEqual([
			201, 200, 201, 201,
		]);
		expect(repeat.body.id).toBe(first.body.id);
		expect(server.tickets.map((ticket) => [ticket.id, ticket.idempotencyKey])).toEqual([
			[1, 'response:7'],
			[2, 'response:8'],
			[3, undefined],
		]);
		expect(server.requests.map((request) => [request.status, request.ticketId])).toEqual([
			[201, 1],
			[200, 1],
			[201, 2],
			[201, 3],
		]);
		expect(changes.map((change) => [change.kind, change.ticket.id])).toEqual([
			['opened', 1],
			['repeat', 1],
			['opened', 2],
			['opened', 3],
		]);
		const listed = await fetch(server.url).then(
			async (answer) => (await answer.json()) as unknown[],
		);
		expect(listed).toHaveLength(3);
	});

	it("PATCH by response id merges into that response's ticket and keeps each update; 404 before the ticket exists", async () => {
		const early = await send(
			'PATCH',
			'/by-response/7',
			{ comment: 'Slow', score: 2 },
			'responseUpdated:7:2026-11-25T14:01:00Z',
		);
		await send('POST', '', { wootric_response_id: 7, score: 2, comment: '' }, 'response:7');
		const update = await send(
			'PATCH',
			'/by-response/7',
			{ comment: 'Slow', score: 2 },
			'responseUpdated:7:2026-11-25T14:01:00Z',
		);
		const repeat = await send(
			'PATCH',
			'/by-response/7',
			{ comment: 'Slow', score: 2 },
			'responseUpdated:7:2026-11-25T14:01:00Z',
		);
		const second = await send('PATCH', '/by-response/7', { comment: 'Slow. Fixed now.' });

		expect([early.status, update.status, repeat.status, second.status]).toEqual([
			404, 200, 200, 200,
		]);
		const [ticket] = server.tickets;
		expect(server.tickets).toHaveLength(1);
		expect(ticket.fields).toEqual({
			wootric_response_id: 7,
			score: 2,
			comment: 'Slow. Fixed now.',
		});
		expect(ticket.updates.map((each) => [each.fields, each.idempotencyKey])).toEqual([
			[{ comment: 'Slow', score: 2 }, 'responseUpdated:7:2026-11-25T14:01:00Z'],
			[{ comment: 'Slow. Fixed now.' }, undefined],
		]);
		expect(changes.map((change) => change.kind)).toEqual([
			'opened',
			'updated',
			'repeat',
			'updated',
		]);
		expect(server.requestsFor(7).map(({ method, status }) => `${method} ${status}`)).toEqual([
			'PATCH 404',
			'POST 201',
			'PATCH 200',
			'PATCH 200',
			'PATCH 200',
		]);
		expect(server.requestsFor(8)).toEqual([]);
	});

	it('answers 404 to an update of a response without a ticket, 400 to a body that is not JSON, 404 elsewhere', async () => {
		await send('POST', '', { wootric_response_id: 7 });

		expect((await send('PATCH', '/by-response/8', { comment: 'x' })).status).toBe(404);
		expect((await send('POST', '', 'not json')).status).toBe(400);
		expect((await send('PUT', '/1', {})).status).toBe(404);
		expect(server.tickets.map((ticket) => ticket.updates)).toEqual([[]]);
	});

	it('folds a key per method and path: an update may carry the key its ticket was opened with', async () => {
		await send('POST', '', { wootric_response_id: 7, comment: '' }, 'response:7');
		const update = await send('PATCH', '/by-response/7', { comment: 'Slow' }, 'response:7');
		const repeat = await send('PATCH', '/by-response/7', { comment: 'Slow' }, 'response:7');

		expect([update.status, repeat.status]).toEqual([200, 200]);
		expect(server.tickets.map((ticket) => [ticket.fields.comment, ticket.updates.length])).toEqual([
			['Slow', 1],
		]);
		expect(changes.map((change) => change.kind)).toEqual(['opened', 'updated', 'repeat']);
	});

	it('keeps each JSON body posted to /reports/<name> as a report, apart from the tickets; 404 elsewhere under /reports', async () => {
		const reportsUrl = new URL(REPORTS_PATH, server.url).href;
		const post = (url: string, body: string) =>
			fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

		const answer = await post(`${reportsUrl}/nps-trend`, JSON.stringify({ weeks: [{ nps: 50 }] }));
		const statuses = [
			(await post(`${reportsUrl}/nps-trend`, 'not json')).status,
			(await post(reportsUrl, '{}')).status,
			(await post(`${reportsUrl}/a/b`, '{}')).status,
			(await fetch(`${reportsUrl}/nps-trend`)).status,
		];

		expect(answer.status).toBe(201);
		const report = { path: '/reports/nps-trend', body: { weeks: [{ nps: 50 }] } };
		expect(await answer.json()).toMatchObject(report);
		expect(statuses).toEqual([400, 404, 404, 404]);
		expect(server.reports).toEqual([{ ...report, receivedAt: expect.any(String) }]);
		expect([server.tickets, changes]).toEqual([[], []]);
		server.clear();
		expect(server.reports).toEqual([]);
	});

	it('treats an empty Idempotency-Key as none', async () => {
		await send('POST', '', { wootric_response_id: 7 }, '');
		await send('POST', '', { wootric_response_id: 7 }, '');

		expect(server.tickets).toHaveLength(2);
	});
});
