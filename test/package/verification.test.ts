import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { ICredentialType, INodeType } from 'n8n-workflow';

import { loadPackage, REPO_ROOT } from '../harness';

/**
 * docs/maintainers/verification.md, n8n's verification guidelines point by point with what checks
 * each: every point is in its table, every file it names as a check exists, and the points no other
 * test holds are held here (the licence, the README's parts, English only).
 */
const CHECKLIST = 'docs/maintainers/verification.md';
const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** The checklist's table: each point and the text of what checks it. */
function checklistRows(): Array<{ point: string; checkedBy: string }> {
	return read(CHECKLIST)
		.split('\n')
		.filter((line) => line.startsWith('| ') && !line.startsWith('| point'))
		.map((line) => {
			const [point, checkedBy] = line.slice(2, -2).split(' | ');
			return { point, checkedBy };
		});
}

/** n8n's guidelines (docs: Community node verification guidelines), a word or two each. */
const GUIDELINES = [
	/n8n-node/,
	/No runtime dependencies/,
	/scan-community-package/,
	/environment variables or the file system/,
	/MIT/,
	/README with usage, examples and authentication/,
	/English only/,
	/existing node/,
	/Package name/,
	/provenance/,
	/repository is the public GitHub repository/,
];

/** Every text of a node or credential description n8n shows a user. */
function shownTexts(value: unknown, texts: string[] = []): string[] {
	if (Array.isArray(value)) for (const entry of value) shownTexts(entry, texts);
	else if (value && typeof value === 'object')
		for (const [key, entry] of Object.entries(value)) {
			if (typeof entry === 'string' && SHOWN_KEYS.has(key)) texts.push(entry);
			else shownTexts(entry, texts);
		}
	return texts;
}
const SHOWN_KEYS = new Set([
	'displayName',
	'description',
	'placeholder',
	'hint',
	'action',
	'name',
	'subtitle',
]);
/** A character of another script than Latin: a text in another language. */
const OTHER_SCRIPT = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;

describe("n8n's verification checklist", () => {
	const rows = checklistRows();

	it.each(GUIDELINES.map((guideline) => [guideline.source, guideline]))(
		'names the point "%s" and what checks it',
		(_, guideline) => {
			const row = rows.find(({ point }) => guideline.test(point));
			expect(row?.checkedBy.trim()).toBeTruthy();
		},
	);

	it('names as checks only files that exist', () => {
		const named = rows.flatMap(({ checkedBy }) =>
			[...checkedBy.matchAll(/`([\w./-]+\.(?:ts|mjs|md|yml|json)|LICENSE)`/g)].map(
				(match) => match[1],
			),
		);
		expect(named.length).toBeGreaterThan(10);
		expect(named.filter((file) => !existsSync(path.join(REPO_ROOT, file)))).toEqual([]);
	});

	it('MIT: the licence file says so, as package.json does, and both are in the tarball', () => {
		expect(read('LICENSE')).toMatch(/^MIT License\n/);
		expect(JSON.parse(read('package.json')).license).toBe('MIT');
		const [{ files }] = JSON.parse(
			execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
				cwd: REPO_ROOT,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'ignore'],
			}),
		) as Array<{ files: Array<{ path: string }> }>;
		expect(files.map((file) => file.path)).toEqual(
			expect.arrayContaining(['LICENSE', 'README.md', 'package.json']),
		);
	});

	it('the README has usage, examples and authentication', () => {
		const headings = read('README.md')
			.split('\n')
			.filter((line) => line.startsWith('## '));
		expect(headings).toEqual(
			expect.arrayContaining([
				'## Credentials: "Wootric API"',
				'## Operations',
				'## Trigger',
				'## Instant trigger (outgoing webhooks)',
				'## Example workflows',
			]),
		);
	});

	it('English only: every text the nodes and the credential show, and the README, are in Latin script', async () => {
		const { nodeTypes, credentialTypes } = await loadPackage();
		const descriptions = [
			...Object.values(nodeTypes).map(({ type }) => (type as INodeType).description),
			...Object.values(credentialTypes).map(({ type }) => {
				const { displayName, properties } = type as ICredentialType;
				return { displayName, properties };
			}),
		];
		const texts = [...shownTexts(descriptions), read('README.md')];
		expect(texts.length).toBeGreaterThan(500);
		expect(texts.filter((text) => OTHER_SCRIPT.test(text))).toEqual([]);
	});
});
