/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	// tsconfig's isolatedModules makes ts-jest transpile only: type checking is `npm run typecheck`'s job.
	transform: { '^.+\\.ts$': 'ts-jest' },
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
	testTimeout: 20000,
};
