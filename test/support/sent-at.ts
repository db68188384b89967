import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';

import type { FakeWootric } from '../fake';

/**
 * When a request the fake received was sent, on the test's clock (Date), for answers held for a
 * span of the service's time. Timed from its arrival, a request sent beside another could reach the
 * fake after that one's answer moved the clock on (a busy machine, CI), and take twice the service's
 * time: the poll's timing would depend on the machine.
 *
 * The time is read as Node opens the request's connection, within http.request, before any timer can
 * run (n8n opens one per request); a request on a connection used before is timed when its headers
 * are written. It is kept under the connection's local port, which the fake sees as the request's
 * client port: two requests alike, of two polls at once, are told apart by their connections, not by
 * their order. State: one time per open client connection, taken when its request arrives.
 */
const sentAtByPort = new Map<number, number>();
const usedSockets = new WeakSet<Socket>();
subscribe('net.client.socket', (message) => {
	const { socket } = message as { socket: Socket };
	const openedAt = Date.now();
	socket.once('connect', () => {
		if (socket.localPort !== undefined) sentAtByPort.set(socket.localPort, openedAt);
	});
});
subscribe('http.client.request.start', (message) => {
	const { socket } = (message as { request: ClientRequest }).request;
	if (!socket) return;
	if (usedSockets.has(socket) && socket.localPort !== undefined)
		sentAtByPort.set(socket.localPort, Date.now());
	usedSockets.add(socket);
});

function takeSentTime(clientPort: number | undefined): number {
	const sent = clientPort === undefined ? undefined : sentAtByPort.get(clientPort);
	if (clientPort !== undefined) sentAtByPort.delete(clientPort);
	return sent ?? Date.now();
}

/** When the request `fake` received last was sent: read it in a hold's `released`, as it arrives. */
export function sentTimesOf(fake: FakeWootric): () => number {
	let lastSentAt = Date.now();
	fake.arrivalHooks.push((_request, clientPort) => (lastSentAt = takeSentTime(clientPort)));
	return () => lastSentAt;
}
