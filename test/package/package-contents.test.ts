import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { SCHEMA_FOLDER, schemaFilesIn } from '../../scripts/output-schemas';

/**
 * What `npm pack` would publish: it must carry every file the manifest names and the icons they
 * point at.
 */
const root = path.resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

function packedFiles(): string[] {
	const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	return JSON.parse(output)[0].files.map((file: { path: string }) => file.path);
}

/**
 * `file:x.svg` icons of a built node or credential class (named like its file, as n8n loads it), as
 * package paths.
 */
function iconFiles(builtFile: string): string[] {
	const className = path.basename(builtFile).split('.')[0];
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- built JavaScript at a path known at run time; this test loads nothing of the harness
	const Type = require(path.join(root, builtFile))[className] as new () => {
		icon?: unknown;
		description?: { icon?: unknown };
	};
	const instance = new Type();
	const icon = instance.description?.icon ?? instance.icon;
	const names =
		typeof icon === 'string' ? [icon] : Object.values((icon ?? {}) as Record<string, string>);
	return names.map((name) =>
		path.posix.join(path.posix.dirname(builtFile), name.replace(/^file:/, '')),
	);
}

describe('the packed package', () => {
	const files = packedFiles();
	const named: string[] = [...manifest.n8n.credentials, ...manifest.n8n.nodes];

	it('follows n8n community package conventions', () => {
		expect(manifest.name).toBe('n8n-nodes-wootric');
		expect(manifest.keywords).toContain('n8n-community-node-package');
		expect(manifest.files).toEqual(['dist']);
		expect(manifest.n8n.n8nNodesApiVersion).toBe(1);
		expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		// n8n's verification refuses any runtime dependency, and strict mode holds eslint.config.mjs
		// to n8n's default (`n8n-node lint` checks it).
		expect(manifest.dependencies).toBeUndefined();
		expect(manifest.n8n.strict).toBe(true);
		expect(named.length).toBeGreaterThanOrEqual(2);
	});

	it.each(named)('contains %s, its icons and, for nodes, its codex', (builtFile) => {
		expect(files).toContain(builtFile);
		const icons = iconFiles(builtFile);
		expect(icons.length).toBeGreaterThan(0);
		for (const icon of icons) expect(files).toContain(icon);
		if (builtFile.endsWith('.node.js'))
			expect(files).toContain(builtFile.replace(/\.js$/, '.json'));
	});

	it('contains every output schema, where n8n reads it: beside the node in dist', () => {
		const schemas = schemaFilesIn(path.join(root, SCHEMA_FOLDER)).map((file) =>
			path.posix.join('dist', SCHEMA_FOLDER, file),
		);
		expect(schemas.length).toBeGreaterThan(0);
		expect(schemas.filter((file) => !files.includes(file))).toEqual([]);
	});

	it('ships built code only: no TypeScript sources, tests or fakes', () => {
		expect(
			files.filter(
				(file) =>
					!file.startsWith('dist/') &&
					file !== 'package.json' &&
					!/^(README\.md|LICENSE)$/i.test(file),
			),
		).toEqual([]);
		expect(files.filter((file) => file.endsWith('.ts') || file.includes('/test/'))).toEqual([]);
	});
});
