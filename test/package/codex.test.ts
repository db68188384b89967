import { readFileSync } from 'node:fs';
import path from 'node:path';

import { loadPackage, REPO_ROOT } from '../harness';
import { headingAnchors } from '../support/markdown';

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
		const [link] = codex.resources.credentialDocumentation;

		expect(headingAnchors(readme)).toContain(new URL(link.url).hash.slice(1));
	});
});
