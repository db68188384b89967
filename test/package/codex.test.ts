import { readFileSync } from 'node:fs';
import path from 'node:path';

import { loadPackage, REPO_ROOT } from '../harness';

/**
 * The GitHub/npm anchor of a README heading: lower case, punctuation dropped, spaces to hyphens.
 */
function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.replace(/\s/g, '-');
}

/**
 * The codex (Wootric.node.json) as n8n-core's package loader reads it into the node description.
 */
describe('the Wootric node codex', () => {
	it('gives n8n the categories, search aliases and documentation links', async () => {
		const loaded = await loadPackage();
		const { codex } = loaded.nodeTypes['n8n-nodes-wootric.wootric'].type.description;

		expect(codex).toEqual({
			categories: ['Analytics', 'Marketing'],
			alias: ['NPS', 'Net Promoter Score', 'Survey', 'Customer Feedback', 'InMoment'],
			resources: {
				primaryDocumentation: [
					{ url: 'https://www.npmjs.com/package/n8n-nodes-wootric' },
					{ url: 'https://docs.wootric.com/api/' },
				],
				credentialDocumentation: [
					{ url: 'https://www.npmjs.com/package/n8n-nodes-wootric#credentials-wootric-api' },
				],
			},
		});
	});

	it('links the credential documentation to a heading the README has', () => {
		const codex = JSON.parse(
			readFileSync(path.join(REPO_ROOT, 'nodes/Wootric/Wootric.node.json'), 'utf8'),
		);
		const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
		const anchors = [...readme.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => anchorOf(heading));
		const [link] = codex.resources.credentialDocumentation;

		expect(anchors).toContain(new URL(link.url).hash.slice(1));
	});
});
