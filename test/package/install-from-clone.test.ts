import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { REPO_ROOT } from '../../scripts/e2e/paths';
import { CLONE_TARBALL, n8nFolderFrom, PACK_ONLY } from '../../scripts/install-into-n8n';
import { afterNpmCi, readmeInstallCommands } from '../support/readme-install';

/**
 * The README's *Install in n8n* from a clone, as written: its commands name the scripts that do it,
 * and the Docker commands install the tarball the script packs where the official image's n8n
 * looks. test/e2e/real-n8n.test.ts runs the command for n8n installed with npm into a real n8n;
 * Docker is not run.
 */
const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
	scripts: Record<string, string>;
};

/** The package.json script a command runs, `npm run <script>`. */
function npmScriptOf(command: string): string {
	const script = /^npm run (\S+)$/.exec(command)?.[1];
	if (!script) throw new Error(`Not an npm run of a script: ${command}`);
	return script;
}

describe("the README's install from a clone", () => {
	const { npmInstalled, docker } = readmeInstallCommands();
	const installScript = npmScriptOf(afterNpmCi(npmInstalled[0]));

	it("for n8n installed with npm, runs the script that builds, packs and installs into n8n's nodes folder", () => {
		expect(npmInstalled).toHaveLength(1);
		expect(scripts[installScript]).toMatch(/ && node build-test\/scripts\/install-into-n8n\.js$/);
	});

	it("for n8n in Docker, packs with that script, copies its tarball into the container, installs it into the official image's n8n folder and restarts", () => {
		expect(docker).toHaveLength(4);
		const [pack, copy, install, restart] = docker;
		expect(scripts[npmScriptOf(afterNpmCi(pack))]).toBe(`npm run ${installScript} -- ${PACK_ONLY}`);
		const [, copied, container, inContainer] = /^docker cp (\S+) (\S+):(\S+)$/.exec(copy) ?? [];
		expect(resolve(REPO_ROOT, copied)).toBe(CLONE_TARBALL);
		// The image runs n8n as the user node, whose home is /home/node.
		const nodesFolder = join(n8nFolderFrom([], { HOME: '/home/node' }), 'nodes');
		expect(install).toBe(
			`docker exec ${container} sh -c 'mkdir -p ${nodesFolder} && cd ${nodesFolder} && npm install --legacy-peer-deps ${inContainer}'`,
		);
		expect(restart).toBe(`docker restart ${container}`);
	});
});

describe('npm run install-into-n8n', () => {
	it('installs where n8n looks for its data: .n8n in N8N_USER_FOLDER, else in HOME', () => {
		expect(n8nFolderFrom([], { N8N_USER_FOLDER: '/srv/n8n', HOME: '/home/ada' })).toBe(
			'/srv/n8n/.n8n',
		);
		expect(n8nFolderFrom([], { HOME: '/home/ada' })).toBe('/home/ada/.n8n');
	});

	/** A folder as n8n leaves its data folder after its first start, in a temporary one. */
	function withN8nFolder(test: (home: string) => void) {
		const home = mkdtempSync(join(tmpdir(), 'install-into-n8n-'));
		mkdirSync(join(home, 'data', '.n8n'), { recursive: true });
		writeFileSync(join(home, 'data', '.n8n', 'config'), '{}');
		try {
			test(home);
		} finally {
			rmSync(home, { recursive: true, force: true });
		}
	}

	it('takes a folder relative to where `npm run` was typed', () => {
		withN8nFolder((home) => {
			expect(n8nFolderFrom(['data/.n8n'], { INIT_CWD: home })).toBe(join(home, 'data', '.n8n'));
		});
	});

	it('refuses a folder that does not exist (a typo: n8n would never look there), naming what an n8n folder holds and the default', () => {
		withN8nFolder((home) => {
			const typo = join(home, 'data', '.n8m');
			expect(() => n8nFolderFrom([typo], {})).toThrow(
				`${typo} does not exist. n8n's data folder is the one n8n makes on its first start, holding its config file and database.sqlite: by default ~/.n8n ($N8N_USER_FOLDER/.n8n when that is set).`,
			);
			expect(existsSync(typo)).toBe(false);
		});
	});

	it("refuses a folder that holds n8n's data folder, naming that one", () => {
		const userFolder = mkdtempSync(join(tmpdir(), 'install-into-n8n-'));
		mkdirSync(join(userFolder, '.n8n'));
		try {
			expect(() => n8nFolderFrom([userFolder], {})).toThrow(
				`npm run install-into-n8n -- ${join(userFolder, '.n8n')}`,
			);
		} finally {
			rmSync(userFolder, { recursive: true, force: true });
		}
	});

	it('takes one folder and no other option', () => {
		expect(() => n8nFolderFrom(['a', 'b'], {})).toThrow('Usage');
		expect(() => n8nFolderFrom(['--to', 'a'], {})).toThrow('Usage');
	});
});
