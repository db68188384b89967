/**
 * `npm run test:e2e`: this package in a real n8n (test/e2e). One suite shares one n8n, started in
 * beforeAll: provisioning takes about 5 minutes on a cold cache, a warm run about 2.
 * @type {import('jest').Config}
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	transform: { '^.+\\.ts$': 'ts-jest' },
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
	testTimeout: 120000,
	// One n8n at a time: suites would otherwise start several, and compete for the cache being
	// provisioned.
	maxWorkers: 1,
};
