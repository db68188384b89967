import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../harness';
import { headingAnchors } from '../support/markdown';

/** The README and every page of docs/, its folders too: what a reader follows from the front door. */
const PAGES = [
	'README.md',
	...readdirSync(path.join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.md'))
		.map((file) => `docs/${file.split(path.sep).join('/')}`)
		.sort(),
];

/** Every relative link of a page (Markdown `[text](target)` and `![alt](target)`), outside code. */
function relativeLinks(markdown: string): string[] {
	const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
	return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
		.map(([, target]) => target)
		.filter((target) => !/^[a-z]+:/i.test(target));
}

describe('the links of the README and docs/', () => {
	it('finds pages to check, the README and a page in a folder of docs/ among them', () => {
		expect(PAGES).toEqual(
			expect.arrayContaining([
				'README.md',
				'docs/polling-trigger.md',
				'docs/maintainers/polling-cursor.md',
			]),
		);
	});

	it.each(PAGES)(
		'%s: every relative link points at a file that exists, and at a heading it has',
		(page) => {
			const broken: string[] = [];
			for (const target of relativeLinks(readFileSync(path.join(REPO_ROOT, page), 'utf8'))) {
				const [file, anchor] = target.split('#');
				const resolved = file
					? path.join(path.dirname(path.join(REPO_ROOT, page)), file)
					: path.join(REPO_ROOT, page);
				if (!existsSync(resolved)) broken.push(`${target}: no such file`);
				else if (
					anchor &&
					resolved.endsWith('.md') &&
					!headingAnchors(readFileSync(resolved, 'utf8')).includes(anchor)
				)
					broken.push(`${target}: no such heading`);
			}
			expect(broken).toEqual([]);
		},
	);

	it.each(PAGES)('%s: every `npm run <script>` it names is a script of package.json', (page) => {
		const { scripts } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		};
		const named = readFileSync(path.join(REPO_ROOT, page), 'utf8').matchAll(
			/npm run ([a-z][\w:-]*)/g,
		);
		expect([...named].map(([, script]) => script).filter((script) => !(script in scripts))).toEqual(
			[],
		);
	});

	it('the README names `npm run sandbox` where it explains the credential: an account of its own to try the nodes on', () => {
		const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
		const credentialSection = readme.split(/^## /m).find((part) => part.startsWith('Credentials'));
		expect(credentialSection).toContain('`npm ci && npm run sandbox`');
	});

	it('the README stays a front door: at most 400 lines', () => {
		expect(
			readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').split('\n').length,
		).toBeLessThanOrEqual(400);
	});
});
