import type { FakeToolServer } from '../../scripts/e2e/tools/fake-server';

/** An answer of a fake: its status and its JSON body. */
export interface Answer<Body = Record<string, unknown>> {
	status: number;
	body: Body;
}

/**
 * One request to a fake over real HTTP. A body that is an object goes as JSON unless a content
 * type says otherwise; a string goes as it is.
 */
export async function send<Body = Record<string, unknown>>(
	url: string,
	options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer<Body>> {
	const headers = { ...options.headers };
	const body =
		options.body === undefined || typeof options.body === 'string'
			? options.body
			: JSON.stringify(options.body);
	if (typeof options.body === 'object') headers['content-type'] ??= 'application/json';
	const answer = await fetch(url, { method: options.method ?? 'GET', headers, body });
	return { status: answer.status, body: (await answer.json()) as Body };
}

export function basic(user: string, password: string): string {
	return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** Starts the fake `make` returns before each test of the file, and closes it after the test. */
export function eachTest(make: () => FakeToolServer): void {
	let fake: FakeToolServer;
	beforeEach(async () => {
		fake = make();
		await fake.listen();
	});
	afterEach(async () => await fake.close());
}
