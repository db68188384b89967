/**
 * n8n's editor in Debian's Chromium, driven by playwright-core: the browser, what its console says,
 * and the few moves a person makes in the editor (log in, pick from a dropdown, add a node). n8n's
 * editor marks its elements with data-test-id.
 */
import { join } from 'node:path';

import { chromium, selectors, type Browser, type Locator, type Page } from 'playwright-core';

import { REPO_ROOT } from '../../scripts/e2e/paths';
import { runCommand } from '../../scripts/e2e/processes';

const LOOPBACK_URL = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/;

/**
 * The editor's requests for the package's output schemas (/schemas/<node type>/<version>/
 * <resource>/<operation>.json, or /schemas/<node type>/<version>.json for a trigger), which it makes
 * to preview a node's fields before it has run.
 */
const SCHEMA_REQUEST = /\/schemas\/n8n-nodes-wootric\.[A-Za-z]+\/[\d.]+(\/[^/]+\/[^/]+)?\.json$/;

export class Editor {
	/** Errors the page reported since the last takeConsoleErrors(), with the URL they concern. */
	private consoleErrors: string[] = [];
	/** Requests to other hosts, refused so that nothing leaves this machine. */
	readonly refusedRequests: string[] = [];
	/** The editor's requests for the package's output schemas, as `<status> <path>`. */
	readonly schemaRequests: string[] = [];

	private constructor(
		private readonly browser: Browser,
		readonly page: Page,
		readonly baseUrl: string,
	) {
		page.on('console', (message) => {
			if (message.type() !== 'error') return;
			const url = message.location().url;
			// The refusal below shows as "net::ERR_FAILED"; n8n's editor asks the npm registry about
			// the installed package from the browser.
			if (url && !LOOPBACK_URL.test(url)) return;
			this.consoleErrors.push(`${message.text()}${url ? ` (${url})` : ''}`);
		});
		page.on('pageerror', (error) => this.consoleErrors.push(`uncaught: ${error.message}`));
		page.on('response', (response) => {
			const { pathname } = new URL(response.url());
			if (SCHEMA_REQUEST.test(pathname))
				this.schemaRequests.push(`${response.status()} ${pathname}`);
		});
	}

	/**
	 * Chromium headless on n8n's editor at `baseUrl`; Chromium is installed when missing. Every
	 * request to a host other than this machine is refused, through a proxy that does not exist and
	 * a route that aborts it.
	 */
	static async open(baseUrl: string): Promise<Editor> {
		const { stdout } = await runCommand(
			'bash',
			[join(REPO_ROOT, 'scripts', 'e2e', 'chromium.sh')],
			{
				timeoutMs: 600_000,
			},
		);
		selectors.setTestIdAttribute('data-test-id');
		const browser = await chromium.launch({
			executablePath: stdout.trim(),
			headless: true,
			proxy: { server: 'http://127.0.0.1:9', bypass: '127.0.0.1,localhost' },
		});
		const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		page.setDefaultTimeout(30_000);
		const editor = new Editor(browser, page, baseUrl);
		await page.route(
			(url) => !LOOPBACK_URL.test(url.href),
			async (route) => {
				editor.refusedRequests.push(route.request().url());
				await route.abort();
			},
		);
		return editor;
	}

	async close(): Promise<void> {
		await this.browser.close();
	}

	/** The errors since the last call, and forgets them. */
	takeConsoleErrors(): string[] {
		return this.consoleErrors.splice(0);
	}

	async logIn(email: string, password: string): Promise<void> {
		await this.page.goto(`${this.baseUrl}/signin`);
		await this.page.getByTestId('emailOrLdapLoginId').locator('input').fill(email);
		await this.page.getByTestId('password').locator('input').fill(password);
		await this.page.getByTestId('form-submit-button').click();
		await this.page.waitForURL((url) => !url.pathname.includes('signin'));
		// Before logging in, the editor's first look at /rest/login answers 401: not an error.
		this.takeConsoleErrors();
	}

	/** The open dropdown's options, as their headlines read. */
	visibleOptions(): Locator {
		return this.page.locator('.el-select-dropdown__item:visible');
	}

	/** Opens the dropdown of parameter `name` inside `scope` and picks the option reading `option`. */
	async pick(scope: Locator, name: string, option: string): Promise<void> {
		await scope.getByTestId(`parameter-input-${name}`).click();
		await this.visibleOptions()
			.filter({ has: this.page.getByText(option, { exact: true }) })
			.first()
			.click();
	}

	/** The headlines of the options of parameter `name`'s dropdown; closes it again. */
	async optionsOf(scope: Locator, name: string): Promise<string[]> {
		const options = this.visibleOptions();
		// A dropdown whose options depend on another parameter reloads them after that one changes,
		// and a click during the reload does not open it: click again.
		for (let attempt = 1; ; attempt++) {
			await scope.getByTestId(`parameter-input-${name}`).click();
			try {
				await options.first().waitFor({ timeout: 5_000 });
				break;
			} catch (error) {
				if (attempt === 4) throw error;
			}
		}
		const headlines = await options.evaluateAll((items) =>
			items.map(
				(item) => (item.querySelector('.option-headline') ?? item).textContent?.trim() ?? '',
			),
		);
		await this.page.keyboard.press('Escape');
		return headlines;
	}

	/** The names of the parameters the open node shows, in order (their labels are `for` them). */
	async shownParameterNames(): Promise<string[]> {
		return await this.ndv
			.getByTestId('node-parameters')
			.getByTestId('parameter-item')
			.evaluateAll((items) =>
				items
					.filter((item) => item.checkVisibility())
					.flatMap((item) => {
						const name = item
							.querySelector('[data-test-id="input-label"] label')
							?.getAttribute('for');
						return name ? [name] : [];
					}),
			);
	}

	/**
	 * The fields the open node's input panel lists for a parent that has not run, from the parent's
	 * output schema ("Usually outputs the following fields"); waits for that preview.
	 */
	async previewedInputFields(): Promise<string[]> {
		const input = this.ndv.getByTestId('ndv-input-panel');
		await input.getByTestId('schema-preview-warning').waitFor();
		return (await input.getByTestId('run-data-schema-item').allInnerTexts()).map(
			(text) => text.trim().split(/\s/)[0],
		);
	}

	get ndv(): Locator {
		return this.page.getByTestId('ndv');
	}

	/** The node creator's entry named exactly `name`, after searching for it. */
	async searchNodes(text: string): Promise<Locator> {
		await this.page.getByTestId('node-creator-search-bar').fill(text);
		return this.page.getByTestId('item-iterator-item');
	}

	async openNodeEntry(name: string): Promise<void> {
		await this.page.getByTestId('node-creator-item-name').getByText(name, { exact: true }).click();
	}

	/** The node creator's entry of an operation whose action reads exactly `action`. */
	actionEntry(action: string): Locator {
		return this.page
			.getByTestId('item-iterator-item')
			.filter({ has: this.page.getByText(action, { exact: true }) })
			.first();
	}

	async chooseAction(action: string): Promise<void> {
		await this.actionEntry(action).click();
	}

	/**
	 * Waits until the open node has its credential. n8n fills in the user's credential when a node is
	 * added, but under load a moment later (it refreshes which credentials the workflow may use once
	 * the workflow is saved), and a run before that goes without one. A user then picks it: so does
	 * this, after 10 s.
	 */
	async waitForNodeCredential(): Promise<void> {
		const select = this.ndv.getByTestId('node-credentials-select').first();
		const input = select.locator('input').first();
		const filledWithin = async (ms: number) => {
			for (
				const deadline = Date.now() + ms;
				Date.now() < deadline;
				await this.page.waitForTimeout(200)
			)
				if ((await input.inputValue()) !== '') return true;
			return false;
		};
		await input.waitFor();
		if (await filledWithin(10_000)) return;
		await select.click();
		await this.page
			.locator(
				'[data-test-id^="node-credentials-select-item-"]:not([data-test-id$="-item-new"]):not([data-test-id$="-n8n-credits"])',
			)
			.first()
			.click();
		if (!(await filledWithin(10_000)))
			throw new Error("The node's credential is still empty after picking it");
	}

	/** Waits until the open node's title reads `name`: n8n renames a node a moment after a change. */
	async waitForNodeName(name: string): Promise<void> {
		await this.ndv
			.getByTestId('node-title-container')
			.getByTestId('inline-edit-preview')
			.getByText(name, { exact: true })
			.waitFor();
	}

	/**
	 * Waits until the output panel shows `count` items ("3 items"): under load the panel can still
	 * show an earlier run's count for a moment.
	 */
	async waitForOutputItems(count: number): Promise<void> {
		await this.page
			.getByTestId('output-panel')
			.getByText(new RegExp(`^${count} items?$`))
			.first()
			.waitFor({ timeout: 60_000 });
	}

	/** Waits until no node shows n8n's issues badge: n8n checks parameters a moment after a change. */
	async waitForNoNodeIssues(): Promise<void> {
		await this.page
			.getByTestId('node-issues')
			.first()
			.waitFor({ state: 'detached', timeout: 15_000 });
	}

	async screenshot(folder: string, name: string): Promise<string> {
		const file = join(folder, `${name}.png`);
		await this.page.screenshot({ path: file });
		return file;
	}
}
