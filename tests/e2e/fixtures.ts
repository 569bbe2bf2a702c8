import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page, type Response } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { isOperationPath, violations } from '../helpers/contract';
import { startServer, stopAllServers, type TestServer } from '../helpers/server';

/**
 * Browser-test helpers. Each worker starts the built app (`node scripts/serve.js`) on a fresh
 * data directory and a free port, with the outbound policy opened to the loopback address (the
 * tests' own upstreams) and their test certificate trusted; every test of the worker uses it as
 * its `baseURL`. Tests run signed in as the admin that app creates from ADMIN_EMAIL /
 * ADMIN_PASSWORD: the admin signs in once per worker and the session cookie is reused. A test
 * that signs in or out itself must use a fresh context (`signedOut`), since signing in again or
 * out with the shared cookie would end the shared session.
 */

export { expect };
export const ADMIN = { email: 'admin@example.com', password: 'correct horse battery staple' };

/** An empty storage state, for `test.use({ storageState: signedOut })`. */
export const signedOut = { cookies: [], origins: [] };

export const test = base.extend<
	object,
	{ app: TestServer; adminState: string; appEnv: Record<string, string> }
>({
	// More of the app's environment for a file's worker (`test.use({ appEnv })`): such a file
	// runs in a worker, and on a server, of its own.
	appEnv: [{}, { scope: 'worker', option: true }],
	app: [
		async ({ appEnv }, use) => {
			const app = await startServer({
				readyTimeoutMs: 60_000,
				env: {
					ADMIN_EMAIL: ADMIN.email,
					ADMIN_PASSWORD: ADMIN.password,
					OUTBOUND_ALLOW: '127.0.0.1/32',
					OUTBOUND_PORTS: '1024-65535',
					NODE_EXTRA_CA_CERTS: path.resolve('tests/fixtures/tls/cert.pem'),
					...appEnv
				}
			});
			await use(app);
			await app.stop();
			await stopAllServers();
		},
		{ scope: 'worker', timeout: 90_000 }
	],
	baseURL: ({ app }, use) => use(app.url),
	adminState: [
		async ({ browser, app }, use, workerInfo) => {
			const dir = path.join(workerInfo.project.outputDir, '.auth');
			mkdirSync(dir, { recursive: true });
			const file = path.join(dir, `admin-${workerInfo.workerIndex}.json`);
			const context = await browser.newContext({ baseURL: app.url });
			const page = await context.newPage();
			await signIn(page, ADMIN.email, ADMIN.password);
			await context.storageState({ path: file });
			await context.close();
			await use(file);
		},
		{ scope: 'worker' }
	],
	storageState: ({ adminState }, use) => use(adminState),
	// A route a test set (a held chunk, a held worker) may still be answering a late request when
	// the test ends; its page is closing then, and what the handler does fails. That is not the
	// test's failure: the routes are removed first, and errors of handlers still running ignored.
	// Every answer the pages receive from the API is held to the published document, as the
	// server tests' answers are (`tests/helpers/contract.ts`).
	page: async ({ page }, use) => {
		const checks: Promise<string[]>[] = [];
		page.on('response', (response) => checks.push(apiViolations(response)));
		await use(page);
		await page.unrouteAll({ behavior: 'ignoreErrors' });
		const found = (await Promise.all(checks)).flat();
		expect(found, "answers the API's document does not describe").toEqual([]);
	}
});

/**
 * What the published document says is wrong with an answer the page received from the app's
 * API, its gateway or its sinks; nothing for other answers. An event stream, a download, and a
 * body the browser no longer holds (the page went on) are checked by their status and headers.
 */
async function apiViolations(response: Response): Promise<string[]> {
	const url = new URL(response.url());
	if (url.hostname !== '127.0.0.1') return [];
	if (!isOperationPath(url.pathname)) return [];
	const all = await response.allHeaders().catch(() => undefined);
	// The page closed before the answer's headers were read: nothing to hold.
	if (!all) return [];
	const headers = new Headers(all);
	// An event stream never ends; an attachment goes to the browser's downloads, and the page's
	// answer keeps no body.
	const unread =
		(headers.get('content-type') ?? '').startsWith('text/event-stream') ||
		/^attachment\b/i.test(headers.get('content-disposition') ?? '');
	const text = unread ? undefined : await response.text().catch(() => undefined);
	return violations({
		method: response.request().method(),
		url: url.href,
		status: response.status(),
		headers,
		text
	});
}

/** Signs in through the sign-in page and waits until it is left. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
	await page.goto('/login');
	await page.getByLabel('E-mail').fill(email);
	await page.getByLabel('Password').fill(password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL((url) => url.pathname !== '/login');
}

/** An e-mail address no other test uses. */
export function uniqueEmail(prefix: string): string {
	return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/** A name no other test uses. */
export function uniqueName(prefix: string): string {
	return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** A password good enough for the server (12 characters at least). */
export const PASSWORD = 'a long enough password';

/** Creates a user on the admin's Users page (the page must be signed in as an admin). */
export async function createUser(
	page: Page,
	user: { email: string; name: string; role: 'admin' | 'editor' | 'viewer'; password?: string }
): Promise<void> {
	await page.goto('/admin/users');
	const form = page.getByRole('region', { name: 'Create a user' });
	await form.getByLabel('E-mail').fill(user.email);
	await form.getByLabel('Name').fill(user.name);
	await form.getByLabel('Role').selectOption(user.role);
	await form.getByLabel('Initial password').fill(user.password ?? PASSWORD);
	await form.getByRole('button', { name: 'Create user' }).click();
	await expect(page.getByRole('status')).toContainText(`Created ${user.email}`);
}

/** Creates a profile on the Profiles page, which opens it, and returns its id. */
export async function createProfile(page: Page, name: string): Promise<string> {
	await page.goto('/profiles');
	await page.getByLabel('Name', { exact: true }).fill(name);
	await page.getByRole('button', { name: 'Create profile' }).click();
	await page.waitForURL(/\/profiles\/[^/?]+\?created$/);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
	return new URL(page.url()).pathname.split('/').pop()!;
}

/**
 * Creates an echo sink on the Sinks page, which opens it, and returns its address. The address is
 * read on the new sink's own page: the list of sinks shows the addresses of the others.
 */
export async function createSink(page: Page, name: string): Promise<string> {
	await page.goto('/sinks');
	await page.getByLabel('Name', { exact: true }).fill(name);
	await page.getByRole('button', { name: 'Create sink' }).click();
	await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
	return (await page.locator('code').first().textContent())!;
}

/** Creates an echo sink (see {@link createSink}) that answers 200 with `answer` as JSON. */
export function createJsonSink(page: Page, name: string, answer: unknown): Promise<string> {
	return createAnsweringSink(page, name, 'application/json', JSON.stringify(answer));
}

/** Creates an echo sink (see {@link createSink}) that answers 200 with this body. */
export async function createAnsweringSink(
	page: Page,
	name: string,
	contentType: string,
	body: string
): Promise<string> {
	const address = await createSink(page, name);
	await page.getByLabel('Status').fill('200');
	await page.getByLabel('Content type').fill(contentType);
	await page.getByLabel('Body').fill(body);
	await page.getByRole('button', { name: 'Save the answer' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'now answers 200' })).toBeVisible();
	return address;
}

/**
 * Runs `check` at a phone's and a laptop's width, light and dark, each as a step; after each the
 * page must not scroll sideways, and two of them (phone light, laptop dark) are checked by axe.
 */
export async function atEveryWidthAndScheme(
	page: Page,
	check: (width: number, scheme: 'light' | 'dark') => Promise<void>
): Promise<void> {
	for (const width of [390, 1440]) {
		for (const scheme of ['light', 'dark'] as const) {
			await base.step(`${width} px, ${scheme}`, async () => {
				await page.setViewportSize({ width, height: 900 });
				await page.emulateMedia({ colorScheme: scheme });
				await check(width, scheme);
				const { scrollWidth, innerWidth } = await page.evaluate(() => ({
					scrollWidth: document.scrollingElement!.scrollWidth,
					innerWidth: window.innerWidth
				}));
				expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(innerWidth);
				if ((width === 390 && scheme === 'light') || (width === 1440 && scheme === 'dark')) {
					await expectAccessible(page);
				}
			});
		}
	}
}

/**
 * Screenshots of the page's first screen and of `part`, into the folder `LAYOUT_SCREENSHOTS`
 * names (nothing without it), to look at by eye.
 */
export async function layoutScreenshot(page: Page, part: Locator, name: string): Promise<void> {
	const dir = process.env.LAYOUT_SCREENSHOTS;
	if (!dir) return;
	mkdirSync(dir, { recursive: true });
	await page.evaluate(() => window.scrollTo(0, 0));
	await page.screenshot({ path: path.join(dir, `${name}-editor.png`) });
	await part.screenshot({ path: path.join(dir, `${name}-panel.png`) });
}

/**
 * Clicks the completion option named `name` until `field` reads `expected`. CodeMirror ignores
 * the list's commands for 75 ms after it opens or changes (`interactionDelay`), so that keys
 * typed before a person sees it do not pick from it; a busy machine's click can fall into that.
 */
export async function pickCompletion(
	page: Page,
	name: RegExp,
	field: Locator,
	expected: string
): Promise<void> {
	await expect(async () => {
		await page.getByRole('option', { name }).click({ timeout: 1000 });
		await expect(field).toHaveText(expected, { timeout: 1000 });
	}).toPass();
}

/**
 * axe, run in the page itself and asked for violations only. The builder's default runs axe in
 * parts and combines them in a blank page it opens for each check, which costs more than the
 * check (these pages have no frames to combine); and passing results are never read here.
 */
export function axe(page: Page): AxeBuilder {
	return new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
}

/**
 * Runs axe on the page as it is (every rule, only `rules`, or all but `except`) and expects no
 * violations.
 */
export async function expectAccessible(
	page: Page,
	{ rules, except }: { rules?: string[]; except?: string[] } = {}
): Promise<void> {
	let builder = axe(page);
	if (rules) builder = builder.withRules(rules);
	if (except) builder = builder.disableRules(except);
	const results = await builder.analyze();
	const found = results.violations.map(
		(v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`
	);
	expect(found).toEqual([]);
}

/**
 * Holds back the page's code chunk that contains `marker` (a string of the component's own),
 * whenever the page asks for it, until the returned function is called: what the page does
 * before that code arrives can be tested without depending on timing. `files` narrows the
 * scripts looked at (a worker's script shares its strings with the chunks it was built from).
 */
export async function holdChunk(
	page: Page,
	marker: string,
	files = '**/_app/immutable/**/*.js'
): Promise<() => void> {
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	await page.route(files, async (route) => {
		const response = await route.fetch();
		const body = await response.text();
		if (body.includes(marker)) await released;
		await route.fulfill({ response, body });
	});
	return release;
}

/**
 * What the page writes to the clipboard, kept in the page as it writes it: the system clipboard is
 * shared by every browser the tests run at once, so another test's copy can land before it is
 * read back. Call before the click that copies; the write still goes to the real clipboard.
 */
export async function watchClipboard(page: Page): Promise<() => Promise<string | undefined>> {
	await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
	await page.evaluate(() => {
		const kept = window as unknown as { __copied?: string };
		const write = navigator.clipboard.writeText.bind(navigator.clipboard);
		navigator.clipboard.writeText = (text: string) => {
			kept.__copied = text;
			return write(text);
		};
	});
	return () => page.evaluate(() => (window as unknown as { __copied?: string }).__copied);
}
