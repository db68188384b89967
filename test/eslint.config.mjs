// The lint of this project's development tooling (test/, and scripts/ through its own config, which
// re-exports this one): not part of the published package, so n8n's rules for node code (no Node.js
// globals, no console, …) do not apply here; typescript-eslint's recommended rules do. The package's
// own code is held by the repository's eslint.config.mjs, n8n's default config unchanged (strict
// mode). ESLint finds this file for the files below it with `unstable_config_lookup_from_file`
// (`npm run lint` sets it; ESLint 10's default): docs/maintainers/verification.md.
import { createRequire } from 'node:module';

// @n8n/node-cli builds its config from @eslint/js and typescript-eslint; take both from it rather
// than pinning a second copy in package.json.
const requireFromNodeCli = createRequire(import.meta.resolve('@n8n/node-cli/eslint'));
const js = requireFromNodeCli('@eslint/js');
const tseslint = requireFromNodeCli('typescript-eslint');

export default tseslint.config(
	{ ignores: ['**/*.js'] },
	{
		files: ['**/*.ts'],
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
