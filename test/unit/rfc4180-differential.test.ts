import Papa from 'papaparse';

import { readCsv, writeCsv } from '../../nodes/Wootric/helpers/rfc4180';
import { seededRandom } from '../support/seeded-random';
import { replayCommand, schedulesOf } from '../support/test-size';

/**
 * The package's CSV reader and writer (nodes/Wootric/helpers/rfc4180.ts) against papaparse, the
 * reference they replaced, read as the node read CSVs before (`delimiter: ','`, `skipEmptyLines:
 * 'greedy'`, a leading byte-order mark dropped): generated CSVs, each from records the generator
 * knows, written with one line end throughout or mixed, with blank lines, a byte-order mark and
 * trailing line ends; some with a defect planted, some mutated at random. What holds:
 * - a CSV papaparse reads cleanly we read to the same records, and to the records it was made from;
 * - where papaparse reports an error, so do we;
 * - our writer's output reads back to the same records in both, and is byte for byte what
 *   papaparse's `unparse` writes (the files the service gets did not change).
 * Where we deliberately differ (docs/operations.md, Email Survey → Send From CSV), named below:
 * - MIXED_LINE_ENDS: papaparse takes one line end for a whole file, guessed from its start, and keeps
 *   the others as text in a cell; we take CR, LF and CRLF wherever they stand.
 * - QUOTE_IN_UNQUOTED_CELL: papaparse keeps a quote inside an unquoted cell (`5'11" tall`) as text;
 *   RFC 4180 does not allow one, and we refuse it, naming the row, since such a file is most often
 *   one whose quoting went wrong.
 * - SECOND_BYTE_ORDER_MARK: papaparse drops a leading mark itself, so the node dropped two before; we
 *   drop one and read a second as the first cell's text (the header's names are trimmed, which drops
 *   it again: a survey reads the same).
 */
const CASES = schedulesOf('CSV_DIFFERENTIAL_CASES', 10_000);
const FIRST_SEED = Number(process.env.CSV_DIFFERENTIAL_SEED ?? 1);

type Random = ReturnType<typeof seededRandom>;
type Defect = 'unterminatedQuote' | 'quoteInUnquotedCell' | 'textAfterClosingQuote';

interface GeneratedCsv {
	text: string;
	/** The records it was made from, blank ones left out as a reading skips them. */
	records: string[][];
	mixedLineEnds: boolean;
	/** The defect planted, in which kept record, on which line that record starts. */
	defect?: { kind: Defect; record: number; line: number };
}

const LINE_ENDS = ['\n', '\r\n', '\r'];

/** A cell's text; `lineBreak` gives the line breaks in it. */
function cell(random: Random, lineBreak: () => string): string {
	switch (random.int(0, 13)) {
		case 0:
			return '';
		case 1:
			return random.pick([' ', '\t', '  ', '\u00a0']);
		case 2:
			return `${word(random)}, ${word(random)}`;
		case 3:
			return `says "${word(random)}"`;
		case 4:
			return `${word(random)}${lineBreak()}${word(random)}`;
		case 5:
			return random.pick(['é', '日本語', '🙂 ok', 'a\u0301', 'x\u2028y', 'Ünïcödé', '\u00a0nbsp']);
		case 6:
			return ` ${word(random)} `;
		case 7:
			return '"';
		case 8:
			// A huge cell, now and then: commas, quotes and line breaks in a long text.
			return random.chance(0.02)
				? Array.from({ length: random.int(2_000, 20_000) }, () =>
						random.pick(['lorem ', 'ipsum, ', '"q" ', lineBreak(), 'dolor ']),
					).join('')
				: word(random);
		case 9:
			return `${random.int(0, 99999)}`;
		case 10:
			return `${word(random)}@example.com`;
		case 11:
			return random.pick(['=SUM(A1)', '#', "'", '\\', '\ufeffmark', 'tab\there']);
		default:
			return word(random);
	}
}

function word(random: Random): string {
	return Array.from({ length: random.int(1, 8) }, () =>
		random.pick('abcdefghijklmnopqrstuvwxyz0123456789._-'.split('')),
	).join('');
}

/**
 * A cell as written into the file: quoted where it must be, and now and then where it need not be.
 * Before a comma, whitespace may follow the closing quote: both read it as nothing.
 */
function written(
	random: Random,
	value: string,
	place: { firstOfFile: boolean; beforeComma: boolean },
): string {
	const mustQuote = /[",\r\n]/.test(value) || (place.firstOfFile && value.startsWith('\ufeff'));
	if (!mustQuote && !random.chance(0.2)) return value;
	const after = place.beforeComma && random.chance(0.05) ? random.pick([' ', '\t', '  ']) : '';
	return `"${value.replaceAll('"', '""')}"${after}`;
}

const isBlank = (record: string[]) => record.join('').trim() === '';
const linesBefore = (text: string) => (text.match(/\r\n|\r|\n/g) ?? []).length;

/**
 * A CSV and the records it was made from. Its line ends are one of CR, LF, CRLF throughout, or now
 * and then mixed; the line breaks inside quoted cells are any of them, or with `uniform` the file's.
 */
function generate(random: Random, uniform = false): GeneratedCsv & { lineEnd: string } {
	const mixedLineEnds = !uniform && random.chance(0.1);
	const fileLineEnd = random.pick(LINE_ENDS);
	const lineEnd = () => (mixedLineEnds ? random.pick(LINE_ENDS) : fileLineEnd);
	const lineBreak = uniform ? () => fileLineEnd : () => random.pick(LINE_ENDS);
	const columns = random.int(1, 6);
	const defectKind: Defect | undefined = random.chance(0.15)
		? random.pick(['unterminatedQuote', 'quoteInUnquotedCell', 'textAfterClosingQuote'] as const)
		: undefined;
	let text = random.chance(0.2) ? '\ufeff' : '';
	const records: string[][] = [];
	let defect: GeneratedCsv['defect'];
	const recordCount = random.int(0, 30);
	for (let index = 0; index < recordCount; index++) {
		if (random.chance(0.1)) text += random.pick(['', ',', ' ', ',,', '""']) + lineEnd();
		const width = random.chance(0.1) ? random.int(1, columns + 2) : columns;
		const record = Array.from({ length: width }, () => cell(random, lineBreak));
		const cells = record.map((value, at) =>
			written(random, value, {
				firstOfFile: (text === '' || text === '\ufeff') && at === 0,
				beforeComma: at < width - 1,
			}),
		);
		const last = index === recordCount - 1;
		if (defectKind && !defect && (last || random.chance(0.2)) && !isBlank(record)) {
			defect = { kind: defectKind, record: records.length, line: linesBefore(text) + 1 };
			const at = random.int(0, width - 1);
			if (defectKind === 'quoteInUnquotedCell') cells[at] = `${word(random)}"${word(random)}`;
			if (defectKind === 'textAfterClosingQuote') cells[at] = `"${word(random)}"${word(random)}`;
			if (defectKind === 'unterminatedQuote') {
				// Never closed: the rest of the file is this cell.
				text += [...cells.slice(0, at), `"${word(random)}${lineEnd()}${word(random)}`].join(',');
				records.push(record);
				break;
			}
		}
		text += cells.join(',');
		if (!last || random.chance(0.6)) text += lineEnd();
		if (!isBlank(record)) records.push(record);
	}
	if (!defect && random.chance(0.1)) text += lineEnd();
	return { text, records, mixedLineEnds, defect, lineEnd: fileLineEnd };
}

/** papaparse as Send From CSV read files before this reader. */
function papaparse(text: string): { records: string[][]; clean: boolean } {
	const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
		delimiter: ',',
		skipEmptyLines: 'greedy',
	});
	return { records: parsed.data, clean: parsed.errors.length === 0 };
}

const PROBLEMS: Record<Defect, string> = {
	unterminatedQuote: 'quoted field unterminated',
	quoteInUnquotedCell:
		'a quote inside an unquoted field (quote the whole cell, and double the quote)',
	textAfterClosingQuote: 'text after the closing quote of a quoted field',
};

/** What is wrong with one generated CSV, or undefined. */
function disagreement(generated: GeneratedCsv): string | undefined {
	const ours = readCsv(generated.text);
	const theirs = papaparse(generated.text);
	const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
	if (generated.defect) {
		const { kind, record, line } = generated.defect;
		const first = ours.errors[0];
		if (!first || !same(first, { record, line, problem: PROBLEMS[kind] }))
			return `planted ${kind} at record ${record}, line ${line}; we reported ${JSON.stringify(ours.errors)}`;
		// QUOTE_IN_UNQUOTED_CELL: papaparse reads it as text; every other defect is an error there too,
		// unless MIXED_LINE_ENDS made papaparse read another file.
		if (kind !== 'quoteInUnquotedCell' && !generated.mixedLineEnds && theirs.clean)
			return `papaparse read ${kind} cleanly`;
		return undefined;
	}
	if (ours.errorCount > 0) return `we reported ${JSON.stringify(ours.errors)} in a well-formed CSV`;
	if (!same(ours.records, generated.records)) return 'we read other records than it was made from';
	// MIXED_LINE_ENDS: papaparse is not asked to read these as we do.
	if (generated.mixedLineEnds) return undefined;
	if (!theirs.clean) return 'papaparse reported an error in a well-formed CSV';
	if (!same(theirs.records, ours.records)) return 'papaparse read other records';
	const rewritten = writeCsv(generated.records);
	if (rewritten !== Papa.unparse(generated.records, { newline: '\r\n' }))
		return "our writer's output differs from papaparse's unparse";
	if (!same(readCsv(rewritten).records, generated.records) || readCsv(rewritten).errorCount > 0)
		return "our writer's output does not read back to the same records with our reader";
	if (!same(papaparse(rewritten), { records: generated.records, clean: true }))
		return "our writer's output does not read back to the same records with papaparse";
	return undefined;
}

/** A CSV changed at random: a character dropped, or a quote, comma, space or line end put in. */
function mutated(random: Random, text: string, lineEnd: string): string {
	let result = text;
	for (let change = random.int(1, 3); change > 0; change--) {
		const at = random.int(0, result.length);
		const insert = random.pick(['"', '"', ',', lineEnd, ' ', '""', '']);
		const drop = insert === '' || random.chance(0.3) ? 1 : 0;
		result = result.slice(0, at) + insert + result.slice(at + drop);
	}
	return result;
}

describe('the CSV reader and writer against papaparse', () => {
	it(`agree on ${CASES} generated CSVs, well formed and with a defect planted, each in every way named above`, () => {
		const failures: string[] = [];
		const seen = { defects: new Set<Defect>(), mixed: 0, clean: 0, huge: 0 };
		for (let seed = FIRST_SEED; seed < FIRST_SEED + CASES && failures.length < 5; seed++) {
			const generated = generate(seededRandom(seed));
			if (generated.defect) seen.defects.add(generated.defect.kind);
			else if (generated.mixedLineEnds) seen.mixed++;
			else seen.clean++;
			if (generated.text.length > 100_000) seen.huge++;
			const problem = disagreement(generated);
			if (problem)
				failures.push(
					`seed ${seed}: ${problem}; ${JSON.stringify(generated.text.slice(0, 300))}; replay: ${replayCommand('test/unit/rfc4180-differential.test.ts', 'CSV_DIFFERENTIAL_SEED', 'CSV_DIFFERENTIAL_CASES', seed)}`,
				);
		}
		expect(failures).toEqual([]);
		// The generator reached every kind of case.
		expect([...seen.defects].sort()).toEqual([
			'quoteInUnquotedCell',
			'textAfterClosingQuote',
			'unterminatedQuote',
		]);
		expect(Math.min(seen.mixed, seen.clean, seen.huge)).toBeGreaterThan(0);
	});

	it(`agree on ${CASES} CSVs mutated at random: where papaparse reports an error we do, where both read cleanly the records are the same`, () => {
		const failures: string[] = [];
		const outcomes = { bothClean: 0, bothErrors: 0, ourQuoteError: 0 };
		/** What is wrong with our reading of `text`, or undefined; counts the outcome. */
		const check = (text: string): string | undefined => {
			const ours = readCsv(text);
			const theirs = papaparse(text);
			if (!theirs.clean) {
				outcomes.bothErrors++;
				return ours.errorCount === 0 ? 'papaparse reported an error, we did not' : undefined;
			}
			if (ours.errorCount === 0) {
				outcomes.bothClean++;
				const same = JSON.stringify(ours.records) === JSON.stringify(theirs.records);
				return same ? undefined : 'both read cleanly, to other records';
			}
			outcomes.ourQuoteError++;
			// QUOTE_IN_UNQUOTED_CELL is the one error papaparse does not see; reading that quote as text,
			// it may read what follows otherwise too (its guess of the line end, say).
			const [first] = ours.errors;
			return first.problem === PROBLEMS.quoteInUnquotedCell
				? undefined
				: `we reported ${JSON.stringify(first)}, papaparse nothing`;
		};
		for (let seed = FIRST_SEED; seed < FIRST_SEED + CASES && failures.length < 5; seed++) {
			const random = seededRandom(seed);
			const generated = generate(random, true);
			const text = mutated(random, generated.text, generated.lineEnd);
			// A mutation that put a line end inside another mixes them (MIXED_LINE_ENDS).
			if (new Set(text.match(/\r\n|\r|\n/g)).size > 1) continue;
			const problem = check(text);
			if (problem) failures.push(`seed ${seed}: ${problem}; ${JSON.stringify(text.slice(0, 300))}`);
		}
		expect(failures).toEqual([]);
		expect(
			Math.min(outcomes.bothClean, outcomes.bothErrors, outcomes.ourQuoteError),
		).toBeGreaterThan(0);
	});

	it('reads what RFC 4180 and the node always read, and names the row and line of each error', () => {
		expect(
			readCsv('\ufeffemail,note\r\n"a@x.io","says ""hi"", twice"\r\nb@x.io,"two\r\nlines"\r\n'),
		).toEqual({
			records: [
				['email', 'note'],
				['a@x.io', 'says "hi", twice'],
				['b@x.io', 'two\r\nlines'],
			],
			errors: [],
			errorCount: 0,
		});
		expect(readCsv('a\r\rb\n\n , \nc\r\n').records).toEqual([['a'], ['b'], ['c']]);
		// SECOND_BYTE_ORDER_MARK
		expect(readCsv('\ufeff\ufeffemail\na@x.io').records).toEqual([['\ufeffemail'], ['a@x.io']]);
		expect(papaparse('\ufeff\ufeffemail\na@x.io').records).toEqual([['email'], ['a@x.io']]);
		// QUOTE_IN_UNQUOTED_CELL
		expect(papaparse('email,height\na@x.io,5\'11" tall')).toEqual({
			records: [
				['email', 'height'],
				['a@x.io', '5\'11" tall'],
			],
			clean: true,
		});
		expect(readCsv('email\n"multi\nline"\nok"no\n"x"y\n"open').errors).toEqual([
			{ record: 2, line: 4, problem: PROBLEMS.quoteInUnquotedCell },
			{ record: 3, line: 5, problem: PROBLEMS.textAfterClosingQuote },
			{ record: 4, line: 6, problem: PROBLEMS.unterminatedQuote },
		]);
	});

	it('keeps the first errors it is asked to, and counts them all', () => {
		const reading = readCsv(Array.from({ length: 25 }, (_, row) => `r${row}"`).join('\n'), 3);
		expect(reading.errors.map((error) => error.line)).toEqual([1, 2, 3]);
		expect(reading.errorCount).toBe(25);
	});
});
