/**
 * How much of the randomized models and the slow reproductions a run takes. `npm test` is a
 * contributor's few minutes: each model at a tenth of its schedules, the slow reproductions
 * skipped. `.ci/run` sets TEST_SIZE=full: every model at its full size, every reproduction. A
 * model's own variable (TRIGGER_MODEL_SCHEDULES, WEBHOOK_MODEL_SCHEDULES, RELIABILITY_SCHEDULES,
 * MALFORMED_SEEDS) sets its size whatever TEST_SIZE says; a model that fails prints the command that replays it.
 */
export const FULL_SIZE = process.env.TEST_SIZE === 'full';

/** A model's number of schedules: its variable's, else `full` at full size, else a tenth. */
export function schedulesOf(variable: string, full: number): number {
	const chosen = process.env[variable];
	if (chosen !== undefined && chosen !== '') return Number(chosen);
	return FULL_SIZE ? full : Math.ceil(full / 10);
}

/** A test that runs at full size only (`TEST_SIZE=full`, as `.ci/run` runs them). */
export const itAtFullSize: jest.It = FULL_SIZE ? it : it.skip;

/**
 * The command that runs one model's test file from the first seed given, `schedules` of them (1:
 * that seed alone; more: from it on).
 */
export function replayCommand(
	testFile: string,
	firstSeedVariable: string,
	schedulesVariable: string,
	seed: number,
	schedules = 1,
): string {
	return `${firstSeedVariable}=${seed} ${schedulesVariable}=${schedules} npx jest ${testFile}`;
}
