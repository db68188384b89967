import { execFileSync } from 'node:child_process';

import Papa from 'papaparse';

import { requireBuilt } from '../harness';
import { seededRandom } from '../support/seeded-random';
import { formatMiB, formatMs, MiB, median } from './measure';

/**
 * The package's CSV reader (dist/nodes/Wootric/helpers/rfc4180.js, what Send From CSV runs) and
 * papaparse, which it replaced, side by side on the same text: a survey of 5,000 rows (the most one
 * file may hold) and a 50 MB file, each read as the node reads one. Time is the median of several
 * reads in this process; memory is measured in a child process per reader and size, at 12.5, 25
 * and 50 MB, to show it grows with the input and no faster: what the records read keep on the heap
 * after a full collection, and the peak RSS less that of a child that only builds the text (the
 * peak moves with when V8 collects, so it is the rougher figure).
 */
type Reader = 'ours' | 'papaparse';
const READERS: Reader[] = ['ours', 'papaparse'];
const MEMORY_SIZES_MB = [12.5, 25, 50];
/** Ours over papaparse: no slower. */
const TIME_GOAL = 1;

interface Rfc4180 {
	readCsv(text: string): { records: string[][]; errorCount: number };
}

/** Reads `text` with one reader, as Send From CSV would: its records. */
function read(reader: Reader, text: string): string[][] {
	if (reader === 'papaparse') {
		const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
			delimiter: ',',
			skipEmptyLines: 'greedy',
		});
		return parsed.data;
	}
	return requireBuilt<Rfc4180>('dist/nodes/Wootric/helpers/rfc4180').readCsv(text).records;
}

/**
 * A survey CSV of about `bytes`: email, a context variable, a plan and a note; a fifth of the notes
 * quoted, holding commas, quotes or a line break, now and then a long one.
 */
export function surveyCsvText(options: { rows?: number; bytes?: number }): string {
	const random = seededRandom(42);
	const lines = ['email,___context:first_name,plan,note'];
	let size = lines[0].length;
	for (let row = 1; options.rows ? row <= options.rows : size < (options.bytes ?? 0); row++) {
		const note = random.pick([
			'fine',
			'"Slow support, ""really"" slow"',
			'"two\r\nlines"',
			'"a, b and c"',
			'Ünïcödé 🙂',
			'',
			`"${'long text, '.repeat(random.int(5, 40))}"`,
		]);
		const line = `user${row}@example.com,Name${row},${random.pick(['pro', 'free'])},${note}`;
		lines.push(line);
		size += line.length + 2;
	}
	return lines.join('\r\n') + '\r\n';
}

export interface CsvReaderFigures {
	survey: Record<Reader, number> & { bytes: number };
	large: Record<Reader, number> & { bytes: number };
	/** In MiB, by size in MB. */
	memory: Record<Reader, Record<string, ChildMemory>>;
}

function medianTime(reader: Reader, text: string, repeats: number): number {
	read(reader, text); // warm-up
	const times: number[] = [];
	for (let run = 0; run < repeats; run++) {
		const start = performance.now();
		read(reader, text);
		times.push(performance.now() - start);
	}
	return median(times);
}

interface ChildMemory {
	/** What the records read hold on the heap after a full collection. */
	retainedMiB: number;
	peakRssMiB: number;
}

/** A child's memory after building the text of `megabytes` and, unless 'none', reading it. */
function childMemory(reader: Reader | 'none', megabytes: number): ChildMemory {
	const output = execFileSync(
		process.execPath,
		['--expose-gc', __filename, reader, String(megabytes)],
		{ encoding: 'utf8', maxBuffer: MiB },
	);
	return JSON.parse(output) as ChildMemory;
}

export function csvReaderFigures(): CsvReaderFigures {
	const survey = surveyCsvText({ rows: 5000 });
	const large = surveyCsvText({ bytes: 50e6 });
	const figures: CsvReaderFigures = {
		survey: { bytes: survey.length, ours: 0, papaparse: 0 },
		large: { bytes: large.length, ours: 0, papaparse: 0 },
		memory: { ours: {}, papaparse: {} },
	};
	for (const reader of READERS) {
		figures.survey[reader] = medianTime(reader, survey, 20);
		figures.large[reader] = medianTime(reader, large, 3);
	}
	for (const megabytes of MEMORY_SIZES_MB) {
		const baseline = childMemory('none', megabytes);
		for (const reader of READERS) {
			const measured = childMemory(reader, megabytes);
			figures.memory[reader][megabytes] = {
				retainedMiB: measured.retainedMiB,
				peakRssMiB: measured.peakRssMiB - baseline.peakRssMiB,
			};
		}
	}
	return figures;
}

export function csvReaderTable(figures: CsvReaderFigures): string {
	const ratio = (row: { ours: number; papaparse: number }) => row.ours / row.papaparse;
	const timeLine = (name: string, row: CsvReaderFigures['survey']) =>
		`| ${name} (${formatMiB(row.bytes / MiB)}) | ${formatMs(row.ours)} | ${formatMs(row.papaparse)} | ${ratio(row).toFixed(2)} (goal ≤ ${TIME_GOAL}: ${ratio(row) <= TIME_GOAL ? 'met' : 'NOT met'}) |`;
	const memoryLine = (reader: Reader, figure: keyof ChildMemory) =>
		`| ${reader}, ${figure === 'retainedMiB' ? 'the records kept' : 'peak RSS growth'} | ${MEMORY_SIZES_MB.map((mb) => `${formatMiB(figures.memory[reader][mb][figure])} (${(figures.memory[reader][mb][figure] / mb).toFixed(1)} per MB)`).join(' | ')} |`;
	return [
		'Survey CSVs read as Send From CSV reads them: ours (helpers/rfc4180.ts) and papaparse 5.7.1',
		'',
		'| text | ours | papaparse | ours / papaparse |',
		'|---|---|---|---|',
		timeLine('5,000-row survey', figures.survey),
		timeLine('50 MB file', figures.large),
		'',
		'Memory, a child process per reader and size: the records read, on the heap after a full collection; the peak RSS less that of a child that only builds the text:',
		'',
		`| reader | ${MEMORY_SIZES_MB.map((mb) => `${mb} MB`).join(' | ')} |`,
		`|---|${MEMORY_SIZES_MB.map(() => '---').join('|')}|`,
		...READERS.flatMap((reader) => [
			memoryLine(reader, 'retainedMiB'),
			memoryLine(reader, 'peakRssMiB'),
		]),
	].join('\n');
}

// The child of childMemory: build the text, read it keeping the records, print what it cost.
if (require.main === module) {
	const [reader, megabytes] = process.argv.slice(2);
	const text = surveyCsvText({ bytes: Number(megabytes) * 1e6 });
	globalThis.gc?.();
	const before = process.memoryUsage().heapUsed;
	const records = reader === 'none' ? [] : read(reader as Reader, text);
	globalThis.gc?.();
	const retained = process.memoryUsage().heapUsed - before;
	console.log(
		JSON.stringify({
			retainedMiB: records.length === 0 ? 0 : retained / MiB,
			peakRssMiB: process.resourceUsage().maxRSS / 1024,
		}),
	);
}
