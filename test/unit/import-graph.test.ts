import { relativeImportsOf, tsFilesUnder, type Import } from '../support/imports';

const under = (folder: string) => (file: string) => file.startsWith(`nodes/Wootric/${folder}/`);

/**
 * The package's layers, top to bottom: a file may import from its own layer and the ones below it,
 * so transport/ imports nothing from credentials/, helpers/, events/ or what the nodes do. A file
 * belongs to the first layer that holds it.
 */
const LAYERS: Array<{ name: string; holds: (file: string) => boolean }> = [
	{
		name: 'node files and credentials/',
		holds: (file) => file.endsWith('.node.ts') || file.startsWith('credentials/'),
	},
	{
		name: 'actions/, methods/, polling/ and webhook/',
		holds: (file) =>
			['actions', 'methods', 'polling', 'webhook'].some((folder) => under(folder)(file)),
	},
	{ name: 'events/', holds: under('events') },
	{ name: 'helpers/', holds: under('helpers') },
	{ name: 'transport/', holds: under('transport') },
];

/**
 * Imports within a layer that the layering forbids: each node's own folder keeps to itself (the
 * triggers share events/, the action node and the editor's option lists share helpers/), so the
 * editor's option lists do not reach into the operations, nor one trigger into the other.
 */
const SIBLINGS = ['actions', 'methods', 'polling', 'webhook'];
const FORBIDDEN_WITHIN_A_LAYER = SIBLINGS.flatMap((from) =>
	SIBLINGS.filter((to) => to !== from).map((to) => ({
		from: `nodes/Wootric/${from}/`,
		to: `nodes/Wootric/${to}/`,
	})),
);

/**
 * Every relative import of the .ts files under nodes/ and credentials/, and those that name no file.
 */
function readImports(): {
	files: string[];
	imports: Array<Import & { to: string }>;
	unresolved: string[];
} {
	const files = [...tsFilesUnder('nodes'), ...tsFilesUnder('credentials')];
	const all = files.flatMap(relativeImportsOf);
	return {
		files,
		imports: all.filter((edge): edge is Import & { to: string } => edge.to !== undefined),
		unresolved: all
			.filter((edge) => edge.to === undefined)
			.map(({ at, specifier }) => `${at} imports '${specifier}', which names no file`),
	};
}

const layerOf = (file: string) => LAYERS.findIndex((layer) => layer.holds(file));

/**
 * Cycles of a directed graph, at least one wherever there are any, each as the path from a file
 * back to it.
 */
function cyclesOf(edges: Map<string, string[]>): string[][] {
	const cycles: string[][] = [];
	const done = new Set<string>();
	const path: string[] = [];
	const visit = (file: string) => {
		if (done.has(file)) return;
		const onPath = path.indexOf(file);
		if (onPath >= 0) {
			cycles.push([...path.slice(onPath), file]);
			return;
		}
		path.push(file);
		for (const next of edges.get(file) ?? []) visit(next);
		path.pop();
		done.add(file);
	};
	for (const file of edges.keys()) visit(file);
	return cycles;
}

describe('the import graph of nodes/ and credentials/', () => {
	const { files, imports, unresolved } = readImports();

	it('reads every file’s relative imports, and every import names a file', () => {
		expect(files).toEqual(
			expect.arrayContaining([
				'nodes/Wootric/Wootric.node.ts',
				'credentials/WootricApi.credentials.ts',
			]),
		);
		expect(imports).toContainEqual(
			expect.objectContaining({
				from: 'nodes/Wootric/Wootric.node.ts',
				to: 'nodes/Wootric/actions/router.ts',
			}),
		);
		expect(unresolved).toEqual([]);
	});

	it('places every file in a layer', () => {
		expect(files.filter((file) => layerOf(file) < 0)).toEqual([]);
	});

	it('has no import cycles', () => {
		const edges = new Map(
			files.map((file) => [
				file,
				imports.filter((edge) => edge.from === file).map((edge) => edge.to),
			]),
		);
		expect(cyclesOf(edges).map((cycle) => cycle.join(' → '))).toEqual([]);
	});

	it('imports nothing from a higher layer (node files and credentials/ → actions/, methods/, polling/, webhook/ → events/ → helpers/ → transport/)', () => {
		const upward = imports
			.filter(({ from, to }) => layerOf(to) < layerOf(from))
			.map(
				({ at, from, to }) =>
					`${at} imports ${to}: up from ${LAYERS[layerOf(from)].name} to ${LAYERS[layerOf(to)].name}`,
			);
		expect(upward).toEqual([]);
	});

	it('keeps actions/, methods/, polling/ and webhook/ out of each other', () => {
		const across = imports
			.filter(({ from, to }) =>
				FORBIDDEN_WITHIN_A_LAYER.some(
					(rule) => from.startsWith(rule.from) && to.startsWith(rule.to),
				),
			)
			.map(({ at, to }) => `${at} imports ${to}`);
		expect(across).toEqual([]);
	});

	it('cyclesOf finds a cycle where there is one', () => {
		const edges = new Map([
			['a.ts', ['b.ts']],
			['b.ts', ['c.ts']],
			['c.ts', ['a.ts', 'd.ts']],
			['d.ts', []],
		]);
		expect(cyclesOf(edges)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
	});
});
