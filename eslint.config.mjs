// n8n's own lint for community packages: the config of its `n8n-node` tool (@n8n/node-cli), in the
// variant n8n Cloud's verification uses. `npm run lint` runs `n8n-node lint` and then the same rules
// with warnings as errors. Deviations, each explained in the README ("n8n's package checks"):
// - papaparse is this package's one runtime dependency (CSV surveys): the two rules that forbid a
//   runtime dependency are off, one for package.json, the other for the one module that imports it
//   (nodes/Wootric/helpers/csv.ts). Every other file is held to n8n Cloud's rules.
// - test/ and scripts/ are development tooling, not part of the published package: n8n's rules for
//   node code (no Node.js globals, no console, …) do not apply there.
import { config } from '@n8n/node-cli/eslint';

export default [
	{ ignores: ['test/**', 'scripts/**', 'build-test/**', 'coverage/**'] },
	...config,
	{
		files: ['package.json'],
		rules: { '@n8n/community-nodes/no-runtime-dependencies': 'off' },
	},
	{
		files: ['nodes/Wootric/helpers/csv.ts'],
		rules: { '@n8n/community-nodes/no-restricted-imports': 'off' },
	},
];
