import { FakeWootric } from '../fake';
import { shownToUsers } from '../harness/shown';

/**
 * Runs after every test file: no password, client secret, webhook secret, access token or refresh
 * token of any fake API the file started appears in anything a run showed (output items, errors and
 * their descriptions, credential tests, dropdowns, webhook answers) or in what was logged.
 */
const logged: string[] = [];
for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
	const original = console[level].bind(console);
	console[level] = (...args: unknown[]) => {
		logged.push(
			args
				.map((arg) => (typeof arg === 'string' ? arg : (JSON.stringify(arg) ?? String(arg))))
				.join(' '),
		);
		original(...args);
	};
}

afterAll(() => {
	const shown = [...shownToUsers, ...logged].join('\n');
	const secrets = FakeWootric.started.flatMap((fake) => [
		fake.credentials.password,
		fake.credentials.clientSecret,
		fake.credentials.webhookSecret,
		...fake.store.issuedTokens,
	]);
	const leaked = secrets.filter((secret) => shown.includes(secret));
	expect(leaked).toEqual([]);
});
