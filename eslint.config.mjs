// n8n's own lint for community packages: the config of its `n8n-node` tool (@n8n/node-cli), in its
// self-hosted variant. `npm run lint` runs `n8n-node lint` and then the same rules with warnings as
// errors. Deviations, each explained in the README ("n8n's package checks"):
// - papaparse is this package's one runtime dependency (CSV surveys), so it is for self-hosted n8n,
//   where runtime dependencies are allowed: no-runtime-dependencies is off, and the n8n Cloud set
//   is not used.
// - test/ and scripts/ are development tooling, not part of the published package: n8n's rules for
//   node code (no Node.js globals, no console, …) do not apply there.
import { configWithoutCloudSupport } from '@n8n/node-cli/eslint';

export default [
	{ ignores: ['test/**', 'scripts/**', 'build-test/**', 'coverage/**'] },
	...configWithoutCloudSupport,
	{
		files: ['package.json'],
		rules: { '@n8n/community-nodes/no-runtime-dependencies': 'off' },
	},
];
