import { FakeWootric, startFakeWootric } from '../fake';
import type { BenchTls } from './tls';

/** How the fake is reached: over HTTPS or plain HTTP, and how late it answers. */
export interface Network {
	tls?: BenchTls;
	latencyMs?: number;
}

/** "HTTPS, each answer 80 ms late", or nothing for plain HTTP answered at once. */
export function networkLabel({ tls, latencyMs }: Network): string {
	const parts = [tls ? 'HTTPS' : '', latencyMs ? `each answer ${latencyMs} ms late` : ''].filter(
		Boolean,
	);
	return parts.length > 0 ? `, ${parts.join(', ')}` : '';
}

/**
 * A fake for one benchmark, closed and let go of afterwards (the secret guard's list of fakes would
 * keep it).
 */
export async function withFake<T>(
	use: (fake: FakeWootric) => Promise<T>,
	network: Network = {},
): Promise<T> {
	const fake = await startFakeWootric({ tls: network.tls });
	fake.latencyMs = network.latencyMs ?? 0;
	try {
		return await use(fake);
	} finally {
		await fake.close();
		FakeWootric.started.splice(FakeWootric.started.indexOf(fake), 1);
	}
}
