/**
 * A small seeded generator (mulberry32), so a failing randomized schedule can be replayed by its
 * seed.
 */
export function seededRandom(seed: number) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return {
		next,
		int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
		chance: (probability: number) => next() < probability,
		pick: <T>(values: readonly T[]) => values[Math.floor(next() * values.length)],
	};
}
