import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readCsv, writeCsv } from './rfc4180';
import { isEmailAddress } from './validation';

/**
 * Survey CSVs as /v1/email_survey_csv takes them: a header row, `email` first, then
 * `___context:<var>` columns, an optional `language` column and custom property columns. Rows are
 * counted after the header: row 1 is the first address.
 */
export interface SurveyCsv {
	header: string[];
	rows: string[][];
}

export const LANGUAGE_COLUMN = 'language';
export const CONTEXT_PREFIX = '___context:';
/** The most rows /v1/email_survey_csv takes in one file. */
const MAX_CSV_ROWS = 5000;
/** How many offending rows an error lists before it says "and N more". */
const LISTED = 10;

function csvError(
	context: IExecuteFunctions,
	itemIndex: number,
	source: string,
	problem: string,
): NodeOperationError {
	return new NodeOperationError(context.getNode(), `The survey CSV ${source} ${problem}`, {
		itemIndex,
	});
}

function listRows(rows: number[], describe?: (row: number) => string): string {
	const shown = rows.slice(0, LISTED).map((row) => (describe ? describe(row) : `row ${row}`));
	return shown.join(', ') + (rows.length > LISTED ? ` and ${rows.length - LISTED} more` : '');
}

/** Reads and checks a CSV: defects are errors naming the rows, before anything is sent. */
export function parseSurveyCsv(
	context: IExecuteFunctions,
	itemIndex: number,
	text: string,
	source: string,
): SurveyCsv {
	const fail = (problem: string) => csvError(context, itemIndex, source, problem);
	const reading = readCsv(text, LISTED);
	if (reading.errorCount > 0) {
		const problems = reading.errors.map(
			({ record, line, problem }) =>
				`${problem} at ${record === 0 ? 'the header' : `row ${record}`} (line ${line})`,
		);
		const more = reading.errorCount - reading.errors.length;
		throw fail(`cannot be read: ${problems.join('; ')}${more > 0 ? ` and ${more} more` : ''}`);
	}
	const [header, ...rows] = reading.records;
	if (!header)
		throw fail('is empty: it needs a header row starting with "email", and one row per address');
	const names = header.map((name) => name.trim());
	if (names[0] !== 'email')
		throw fail(`must have "email" as its first column (the header starts with "${names[0]}")`);
	const duplicate = names.find((name, index) => names.indexOf(name) !== index);
	if (duplicate !== undefined) throw fail(`has the column "${duplicate}" twice`);
	const badContext = names.find(
		(name) => name.startsWith(CONTEXT_PREFIX) && !/^\w+$/.test(name.slice(CONTEXT_PREFIX.length)),
	);
	if (badContext !== undefined)
		throw fail(
			`has the column "${badContext}": a context variable's name may hold only letters, digits and _`,
		);
	if (names.some((name) => name === '')) throw fail('has a column without a name');
	if (rows.length === 0) throw fail('has a header but no rows');

	const ragged = rows.flatMap((cells, index) => (cells.length === names.length ? [] : [index + 1]));
	if (ragged.length > 0) {
		throw fail(
			`has rows whose number of cells differs from the header's ${names.length}: ${listRows(ragged, (row) => `row ${row} (${rows[row - 1].length})`)}`,
		);
	}
	const badEmails = rows.flatMap((cells, index) =>
		isEmailAddress(cells[0].trim()) ? [] : [index + 1],
	);
	if (badEmails.length > 0) {
		throw fail(
			`has invalid email addresses: ${listRows(badEmails, (row) => `row ${row} ("${rows[row - 1][0]}")`)}`,
		);
	}
	return { header: names, rows: rows.map((cells) => [cells[0].trim(), ...cells.slice(1)]) };
}

/** The language codes the CSV uses, with the rows of each, when it has a language column. */
export function languagesUsed(csv: SurveyCsv): Map<string, number[]> | undefined {
	const column = csv.header.indexOf(LANGUAGE_COLUMN);
	if (column === -1) return undefined;
	const used = new Map<string, number[]>();
	csv.rows.forEach((cells, index) => {
		const rows = used.get(cells[column]);
		if (rows) rows.push(index + 1);
		else used.set(cells[column], [index + 1]);
	});
	return used;
}

/** Context variables the CSV defines (`___context:name` → name). */
export function contextVariables(csv: SurveyCsv): string[] {
	return csv.header
		.filter((name) => name.startsWith(CONTEXT_PREFIX))
		.map((name) => name.slice(CONTEXT_PREFIX.length));
}

export interface CsvChunk {
	/** Rows carried, counted after the header, inclusive. */
	fromRow: number;
	toRow: number;
	text: string;
}

/** A CSV as the service reads one: the header, then the rows, CRLF line ends, quoted where needed. */
export function csvText(header: string[], rows: string[][]): string {
	return writeCsv([header, ...rows]);
}

/** The rows from `startAtRow` on, as CSVs of at most 5,000 rows, each with the header. */
export function csvChunks(csv: SurveyCsv, startAtRow = 1): CsvChunk[] {
	const chunks: CsvChunk[] = [];
	for (let from = startAtRow; from <= csv.rows.length; from += MAX_CSV_ROWS) {
		const rows = csv.rows.slice(from - 1, from - 1 + MAX_CSV_ROWS);
		chunks.push({
			fromRow: from,
			toRow: from + rows.length - 1,
			text: csvText(csv.header, rows),
		});
	}
	return chunks;
}
