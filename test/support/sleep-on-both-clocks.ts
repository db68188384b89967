/**
 * n8n-workflow with its sleep, which the transport waits with (a rate limit's reset, a retry's
 * back-off), passing the time on both clocks (the fake's follows Date); sleeps at once overlap. For a
 * test file's `jest.mock('n8n-workflow', () => jest.requireActual<Sleeping>(…).n8n())`, whose
 * factory may only require.
 */
export function n8n(): typeof import('n8n-workflow') {
	const actual = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
	return {
		...actual,
		sleep: async (ms: number) => {
			const until = Date.now() + ms;
			await actual.sleep(10);
			jest.setSystemTime(Math.max(Date.now(), until));
		},
	};
}

/** This module, as a test file's mock factory requires it. */
export interface Sleeping {
	n8n: typeof n8n;
}
