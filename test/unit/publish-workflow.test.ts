import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';

/**
 * .github/workflows/publish.yml cannot run here (it runs on GitHub when a version tag is pushed), so
 * this checks what can be checked: it is valid YAML, starts on version tags only, may sign the
 * provenance statement, and publishes only after both tiers of checks have passed in the same job: CI's
 * own, .ci/run, and the release tier, `npm run test:release`.
 */
const REPO_ROOT = join(__dirname, '..', '..');
const WORKFLOW_FILE = join(REPO_ROOT, '.github', 'workflows', 'publish.yml');

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	if?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
	'continue-on-error'?: unknown;
}

interface Job {
	'runs-on': string;
	permissions?: Record<string, string>;
	if?: string;
	steps: Step[];
}

interface Workflow {
	on: unknown;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

function parseWorkflow(text: string): Workflow {
	const document = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
	const problems = [...document.errors, ...document.warnings];
	if (problems.length > 0) throw new Error(problems.map((problem) => problem.message).join('\n'));
	return document.toJS() as Workflow;
}

const workflow = parseWorkflow(readFileSync(WORKFLOW_FILE, 'utf8'));
const jobs = Object.values(workflow.jobs);
const steps = jobs[0].steps;

/** The command lines of a step's `run`, comments and blank lines left out. */
function commandLines(step: Step): string[] {
	return (step.run ?? '')
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line !== '' && !line.startsWith('#'));
}

function indexOfStep(matches: (step: Step) => boolean, what: string): number {
	const indices = steps.flatMap((step, index) => (matches(step) ? [index] : []));
	if (indices.length !== 1)
		throw new Error(`expected one step that ${what}, found ${indices.length}`);
	return indices[0];
}

const ciStep = indexOfStep((step) => commandLines(step).includes('bash .ci/run'), 'runs .ci/run');
const releaseStep = indexOfStep(
	(step) => commandLines(step).includes('npm run test:release'),
	'runs npm run test:release',
);
const publishStep = indexOfStep(
	(step) => commandLines(step).some((line) => /^npm publish\b/.test(line)),
	'runs npm publish',
);
const tagStep = indexOfStep(
	(step) => (step.run ?? '').includes('GITHUB_REF_NAME'),
	"checks the tag against package.json's version",
);

/** Runs a step's script as GitHub's runner does (bash -e -o pipefail), in `cwd`. */
function runStep(step: Step, cwd: string, env: Record<string, string> = {}) {
	return spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run ?? ''], {
		cwd,
		env: { ...process.env, ...env },
		encoding: 'utf8',
	});
}

describe('the publish workflow', () => {
	it('is valid YAML with one job on a GitHub-hosted Ubuntu runner', () => {
		expect(jobs).toHaveLength(1);
		expect(jobs[0]['runs-on']).toBe('ubuntu-latest');
		expect(jobs[0].if).toBeUndefined();
	});

	it('checks out this repository only: the checks read nothing beside it', () => {
		const checkouts = steps.filter((step) => step.uses?.startsWith('actions/checkout@'));
		expect(checkouts).toEqual([{ uses: 'actions/checkout@v4' }]);
	});

	it('starts on pushed version tags only', () => {
		expect(workflow.on).toEqual({ push: { tags: ['v*.*.*'] } });
	});

	it('may mint the OIDC token that signs the provenance, and write nothing', () => {
		const permissions = { ...workflow.permissions, ...jobs[0].permissions };
		expect(permissions).toEqual({ 'id-token': 'write', contents: 'read' });
	});

	it('publishes with provenance, as a public package, as its last step', () => {
		expect(commandLines(steps[publishStep])).toContain('npm publish --provenance --access public');
		expect(publishStep).toBe(steps.length - 1);
	});

	it("runs CI's checks, .ci/run, itself, unconditionally, before publishing", () => {
		expect(commandLines(steps[ciStep])).toEqual(['bash .ci/run']);
		expect(ciStep).toBeLessThan(publishStep);
		for (const step of [steps[ciStep], steps[publishStep]]) expect(step.if).toBeUndefined();
		for (const step of steps) expect(step['continue-on-error']).toBeUndefined();
		// .ci/run is the file CI runs: it still runs the test suite (a renamed script would leave the
		// workflow running nothing), with at most options for jest.
		expect(readFileSync(join(REPO_ROOT, '.ci', 'run'), 'utf8')).toMatch(
			/^stage '[^']+' (env( [A-Z_]+=\S+)+ )?npm test( -- --[a-zA-Z]+=\S+)*$/m,
		);
	});

	it('runs the suites npm test leaves for later there (TEST_REAL_TIME=later), each after the provisioning', () => {
		const ciRun = readFileSync(join(REPO_ROOT, '.ci', 'run'), 'utf8');
		// jest.config.js as jest reads it, in a process of its own with the variable set or not.
		const ignoredBy = (env: Record<string, string>): string[] => {
			const printed = spawnSync(
				process.execPath,
				['-p', "JSON.stringify(require('./jest.config.js').testPathIgnorePatterns)"],
				{ cwd: REPO_ROOT, env: { ...process.env, TEST_REAL_TIME: '', ...env }, encoding: 'utf8' },
			);
			return JSON.parse(printed.stdout) as string[];
		};
		const always = ignoredBy({});
		const later = ignoredBy({ TEST_REAL_TIME: 'later' }).filter(
			(pattern) => !always.includes(pattern),
		);
		expect(later.length).toBeGreaterThan(0);
		expect(ciRun).toMatch(/TEST_REAL_TIME=later npm test$/m);
		const provisioned = ciRun.indexOf('wait "$prepare_pid"');
		const laterRun = ciRun.match(/^stage '[^']+' (?:env (?:[A-Z_]+=\S+ )+)?npx jest ([^|\n]+)/m);
		expect(laterRun?.index).toBeGreaterThan(provisioned);
		const paths = (laterRun?.[1] ?? '').trim().split(/\s+/);
		for (const pattern of later) expect(paths).toContain(pattern.replace('<rootDir>/', ''));
	});

	it('runs the release tier, npm run test:release, after .ci/run and before publishing, unconditionally', () => {
		expect(commandLines(steps[releaseStep])).toEqual(['npm run test:release']);
		expect(ciStep).toBeLessThan(releaseStep);
		expect(releaseStep).toBeLessThan(publishStep);
		expect(steps[releaseStep].if).toBeUndefined();
		// The release tier is the version checks on the matrix's other n8n versions, then the ticket
		// examples on every version; a part that fails fails the tier, after the others ran.
		const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
		expect(scripts['test:release']).toBe('bash scripts/e2e/release-checks.sh');
		const releaseChecks = readFileSync(
			join(REPO_ROOT, 'scripts', 'e2e', 'release-checks.sh'),
			'utf8',
		);
		expect(releaseChecks).toMatch(
			/^timed '[^']+' bash scripts\/e2e\/matrix\.sh --others \|\| failed=1$/m,
		);
		expect(releaseChecks).toMatch(/npm run --silent test:e2e:tickets \|\| failed=1$/m);
		expect(releaseChecks).toMatch(/^exit \$failed\n$/m);
	});

	it('installs what .ci/run needs root for (every e2e script that calls apt-get) before it', () => {
		const folder = join(REPO_ROOT, 'scripts', 'e2e');
		const installers = readdirSync(folder).filter(
			(file) =>
				file.endsWith('.sh') &&
				/apt-get( -o \S+)* install/.test(readFileSync(join(folder, file), 'utf8')),
		);
		expect(installers).toEqual(expect.arrayContaining(['queue-services.sh', 'chromium.sh']));
		for (const installer of installers) {
			const install = indexOfStep(
				(step) => commandLines(step).includes(`sudo bash scripts/e2e/${installer}`),
				`runs ${installer}`,
			);
			expect(install).toBeLessThan(ciStep);
		}
	});

	it("refuses a tag that is not v + package.json's version, before the checks", () => {
		expect(tagStep).toBeLessThan(ciStep);
		const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
		expect(runStep(steps[tagStep], REPO_ROOT, { GITHUB_REF_NAME: `v${version}` }).status).toBe(0);
		for (const tag of [version, `v${version}.1`, 'v0.0.0-never']) {
			const result = runStep(steps[tagStep], REPO_ROOT, { GITHUB_REF_NAME: tag });
			expect(result.status).toBe(1);
			expect(result.stdout).toContain(`::error::Tag ${tag} does not match`);
		}
	});

	it("refuses a package.json that does not name the repository, as npm's provenance check would", () => {
		const repositoryStep = indexOfStep(
			(step) => (step.run ?? '').includes('GITHUB_REPOSITORY'),
			'checks package.json against the repository',
		);
		expect(repositoryStep).toBeLessThan(ciStep);
		const folder = mkdtempSync(join(tmpdir(), 'publish-workflow-'));
		const check = (repository: unknown) => {
			writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'x', repository }));
			return runStep(steps[repositoryStep], folder, {
				GITHUB_REPOSITORY: 'Owner/n8n-nodes-wootric',
			});
		};
		try {
			for (const named of [
				{ type: 'git', url: 'git+https://github.com/Owner/n8n-nodes-wootric.git' },
				{ type: 'git', url: 'https://github.com/owner/n8n-nodes-wootric' },
				'github:Owner/n8n-nodes-wootric',
			])
				expect(check(named).status).toBe(0);
			for (const wrong of [
				undefined,
				{ type: 'git', url: '' },
				{ type: 'git', url: 'git+https://github.com/someone-else/n8n-nodes-wootric.git' },
				{ type: 'git', url: 'git+https://github.com/Owner/n8n-nodes-wootric-fork.git' },
			]) {
				const result = check(wrong);
				expect(result.status).toBe(1);
				expect(result.stdout).toContain('::error::package.json: "repository.url" is');
			}
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});
});
