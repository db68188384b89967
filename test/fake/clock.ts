/**
 * Real time plus an adjustable offset, so tests can jump ahead (token expiry, deletion runs) while
 * time still flows.
 */
export class FakeClock {
	private offsetMs = 0;

	nowMs(): number {
		return Date.now() + this.offsetMs;
	}

	/** UNIX seconds, the unit of every timestamp the service stores. */
	now(): number {
		return Math.floor(this.nowMs() / 1000);
	}

	advance(seconds: number): void {
		this.offsetMs += seconds * 1000;
	}

	set(unixSeconds: number): void {
		this.offsetMs = unixSeconds * 1000 - Date.now();
	}
}
