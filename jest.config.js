// The suites whose outcome depends on real timing: their fake service holds each answer some
// milliseconds of real time, so that requests sent together arrive before an answer moves the clock
// on. TEST_REAL_TIME=later leaves them out, for .ci/run to run them alone once nothing else runs on the
// machine (beside its background install, one failed there).
const realTimeSuites = ['<rootDir>/test/integration/trigger-liveness'];

/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	// The tests against a real n8n have their own config (jest.e2e.config.js, `npm run test:e2e`).
	testPathIgnorePatterns: [
		'/node_modules/',
		'<rootDir>/test/e2e/',
		'<rootDir>/test/e2e-queue/',
		'<rootDir>/test/e2e-browser/',
		'<rootDir>/test/e2e-durable/',
		'<rootDir>/test/e2e-tickets/',
		...(process.env.TEST_REAL_TIME === 'later' ? realTimeSuites : []),
	],
	// tsconfig's isolatedModules makes ts-jest transpile only: type checking is `npm run typecheck`'s
	// job.
	transform: { '^.+\\.ts$': 'ts-jest' },
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
	// Checks after each test file that no secret was shown or logged.
	setupFilesAfterEnv: ['<rootDir>/test/support/secret-guard.ts'],
	testTimeout: 20000,
	// One worker per core (jest's default leaves one core to itself: on two, one worker). Most of a
	// test file's time is waiting on its fake's sockets and timers, not the CPU.
	maxWorkers: '100%',
};
