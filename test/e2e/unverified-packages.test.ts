/**
 * The package in the pinned n8n with N8N_UNVERIFIED_PACKAGES_ENABLED=false, the default n8n 3.0
 * announces (n8n's dist/modules/breaking-changes/rules/v3/unverified-packages.rule.js): installed
 * from a clone, as the README's `npm run install-into-n8n` does (the tarball in .n8n/nodes), and
 * through Settings → Community Nodes → Install (the REST call the editor makes). The package is not
 * verified by n8n, so what n8n does with it here is what a user with that setting sees. One n8n
 * serves the whole file.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

import {
	PACKAGE_CREDENTIAL_TYPES,
	PACKAGE_NODE_TYPES,
	startN8nWithPackage,
	type N8nWithPackage,
} from '../../scripts/e2e/n8n-with-package';
import { PACKAGE_NAME } from '../../scripts/e2e/package-tarball';
import { N8nRestError } from '../../scripts/e2e/rest-client';
import { readWorkflows } from '../../scripts/e2e/workflow-files';
import type { FakeWootric } from '../fake';
import { outputOf } from './helpers';
import { e2eSuite } from './suite';

const OWNER = { email: 'e2e-owner@example.com', password: 'E2e-owner-password-1' };
/** test/e2e/workflows/account.json: Start → the Wootric node's Segment Get Many and more. */
const ACCOUNT_WORKFLOW = 'e2eAccount';

let fake: FakeWootric;
let demo: N8nWithPackage;

const { step } = e2eSuite({
	label: 'e2e',
	start: async (services) => {
		({ fake } = services);
		demo = await startN8nWithPackage({
			...services.n8nOptions,
			owner: OWNER,
			workflows: readWorkflows(join(__dirname, 'workflows')).filter(
				(workflow) => workflow.id === ACCOUNT_WORKFLOW,
			),
			env: { N8N_UNVERIFIED_PACKAGES_ENABLED: 'false' },
		});
	},
	stop: async () => await demo?.n8n.stop(),
	logTails: () =>
		demo
			? `--- n8n log, last 40 lines (${demo.n8n.logFile}) ---\n${demo.n8n.logTail(40)}`
			: undefined,
	stopTimeoutMs: 60_000,
});

describe('N8N_UNVERIFIED_PACKAGES_ENABLED=false', () => {
	step(
		'installed from a clone into .n8n/nodes, the package loads: n8n offers its nodes and credential, and a workflow with the Wootric node runs',
		async () => {
			// n8n 2.40.7 loads every n8n-nodes-* folder of .n8n/nodes/node_modules at start
			// (community-packages.module.js, nodeLoaders → n8n-core's scanDirectoryForPackages), held
			// back only by N8N_COMMUNITY_PACKAGES_PREVENT_LOADING and the node API version. The setting
			// is read by installs and updates (community-packages.service.js, checkInstallPermissions),
			// the packages list's update check and the editor's settings, not by the loader; that
			// unverified packages "stop loading" is what the v3 rule announces for 3.0.
			// No runtime dependency (n8n's verification allows none): the tarball brought nothing but itself.
			expect(
				readdirSync(dirname(demo.packageFolder)).filter((name) => !name.startsWith('.')),
			).toEqual([PACKAGE_NAME]);
			expect(existsSync(join(demo.packageFolder, 'node_modules'))).toBe(false);
			const nodeTypes = await demo.rest.nodeTypeNames();
			expect(nodeTypes).toEqual(expect.arrayContaining(PACKAGE_NODE_TYPES));
			// n8n's verification takes no package for a service n8n has a node of: it has none of Wootric.
			expect(
				nodeTypes.filter((name) => /wootric/i.test(name) && !name.startsWith(`${PACKAGE_NAME}.`)),
			).toEqual([]);
			expect(await demo.rest.credentialTypeNames()).toEqual(
				expect.arrayContaining(PACKAGE_CREDENTIAL_TYPES),
			);

			const execution = await demo.rest.finishedExecution(
				await demo.rest.runFromTrigger(ACCOUNT_WORKFLOW, 'Start'),
			);

			expect(execution.status).toBe('success');
			expect(outputOf(execution, 'Segments').map((segment) => segment.name)).toEqual(
				fake.account.segments.map((segment) => segment.name),
			);
		},
	);

	step(
		'Settings → Community Nodes → Install: the editor is told installs are off, and the install call is refused as unverified before the npm registry is asked',
		async () => {
			// The editor disables its Install button on this (SettingsCommunityNodesView,
			// "button-disabled": !isUnverifiedPackagesEnabled); the REST call is what it would send.
			const settings = await demo.rest.request<Record<string, unknown>>('GET', '/rest/settings');
			expect(settings).toMatchObject({
				communityNodesEnabled: true,
				unverifiedCommunityNodesEnabled: false,
			});
			const connectionsBefore = demo.n8n.outboundConnections().length;

			// The install modal's request (the editor's installPackage: verify and version unset).
			const refusal = await demo.rest
				.request('POST', '/rest/community-packages', { name: PACKAGE_NAME })
				.then(
					() => undefined,
					(error: unknown) => error,
				);

			// CommunityPackagesLifecycleService.install asks api.n8n.io whether the package is banned
			// (checkNpmPackageStatus; unreachable here, which counts as not banned), then
			// installPackage → runRegistryChecks → checkInstallPermissions throws for a package
			// without a checksum (only n8n's vetted ones have one) before the registry is asked and
			// anything is downloaded; install() wraps the message and answers 500. The status does not
			// tell it from a failed download, the message does: with the setting on, the same call goes
			// on to the registry (checkIfVersionExistsOrThrow) and, the package not published yet,
			// answers 500 "…:Failed to check package version existence".
			expect(refusal).toBeInstanceOf(N8nRestError);
			const { status, body } = refusal as N8nRestError;
			expect({ status, message: (JSON.parse(body) as { message: string }).message }).toEqual({
				status: 500,
				message: `Error loading package "${PACKAGE_NAME}" :Installation of unverified community packages is forbidden!`,
			});
			expect(
				demo.n8n
					.outboundConnections()
					.slice(connectionsBefore)
					.map((connection) => connection.host),
			).toEqual(['api.n8n.io']);
			// The refusal comes before n8n backs up or touches the package folder: the copy from the
			// clone stays installed and loaded, and n8n has recorded no package of its own.
			expect(existsSync(join(demo.packageFolder, 'package.json'))).toBe(true);
			expect(await demo.rest.nodeTypeNames()).toEqual(expect.arrayContaining(PACKAGE_NODE_TYPES));
			expect(await demo.rest.request('GET', '/rest/community-packages')).toEqual([]);
		},
	);
});
