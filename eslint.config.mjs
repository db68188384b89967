// n8n's own lint for community packages: the config of its `n8n-node` tool (@n8n/node-cli), in the
// variant n8n Cloud's verification uses. `npm run lint` runs `n8n-node lint` and then the same rules
// with warnings as errors. Deviations, each explained in the README ("n8n's package checks"):
// - papaparse is this package's one runtime dependency (CSV surveys): the two rules that forbid a
//   runtime dependency are off, one for package.json, the other for the one module that imports it
//   (nodes/Wootric/helpers/csv.ts). Every other file is held to n8n Cloud's rules.
// - test/ and scripts/ are development tooling, not part of the published package: n8n's rules for
//   node code (no Node.js globals, no console, …) do not apply there. Their TypeScript gets
//   typescript-eslint's recommended rules instead.
import { createRequire } from 'node:module';
import { config } from '@n8n/node-cli/eslint';

// @n8n/node-cli builds its config from @eslint/js and typescript-eslint; take both from it rather
// than pinning a second copy in package.json.
const requireFromNodeCli = createRequire(import.meta.resolve('@n8n/node-cli/eslint'));
const js = requireFromNodeCli('@eslint/js');
const tseslint = requireFromNodeCli('typescript-eslint');

const toolingFiles = ['test/**/*.ts', 'scripts/**/*.ts'];

export default tseslint.config(
	{ ignores: ['test/**/*.js', 'scripts/**/*.js', 'build-test/**', 'coverage/**'] },
	...config.map((block) =>
		block.files
			? { ...block, ignores: [...(block.ignores ?? []), 'test/**', 'scripts/**'] }
			: block,
	),
	{
		files: ['package.json'],
		rules: { '@n8n/community-nodes/no-runtime-dependencies': 'off' },
	},
	{
		files: ['nodes/Wootric/helpers/csv.ts'],
		rules: { '@n8n/community-nodes/no-restricted-imports': 'off' },
	},
	{
		files: toolingFiles,
		extends: [js.configs.recommended, tseslint.configs.recommended],
		rules: {
			// `const { id, ...rest } = record` is how a test drops the fields it does not compare.
			'@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
			// jest's `.only` would silently skip the rest of a file in CI.
			'no-restricted-syntax': [
				'error',
				{
					selector: 'MemberExpression[object.name=/^(describe|it|test)$/][property.name="only"]',
					message: 'A focused test skips the rest of its file: remove `.only`.',
				},
			],
		},
	},
);
