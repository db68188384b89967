import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { requireBuilt } from '../harness';
import { median } from './measure';

/**
 * The built node's CSV helpers (dist/nodes/Wootric/helpers/csv.js), the code Send From CSV runs.
 */
interface CsvHelpers {
	parseSurveyCsv(
		context: IExecuteFunctions,
		itemIndex: number,
		text: string,
		source: string,
	): unknown;
	csvChunks(csv: unknown, startAtRow?: number): unknown[];
}

/**
 * How long the node takes to read and check a survey CSV, and to cut it into files of 5,000 rows,
 * on their own: the part of Send From CSV that happens before the first request.
 */
export function timeCsvCheck(text: string, repeats: number): { parseMs: number; chunkMs: number } {
	const { parseSurveyCsv, csvChunks } = requireBuilt<CsvHelpers>('dist/nodes/Wootric/helpers/csv');
	// The helpers only ask the context for the node, to name it in an error.
	const node: INode = {
		id: 'bench',
		name: 'Wootric',
		type: 'n8n-nodes-wootric.wootric',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const context = { getNode: () => node } as unknown as IExecuteFunctions;
	const parse: number[] = [];
	const chunk: number[] = [];
	for (let run = 0; run <= repeats; run++) {
		let start = performance.now();
		const csv = parseSurveyCsv(context, 0, text, '"people.csv"');
		parse.push(performance.now() - start);
		start = performance.now();
		csvChunks(csv);
		chunk.push(performance.now() - start);
	}
	// The first run warms up.
	return { parseMs: median(parse.slice(1)), chunkMs: median(chunk.slice(1)) };
}
