/**
 * Prints the plain closing line CI reads: "N passed, N failed" (jest's own summary is not read
 * there).
 */
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		process.stdout.write(
			`\n${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
		);
	}
}

module.exports = SummaryReporter;
