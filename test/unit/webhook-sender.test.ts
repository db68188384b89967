import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

import { postAll, type Delivery } from '../e2e/webhook-deliveries';

/**
 * The e2e's webhook sender stops with the step that posts (test/e2e/suite.ts): a step that failed
 * or ran out of time must not go on loading n8n while the next step runs.
 */
describe('the e2e webhook sender', () => {
	let server: Server;
	let received = 0;
	let url: string;

	beforeEach(async () => {
		received = 0;
		server = createServer((request, response) => {
			received++;
			request.resume();
			// A busy receiver: each answer takes a while.
			setTimeout(() => response.end('{"message":"ok"}'), 50);
		});
		server.listen(0, '127.0.0.1');
		await once(server, 'listening');
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
	});
	afterEach(async () => {
		server.closeAllConnections();
		server.close();
		await once(server, 'close');
	});

	const deliveries = (count: number): Delivery[] =>
		Array.from({ length: count }, (_, index) => ({
			responseId: index + 1,
			body: `response[id]=${index + 1}`,
			contentType: 'application/x-www-form-urlencoded',
		}));

	it('sends every delivery while its step runs', async () => {
		const answers = await postAll(url, deliveries(20), { connections: 5 });

		expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
		expect(received).toBe(20);
	});

	it('sends nothing more once its step ended, and fails with the reason', async () => {
		const stop = new AbortController();
		const connections = 5;
		const posting = postAll(url, deliveries(1_000), { connections, stopped: stop.signal });
		await delay(200);

		stop.abort(new Error('The step ran out of its 5 s'));
		const atTheStop = received;

		await expect(posting).rejects.toThrow('The step ran out of its 5 s');
		// What was already on its way may still arrive, on a busy machine late: at most one a
		// connection. Then nothing more.
		let settled = -1;
		for (let tries = 0; tries < 20 && settled !== received; tries++) {
			settled = received;
			await delay(250);
		}
		expect(received).toBe(settled);
		expect(received).toBeLessThanOrEqual(atTheStop + connections);
		expect(received).toBeLessThan(100);
	});
});
