// n8n's own rule sets: eslint-plugin-n8n-nodes-base (community, credentials, nodes) and
// @n8n/eslint-plugin-community-nodes. The package ships papaparse as a runtime dependency, so it uses
// the self-hosted set (recommendedWithoutN8nCloudSupport), as n8n Cloud forbids runtime dependencies.
import communityNodes from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tsParser from '@typescript-eslint/parser';

const community = communityNodes.configs.recommendedWithoutN8nCloudSupport;

export default [
	// scripts/ holds the e2e harness and `npm run dev`: development tooling, not part of the package.
	{ ignores: ['dist/**', 'build-test/**', 'node_modules/**', 'test/**', 'scripts/**', 'coverage/**', '*.js', '*.mjs'] },
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
	},
	{
		// typescript-estree reads a .json file as one object expression, which the package.json rules expect.
		files: ['package.json'],
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
	},
	{ ...community, files: ['**/*.ts', 'package.json'] },
	{
		files: ['package.json'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.community.rules,
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.credentials.rules,
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.nodes.rules,
	},
	{
		rules: {
			// papaparse is this package's one runtime dependency by design (CSV surveys); it targets self-hosted n8n.
			'@n8n/community-nodes/no-runtime-dependencies': 'off',
			// Older rules that contradict the newer plugin for n8n 2.x: it asks for NodeConnectionTypes in
			// inputs/outputs and accepts a URL as documentationUrl (credential-documentation-url).
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
];
