'use strict';
// Preloaded into n8n (NODE_OPTIONS=--require) by the e2e harness: records every TCP connection n8n
// opens to a host other than this machine, one JSON line each in $OUTBOUND_GUARD_LOG, so the tests
// can assert that the headless setup makes no outbound calls. It only records; it does not change
// what n8n does. Plain JavaScript because n8n (Node 24) loads it directly, outside the TypeScript
// build.
const { appendFileSync } = require('node:fs');
const net = require('node:net');

const logFile = process.env.OUTBOUND_GUARD_LOG;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '0.0.0.0', '::', '']);

function isLocal(host) {
	const name = String(host ?? '')
		.replace(/^\[|\]$/g, '')
		.toLowerCase();
	return LOCAL_HOSTS.has(name) || name.startsWith('127.') || name.endsWith('.localhost');
}

/**
 * Host and port of the argument forms Socket#connect takes: (options[, cb]), (port[, host][, cb]),
 * (path[, cb]).
 */
function target(args) {
	const [first, second] = Array.isArray(args[0]) ? args[0] : args;
	if (first !== null && typeof first === 'object')
		return first.path ? undefined : { host: first.host ?? 'localhost', port: first.port };
	if (typeof first === 'string' && !/^\d+$/.test(first)) return undefined; // a Unix socket path
	return { host: typeof second === 'string' ? second : 'localhost', port: first };
}

if (logFile) {
	const connect = net.Socket.prototype.connect;
	net.Socket.prototype.connect = function guardedConnect(...args) {
		const destination = target(args);
		if (destination && !isLocal(destination.host)) {
			const stack = new Error().stack
				.split('\n')
				.slice(2, 8)
				.map((line) => line.trim());
			appendFileSync(
				logFile,
				`${JSON.stringify({ pid: process.pid, at: new Date().toISOString(), ...destination, stack })}\n`,
			);
		}
		return connect.apply(this, args);
	};
}
