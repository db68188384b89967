import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';

import type { FakeWootric } from '../fake';
import type { FakeRequest } from '../fake/http';

/**
 * When a request the fake received was sent, on the test's clock (Date), for answers held for a
 * span of the service's time. Timed from its arrival, a request sent beside another could reach the
 * fake after that one's answer moved the clock on (a busy machine, CI), and take twice the service's
 * time: the poll's timing would depend on the machine. The time is read as Node opens the request's
 * connection, within http.request, before any timer can run (n8n opens one per request); a request
 * on a connection used before is timed when its headers are written.
 *
 * Requests are told apart by method, path and query; those alike are taken in the order sent. An
 * entry lives from its request's start to its arrival at a fake that takes it (sentTimesOf): every
 * request of a test file that uses this goes to its fakes.
 */
const sentTimes = new Map<string, number[]>();
const socketOpenedAt = new WeakMap<Socket, number>();
subscribe('net.client.socket', (message) => {
	socketOpenedAt.set((message as { socket: Socket }).socket, Date.now());
});
subscribe('http.client.request.start', (message) => {
	const { request } = message as { request: ClientRequest };
	const openedAt = request.socket && socketOpenedAt.get(request.socket);
	if (request.socket) socketOpenedAt.delete(request.socket);
	const key = `${request.method} ${request.path}`;
	sentTimes.set(key, [...(sentTimes.get(key) ?? []), openedAt ?? Date.now()]);
});

function takeSentTime(request: FakeRequest): number {
	const key = `${request.method} ${request.path}${request.rawQuery ? `?${request.rawQuery}` : ''}`;
	const times = sentTimes.get(key) ?? [];
	const sent = times.shift();
	if (times.length === 0) sentTimes.delete(key);
	return sent ?? Date.now();
}

/** When the request `fake` received last was sent: read it in a hold's `released`, as it arrives. */
export function sentTimesOf(fake: FakeWootric): () => number {
	let lastSentAt = Date.now();
	fake.arrivalHooks.push((request) => (lastSentAt = takeSentTime(request)));
	return () => lastSentAt;
}
