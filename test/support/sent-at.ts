import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';

import type { FakeWootric } from '../fake';
import type { FakeRequest } from '../fake/http';

/**
 * When a request the fake received was sent, on the test's clock (Date), for answers held for a
 * span of the service's time. Timed from its arrival, a request sent beside another could reach the
 * fake after that one's answer moved the clock on (a busy machine, CI), and take twice the service's
 * time: the poll's timing would depend on the machine. Node reports a request's start before any
 * timer runs, so the time read then is the one it was sent at.
 *
 * Requests are told apart by method, path and query; those alike are taken in the order sent. An
 * entry lives from its request's start to its arrival at a fake that takes it (sentTimesOf): every
 * request of a test file that uses this goes to its fakes.
 */
const sentTimes = new Map<string, number[]>();
subscribe('http.client.request.start', (message) => {
	const { request } = message as { request: ClientRequest };
	const key = `${request.method} ${request.path}`;
	sentTimes.set(key, [...(sentTimes.get(key) ?? []), Date.now()]);
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
