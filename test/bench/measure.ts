import { cpus, release, totalmem, type } from 'node:os';

export interface MachineFacts {
	cpu: string;
	cores: number;
	memoryGiB: number;
	os: string;
	node: string;
	date: string;
}

export function machineFacts(): MachineFacts {
	const processors = cpus();
	return {
		cpu: processors[0]?.model.trim() ?? 'unknown',
		cores: processors.length,
		memoryGiB: Math.round(totalmem() / 2 ** 30),
		os: `${type()} ${release()}`,
		node: process.version,
		date: new Date().toISOString(),
	};
}

/**
 * How far the heap and the resident set grew, at their peaks during a run, over just before it (in
 * MiB).
 */
export interface MemoryGrowth {
	heapMiB: number;
	rssMiB: number;
}

export const MiB = 2 ** 20;
/** How often memory is sampled during a run. */
const SAMPLE_EVERY_MS = 5;

/**
 * A full collection before a run, when node runs with --expose-gc (`npm run bench` does), so growth
 * starts from live data only.
 */
export function collectGarbage(): void {
	globalThis.gc?.();
}

/**
 * Runs `work` once: its wall time. No collection first: n8n does not collect before an execution,
 * and a forced one slows the run after it.
 */
export async function time<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
	const start = performance.now();
	const result = await work();
	return { ms: performance.now() - start, result };
}

/**
 * Runs `work` once after a full collection: its peak heap and RSS growth, sampled every few
 * milliseconds.
 */
export async function measureMemory<T>(work: () => Promise<T>): Promise<MemoryGrowth> {
	collectGarbage();
	const before = process.memoryUsage();
	const peak = { heapUsed: before.heapUsed, rss: before.rss };
	const sample = () => {
		const now = process.memoryUsage();
		peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
		peak.rss = Math.max(peak.rss, now.rss);
	};
	const sampler = setInterval(sample, SAMPLE_EVERY_MS);
	try {
		await work();
		sample();
		return {
			heapMiB: (peak.heapUsed - before.heapUsed) / MiB,
			rssMiB: (peak.rss - before.rss) / MiB,
		};
	} finally {
		clearInterval(sampler);
	}
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const formatMs = (ms: number) =>
	ms >= 10_000
		? `${(ms / 1000).toFixed(1)} s`
		: ms >= 100
			? `${Math.round(ms)} ms`
			: `${ms.toFixed(1)} ms`;
export const formatMiB = (mib: number) => `${mib >= 10 ? Math.round(mib) : mib.toFixed(1)} MiB`;
export const formatCount = (count: number) => count.toLocaleString('en-US');
