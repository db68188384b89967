/**
 * `npm run test:e2e:durable`: the Wootric Trigger on n8n's durable poller (test/e2e-durable), in one
 * process (SQLite) and in queue mode (PostgreSQL, Redis, a main and a worker); n8n 2.x only. The two
 * run side by side: each waits most of its time on n8n's schedule (polls at second 0, a rate limit's
 * reset, leases), and their checks allow seconds, not milliseconds.
 * @type {import('jest').Config}
 */
module.exports = {
	...require('./jest.e2e.config.js'),
	roots: ['<rootDir>/test/e2e-durable'],
	maxWorkers: 2,
};
