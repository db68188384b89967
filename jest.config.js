/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	// Type checking is `npm run typecheck`'s job; transpiling only keeps the suite fast.
	transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true }] },
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
	testTimeout: 20000,
};
