import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as ts from 'typescript';

/** The repository's .ts files and their relative imports, as TypeScript reads and resolves them. */
const REPO_ROOT = join(__dirname, '..', '..');

export interface Import {
	/** Where the import is: `nodes/…/x.ts:4`. */
	at: string;
	/** The importing file and the file it imports, relative to the repository. */
	from: string;
	/** undefined where the specifier names no file. */
	to: string | undefined;
	specifier: string;
}

export function tsFilesUnder(folder: string): string[] {
	return readdirSync(join(REPO_ROOT, folder)).flatMap((name) => {
		const path = `${folder}/${name}`;
		if (statSync(join(REPO_ROOT, path)).isDirectory()) return tsFilesUnder(path);
		return name.endsWith('.ts') ? [path] : [];
	});
}

/**
 * The file a relative specifier names, as TypeScript resolves it: the .ts file, a folder's
 * index.ts, or the file itself.
 */
function resolveImport(from: string, specifier: string): string | undefined {
	const base = join(dirname(from), specifier);
	return [`${base}.ts`, join(base, 'index.ts'), base].find(
		(candidate) =>
			existsSync(join(REPO_ROOT, candidate)) && statSync(join(REPO_ROOT, candidate)).isFile(),
	);
}

/** Every relative import, export … from, require() and import() of one .ts file. */
export function relativeImportsOf(from: string): Import[] {
	const source = readFileSync(join(REPO_ROOT, from), 'utf8');
	return ts
		.preProcessFile(source, true, true)
		.importedFiles.filter(({ fileName }) => fileName.startsWith('.'))
		.map(({ fileName: specifier, pos }) => ({
			at: `${from}:${source.slice(0, pos).split('\n').length}`,
			from,
			to: resolveImport(from, specifier),
			specifier,
		}));
}
