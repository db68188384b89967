/**
 * CSV as RFC 4180 writes it, read and written without a dependency (n8n's verification allows none).
 *
 * Reading: cells separated by commas, records by CR, LF or CRLF (each anywhere in one file); a cell
 * that starts with a quote is quoted: it runs to the next quote not doubled, holds commas and line
 * breaks as they are, and `""` stands for one quote. After the closing quote only whitespace may come
 * before the next comma or line end. A quote anywhere else is an error, as is a quoted cell never
 * closed. A record whose cells hold nothing but whitespace is skipped (blank lines, `,,`). A leading
 * byte-order mark is dropped. Checked against papaparse, the reference, by
 * test/unit/rfc4180-differential.test.ts, which names where this reader deliberately differs.
 */

/** Something that makes a CSV unreadable, where it is. */
export interface CsvSyntaxError {
	/** The record it is in, counted from 0 among the records kept (0 is a header, if there is one). */
	record: number;
	/** The line of the file that record starts on, from 1. */
	line: number;
	problem: string;
}

export interface CsvReading {
	records: string[][];
	/** The first `keptErrors` (readCsv's); `errorCount` counts them all. */
	errors: CsvSyntaxError[];
	errorCount: number;
}

const QUOTE = 34;
const COMMA = 44;
const CR = 13;
const LF = 10;

/** An unquoted cell's text: up to a comma, a line end or a quote. */
const UNQUOTED = /[^,"\r\n]*/y;
/** The rest of a malformed cell: up to a comma or a line end. */
const REST_OF_CELL = /[^,\r\n]*/y;
/** What may stand between a closing quote and the comma or line end (String.prototype.trim's set). */
const AFTER_CLOSING_QUOTE = /[^\S\r\n]*/y;

function isBlank(cells: string[]): boolean {
	return cells.every((cell) => cell === '' || cell.trim() === '');
}

/**
 * Reads a whole CSV; errors are collected, the first `keptErrors` with their place (each costs a
 * count of the lines before it), and the records read around them kept.
 */
export function readCsv(input: string, keptErrors = 10): CsvReading {
	const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
	const records: string[][] = [];
	const errors: CsvSyntaxError[] = [];
	let errorCount = 0;
	let cells: string[] = [];
	let recordStart = 0;
	let pos = 0;

	const fail = (problem: string) => {
		errorCount++;
		if (errors.length < keptErrors)
			errors.push({ record: records.length, line: lineAt(text, recordStart), problem });
	};
	const endRecord = () => {
		if (!isBlank(cells)) records.push(cells);
		cells = [];
	};
	/** Past the comma or line end at `pos`, ending the cell; false at the end of the text. */
	const afterCell = (): boolean => {
		const code = text.charCodeAt(pos);
		if (code === COMMA) {
			pos++;
			return true;
		}
		endRecord();
		if (pos >= text.length) return false;
		pos += code === CR && text.charCodeAt(pos + 1) === LF ? 2 : 1;
		recordStart = pos;
		// A line end at the very end of the text ends the last record; no empty one follows it.
		return pos < text.length;
	};

	for (;;) {
		if (text.charCodeAt(pos) === QUOTE) {
			const opened = pos + 1;
			let closing = text.indexOf('"', opened);
			while (closing !== -1 && text.charCodeAt(closing + 1) === QUOTE)
				closing = text.indexOf('"', closing + 2);
			if (closing === -1) {
				fail('quoted field unterminated');
				cells.push(text.slice(opened).replaceAll('""', '"'));
				endRecord();
				break;
			}
			let cell = text.slice(opened, closing);
			if (cell.includes('""')) cell = cell.replaceAll('""', '"');
			AFTER_CLOSING_QUOTE.lastIndex = closing + 1;
			AFTER_CLOSING_QUOTE.test(text);
			pos = AFTER_CLOSING_QUOTE.lastIndex;
			const next = text.charCodeAt(pos);
			if (pos < text.length && next !== COMMA && next !== CR && next !== LF) {
				fail('text after the closing quote of a quoted field');
				REST_OF_CELL.lastIndex = closing + 1;
				REST_OF_CELL.test(text);
				cell += text.slice(closing + 1, REST_OF_CELL.lastIndex);
				pos = REST_OF_CELL.lastIndex;
			} else if (pos === text.length && pos > closing + 1) {
				// Whitespace after the closing quote at the end of the text: malformed to papaparse too.
				fail('text after the closing quote of a quoted field');
			}
			cells.push(cell);
		} else {
			UNQUOTED.lastIndex = pos;
			UNQUOTED.test(text);
			let end = UNQUOTED.lastIndex;
			if (text.charCodeAt(end) === QUOTE) {
				fail('a quote inside an unquoted field (quote the whole cell, and double the quote)');
				REST_OF_CELL.lastIndex = end;
				REST_OF_CELL.test(text);
				end = REST_OF_CELL.lastIndex;
			}
			cells.push(text.slice(pos, end));
			pos = end;
		}
		if (!afterCell()) break;
	}
	return { records, errors, errorCount };
}

/** The line `offset` is on, from 1: CR, LF and CRLF each end one, quoted or not. */
function lineAt(text: string, offset: number): number {
	let line = 1;
	for (let at = 0; at < offset; at++) {
		const code = text.charCodeAt(at);
		if (code === LF || (code === CR && text.charCodeAt(at + 1) !== LF)) line++;
	}
	return line;
}

/** A cell as RFC 4180 writes it: quoted when it holds a quote, comma, line break, byte-order mark or edge space. */
function cellText(cell: string): string {
	const quoted = /[",\r\n\uFEFF]/.test(cell) || cell.startsWith(' ') || cell.endsWith(' ');
	return quoted ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** Records as a CSV with CRLF between them, quoted where needed; no line end after the last. */
export function writeCsv(records: string[][]): string {
	return records.map((cells) => cells.map(cellText).join(',')).join('\r\n');
}
