/**
 * Changes to maps that can be undone back to a mark: a poll decides a page's events record by
 * record, changing what it holds (responses waiting for their comment, …), and undoes the records
 * whose end users it could not read in its time, which the next poll reads again.
 *
 * Invariant: undoing to a mark leaves every map logged since as it was at the mark. Bound: the
 * changes since the last `clear`, which the poll calls at each page (at most three per record).
 */
export class UndoLog {
	private readonly undos: Array<() => void> = [];

	set<K, V>(map: Map<K, V>, key: K, value: V): void {
		this.remember(map, key);
		map.set(key, value);
	}

	delete<K, V>(map: Map<K, V>, key: K): void {
		this.remember(map, key);
		map.delete(key);
	}

	mark(): number {
		return this.undos.length;
	}

	undoTo(mark: number): void {
		while (this.undos.length > mark) this.undos.pop()!();
	}

	clear(): void {
		this.undos.length = 0;
	}

	private remember<K, V>(map: Map<K, V>, key: K): void {
		const had = map.has(key);
		const before = map.get(key) as V;
		this.undos.push(() => (had ? map.set(key, before) : map.delete(key)));
	}
}
