import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { REPO_ROOT } from '../harness';

const run = promisify(execFile);

/**
 * scripts/package-scan.mjs, n8n's community package scan without the network (CI runs it on the
 * packed tarball): a violation planted in a built file, behind an inline `eslint-disable` as n8n's
 * scan ignores those, fails it and is named; the package as built passes with no finding at all.
 */
describe("n8n's package scan, offline", () => {
	let folder: string;
	/** A tarball of dist/ and package.json as `npm pack` lays it out, `plant` applied to a file. */
	const tarballOf = async (plant?: { file: string; code: string }) => {
		const unpacked = path.join(folder, `package-${plant ? 'planted' : 'as-built'}`);
		cpSync(path.join(REPO_ROOT, 'dist'), path.join(unpacked, 'package', 'dist'), {
			recursive: true,
		});
		cpSync(path.join(REPO_ROOT, 'package.json'), path.join(unpacked, 'package', 'package.json'));
		if (plant) {
			const file = path.join(unpacked, 'package', plant.file);
			writeFileSync(file, `${readFileSync(file, 'utf8')}\n${plant.code}\n`);
		}
		const tarball = `${unpacked}.tgz`;
		await run('tar', ['-czf', tarball, '-C', unpacked, 'package']);
		return tarball;
	};
	const scan = async (tarball: string) =>
		await run(process.execPath, [path.join(REPO_ROOT, 'scripts', 'package-scan.mjs'), tarball], {
			cwd: REPO_ROOT,
		}).then(
			({ stdout }) => ({ exitCode: 0, stdout }),
			(error: { code: number; stdout: string }) => ({
				exitCode: error.code,
				stdout: error.stdout,
			}),
		);

	beforeAll(() => {
		folder = mkdtempSync(path.join(tmpdir(), 'package-scan-test-'));
	});
	afterAll(() => rmSync(folder, { recursive: true, force: true }));

	it('passes the package as built, with no error and no warning', async () => {
		const { exitCode, stdout } = await scan(await tarballOf());
		expect({
			exitCode,
			failures: stdout.split('\n').filter((line) => line.includes('FAIL')),
		}).toEqual({ exitCode: 0, failures: [] });
		expect(stdout.match(/\d+ errors, \d+ warnings/g)).toEqual([
			'0 errors, 0 warnings',
			'0 errors, 0 warnings',
		]);
	}, 60_000);

	it('fails on a violation planted behind an eslint-disable comment, naming it', async () => {
		const { exitCode, stdout } = await scan(
			await tarballOf({
				file: 'dist/credentials/WootricApi.credentials.js',
				code: '// eslint-disable-next-line\nsetTimeout(() => console.log(process.env.HOME), 0);',
			}),
		);
		expect(exitCode).toBe(1);
		expect(stdout).toMatch(/FAIL dist\/credentials\/WootricApi\.credentials\.js:\d+ \S+/);
	}, 60_000);
});
