/**
 * `npm run test:e2e:queue`: this package in n8n's queue mode (test/e2e-queue): PostgreSQL, Redis, a main and
 * two workers, started by the suite on 127.0.0.1 and stopped at its end. About 10 minutes with a warm cache.
 * @type {import('jest').Config}
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e-queue'],
	transform: { '^.+\\.ts$': 'ts-jest' },
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
	testTimeout: 120000,
	maxWorkers: 1,
};
