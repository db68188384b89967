/**
 * `npm run test:e2e:queue`: this package in n8n's queue mode (test/e2e-queue): PostgreSQL, Redis, a
 * main, two workers and an `n8n webhook` process, started by the suite on 127.0.0.1 and stopped at
 * its end. About 10 minutes
 * with a warm cache.
 * @type {import('jest').Config}
 */
module.exports = { ...require('./jest.e2e.config.js'), roots: ['<rootDir>/test/e2e-queue'] };
