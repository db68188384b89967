import { writeFileSync } from 'node:fs';

/** What the live check and the webhook analysis share: their lines, report and exit codes. */

export type Verdict = 'confirmed' | 'differs' | 'not seen';

/** One line of a report: an endpoint or an open fact, and what was found. */
export interface Line {
	subject: string;
	verdict: Verdict;
	details: string[];
}

/** The lines as printed, one each. */
export function reportLines(lines: Line[]): string[] {
	return lines.map(
		({ subject, verdict, details }) =>
			`${verdict.padEnd(10)} ${subject}${details.length > 0 ? `: ${details.join('; ')}` : ''}`,
	);
}

/** The value after `--name` on the command line. */
export function optionOf(argv: string[], name: string): string | undefined {
	const index = argv.indexOf(name);
	return index === -1 ? undefined : argv[index + 1];
}

/**
 * Prints the lines, writes `report` as JSON to `file`, says how many differ from `reference`;
 * the exit code: 1 when something differs.
 */
export function finishReport(
	lines: Line[],
	report: object,
	file: string,
	reference: string,
): number {
	for (const line of reportLines(lines)) console.log(line);
	writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
	const differing = lines.filter(({ verdict }) => verdict === 'differs').length;
	console.log(
		`\n${differing === 0 ? 'No difference' : `${differing} difference(s)`} from ${reference}; the report: ${file}`,
	);
	return differing === 0 ? 0 : 1;
}

/** Runs a command's `main`; exits with its code, or 2 when it could not run. */
export function runCommand(name: string, main: (argv: string[]) => Promise<number>): void {
	main(process.argv.slice(2)).then(
		(code) => process.exit(code),
		(error: unknown) => {
			console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
			process.exit(2);
		},
	);
}
