// n8n's community package scan, the part that needs no network: the two ESLint passes of
// @n8n/scan-community-package, with its own configuration (buildScanConfig) and inline
// `eslint-disable` comments ignored as it ignores them, over the packed tarball (`**/*.js` and
// package.json) and over the sources (package.json and `{nodes,credentials}/**`). Left out, as they
// need the registry or GitHub: the package's npm metadata, its provenance, the download of its source.
//
// Nothing is allowed: any error fails, as it fails n8n's verification (docs/maintainers/verification.md).
//
// Usage: node scripts/package-scan.mjs [<tarball>] (default: E2E_PACKAGE_TARBALL, else a fresh
// `npm pack` of the build in dist/).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';
import glob from 'fast-glob';
import { buildScanConfig } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// n8n's node rules (eslint-plugin-n8n-nodes-base) tell node files by their names differently under
// NODE_ENV=test, their own tests' setting (jest sets it for ours): the scan runs as n8n's does.
if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;

/** The scanner's passes: where, and which files (its SOURCE_FILE_PATTERNS and tarball patterns). */
const passes = (unpacked) => [
	{ name: 'the packed tarball', cwd: unpacked, patterns: ['**/*.js', 'package.json'] },
	{
		name: 'the sources',
		cwd: root,
		patterns: ['package.json', '{nodes,credentials}/**/*.{js,ts,json}'],
	},
];

function packed() {
	const given = process.argv[2] ?? process.env.E2E_PACKAGE_TARBALL;
	if (given) return { tarball: path.resolve(given), made: undefined };
	const made = mkdtempSync(path.join(tmpdir(), 'package-scan-pack-'));
	const [{ filename }] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', made], { cwd: root }),
	);
	return { tarball: path.join(made, filename), made };
}

const { tarball, made } = packed();
const unpacked = mkdtempSync(path.join(tmpdir(), 'package-scan-'));
try {
	execFileSync('tar', ['-xzf', tarball, '--strip-components=1', '-C', unpacked]);
	const eslint = (cwd) =>
		buildScanConfig().then(
			(overrideConfig) =>
				new ESLint({ cwd, allowInlineConfig: false, overrideConfigFile: true, overrideConfig }),
		);
	let failed = 0;
	for (const pass of passes(unpacked)) {
		const files = glob.sync(pass.patterns, {
			cwd: pass.cwd,
			absolute: true,
			ignore: ['node_modules/**', '**/package-lock.json'],
		});
		const results = await (await eslint(pass.cwd)).lintFiles(files);
		const findings = results.flatMap((result) =>
			result.messages.map((message) => ({
				file: path.relative(pass.cwd, result.filePath),
				line: message.line,
				ruleId: message.ruleId,
				severity: message.severity === 2 ? 'error' : 'warning',
				message: message.message,
			})),
		);
		const errors = findings.filter((finding) => finding.severity === 'error');
		console.log(
			`[package-scan] ${pass.name}: ${files.length} files, ${errors.length} errors, ${findings.length - errors.length} warnings`,
		);
		for (const finding of findings)
			console.log(
				`  ${finding.severity === 'error' ? 'FAIL' : 'warning'} ${finding.file}:${finding.line} ${finding.ruleId}: ${finding.message}`,
			);
		failed += errors.length;
	}
	if (failed > 0) {
		console.error(`[package-scan] ${failed} findings n8n's scan would refuse the package for`);
		process.exitCode = 1;
	}
} finally {
	rmSync(unpacked, { recursive: true, force: true });
	if (made) rmSync(made, { recursive: true, force: true });
}
