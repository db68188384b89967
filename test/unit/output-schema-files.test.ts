import { readFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../../scripts/e2e/paths';
import { outputSchemaFiles, SCHEMA_FOLDER, schemaFilesIn } from '../../scripts/output-schemas';

/**
 * The committed schema files are what scripts/output-schemas.ts gives: n8n reads the files, the
 * script is where they are written. After changing the script, `npm run schemas` writes them.
 */
describe('the output schema files', () => {
	const folder = path.join(REPO_ROOT, SCHEMA_FOLDER);
	const committed = schemaFilesIn(folder);
	const generated = outputSchemaFiles();

	it('are those the script gives, no more and no fewer', () => {
		expect(committed).toEqual([...generated.keys()].sort());
	});

	it.each([...generated])('%s holds what the script gives', (file, text) => {
		expect(readFileSync(path.join(folder, file), 'utf8')).toBe(text);
	});
});
