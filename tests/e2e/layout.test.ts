import type { Browser, Locator, Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
	createProfile,
	createUser,
	expect,
	expectAccessible,
	PASSWORD,
	signedOut,
	signIn,
	test,
	uniqueEmail,
	uniqueName
} from './fixtures';

/**
 * Every page at a phone's, a tablet's, a laptop's and a large screen's width: nothing scrolls
 * sideways, the page has the scheme's background, and on the editor the fields stay in their
 * boxes. Light at every width, dark at the phone's and the laptop's: the schemes change colours
 * only (the layout of a width is the same in both), and those two widths are the two layouts the
 * others resemble. axe runs every rule twice per page: at the phone's width in the light scheme
 * and at a laptop's in the dark one. What axe checks hardly depends on the width, so its contrast
 * rule sees both schemes and its other rules both layouts. With
 * LAYOUT_SCREENSHOTS=<directory> every combination is also saved as a screenshot to look at.
 */

const WIDTHS = [390, 768, 1440, 1920];
/**
 * A page of reading width is capped at 72rem (1152 px) from the laptop's width on, so at 1920 px
 * it is the 1440 px layout, centred: the large screen is checked on the pages that spread over
 * it (the editors, the push composer, the API reference).
 */
const READING_WIDTHS = WIDTHS.filter((w) => w !== 1920);
const SPREADS = /^\/(services\/|profiles\/[^/]+\/services\/|push$|api\/docs)/;
const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];
/** The widths the dark scheme is checked at (see above). */
const DARK_WIDTHS = [390, 1440];
/** The page's background in each scheme (app.css). */
const BACKGROUND: Record<Scheme, string> = {
	light: 'rgb(255, 255, 255)',
	dark: 'rgb(15, 20, 25)'
};
/** The background of panels and tooltips in each scheme. */
const PANEL: Record<Scheme, string> = {
	light: 'rgb(246, 248, 250)',
	dark: 'rgb(22, 27, 34)'
};

/** A URL template of exactly 300 characters that ends with a placeholder. */
function longUrl(origin: string, sinkPath: string): string {
	const start = `${origin}${sinkPath}send?token=`;
	const end = '&to=%sms_to%';
	return start + 'a1b2c3d4e5'.repeat(30).slice(0, 300 - start.length - end.length) + end;
}

interface Fixture {
	profile: string;
	sink: string;
	url: string;
}

let fixture: Promise<Fixture> | undefined;

/** One profile (with a 300-character URL) and one sink with a request, shared by the tests. */
function shared(page: Page): Promise<Fixture> {
	fixture ??= (async () => {
		const profile = await createProfile(page, uniqueName('Layout'));
		const origin = new URL(page.url()).origin;
		const headers = { origin };
		const created = await page.request.post('/api/sinks', {
			headers,
			data: { name: uniqueName('Layout sink') }
		});
		expect(created.status()).toBe(201);
		const { sink } = (await created.json()) as { sink: { key: string; path: string } };
		const url = longUrl(origin, sink.path);
		expect(url).toHaveLength(300);
		const saved = await page.request.put(`/api/profiles/${profile}`, {
			headers,
			data: {
				baseRevision: 1,
				document: {
					services: {
						sendMessage: {
							genericSmsSendUrl: url,
							genericSmsSendPostData: 'to=%sms_to%&unknown=%no_such_name%'
						}
					}
				}
			}
		});
		expect(saved.status()).toBe(200);
		// A request with a long path and header, for the sink's list of received requests.
		const received = await page.request.post(`${sink.path}${'long-path-segment/'.repeat(12)}`, {
			headers: { 'x-long-header': 'v'.repeat(400) },
			data: { hello: 'world'.repeat(60) }
		});
		expect(received.ok()).toBe(true);
		return { profile, sink: sink.key, url };
	})();
	return fixture;
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
	const { scrollWidth, innerWidth } = await page.evaluate(() => ({
		scrollWidth: document.scrollingElement!.scrollWidth,
		innerWidth: window.innerWidth
	}));
	expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(innerWidth);
}

async function expectSchemeBackground(page: Page, scheme: Scheme): Promise<void> {
	const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
	expect(background, `the page's background in the ${scheme} scheme`).toBe(BACKGROUND[scheme]);
}

async function screenshot(page: Page, name: string): Promise<void> {
	const dir = process.env.LAYOUT_SCREENSHOTS;
	if (!dir) return;
	mkdirSync(dir, { recursive: true });
	await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/**
 * Runs the common checks, then `more`, at every width, light and (where it is checked) dark. The
 * page is loaded again at each width, as a browser on that screen would load it.
 */
async function atEveryWidth(
	page: Page,
	address: string,
	name: string,
	more?: (width: number, scheme: Scheme) => Promise<void>
): Promise<void> {
	for (const width of SPREADS.test(address) ? WIDTHS : READING_WIDTHS) {
		await page.setViewportSize({ width, height: 900 });
		for (const scheme of SCHEMES) {
			if (scheme === 'dark' && !DARK_WIDTHS.includes(width)) continue;
			await test.step(`${width} px, ${scheme}`, async () => {
				await page.emulateMedia({ colorScheme: scheme });
				if (scheme === 'light') {
					await page.goto(address);
					await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
				}
				await screenshot(page, `${name}-${width}-${scheme}`);
				await expectNoSidewaysScroll(page);
				await expectSchemeBackground(page, scheme);
				if (axeAt(width, scheme)) await expectAccessible(page);
				await more?.(width, scheme);
			});
		}
	}
}

/** Whether axe runs at a width in a scheme: the phone's in light, the laptop's in dark. */
function axeAt(width: number, scheme: Scheme): boolean {
	return (width === 390 && scheme === 'light') || (width === 1440 && scheme === 'dark');
}

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
	const found = await locator.boundingBox();
	expect(found, `${locator} has a box`).not.toBeNull();
	return found!;
}

/** Where the element is on the page (not in the viewport, which scrolls). */
async function placeOnPage(locator: Locator): Promise<[number, number]> {
	return locator.evaluate((el) => {
		const r = el.getBoundingClientRect();
		return [r.x + scrollX, r.y + scrollY];
	});
}

function overlap(a: Box, b: Box): boolean {
	return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The right edges of the elements that stick out of `container` on the right, if any. */
async function sticksOut(container: Locator, selector: string): Promise<string[]> {
	return container.evaluate((root, selector) => {
		const limit = root.getBoundingClientRect().right + 0.5;
		return [...root.querySelectorAll(selector)]
			.filter((el) => el.getBoundingClientRect().right > limit)
			.map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent?.slice(0, 40)}`);
	}, selector);
}

test.describe('layout at every width, in light and dark', () => {
	test.describe.configure({ timeout: 180_000 });

	const pages: [string, (f: Fixture) => string][] = [
		['services list', () => '/'],
		['a service page', () => '/services/sendMessage'],
		['profiles', () => '/profiles'],
		['a profile', (f) => `/profiles/${f.profile}`],
		['export', (f) => `/profiles/${f.profile}/export`],
		['import', (f) => `/profiles/${f.profile}/import`],
		['portal sheet', (f) => `/profiles/${f.profile}/portal`],
		['backup', (f) => `/profiles/${f.profile}/backup`],
		['flows', (f) => `/profiles/${f.profile}/flows`],
		['push settings', (f) => `/profiles/${f.profile}/services/push`],
		['echo sinks', () => '/sinks'],
		['an echo sink', (f) => `/sinks/${f.sink}`],
		['push sandboxes', () => '/sandboxes'],
		['push composer', () => '/push'],
		['audit log', () => '/admin/audit'],
		['users', () => '/admin/users'],
		['account', () => '/account'],
		['a page that does not exist', () => '/no-such-page']
	];
	for (const [name, address] of pages) {
		test(name, async ({ page }) => {
			const f = await shared(page);
			await atEveryWidth(page, address(f), name.replaceAll(' ', '-'));
		});
	}

	test('a flow run with its steps and a 300-character URL', async ({ page }) => {
		const f = await shared(page);
		await page.goto(`/profiles/${f.profile}`);
		const ran = await page.request.post('/api/flows/send-message', {
			headers: { origin: new URL(page.url()).origin },
			data: {
				profileId: f.profile,
				values: {
					sms_to: ['+14155550123', `sip:${'long-recipient-'.repeat(8)}@example.com`],
					sms_body: 'Hello',
					no_such_name: 'x'
				}
			}
		});
		expect(ran.status()).toBe(200);
		const { id } = (await ran.json()) as { id: number };
		await atEveryWidth(
			page,
			`/profiles/${f.profile}/flows?flow=send-message&run=${id}`,
			'flow-run',
			async () => {
				await expect(page.getByRole('article')).toHaveCount(2);
				await expect(
					page.getByRole('radio', { name: 'Send Message to several recipients' })
				).toBeChecked();
				await expect(page.getByLabel('sms_to', { exact: true })).toBeVisible();
			}
		);
	});

	test('the profile editor with a 300-character URL, tooltips open', async ({ page }) => {
		const f = await shared(page);
		const address = `/profiles/${f.profile}/services/sendMessage`;
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		const body = page.getByRole('textbox', { name: 'Post data (genericSmsSendPostData)' });
		const preview = page.getByRole('region', { name: 'Request preview' });
		const settings = page.locator('.settings');

		await atEveryWidth(page, address, 'profile-editor', async (width, scheme) => {
			await expect(url).toHaveText(f.url);
			await expect(preview.getByText('no_such_name').first()).toBeVisible();

			// Every field and editor stays inside the settings column, none over the preview.
			expect(
				await sticksOut(settings, '[data-field], .cm-editor, input, select, textarea')
			).toEqual([]);
			const previewBox = await box(preview);
			for (const editor of await page.locator('.cm-editor').all()) {
				expect(overlap(await box(editor), previewBox), 'an editor overlaps the preview').toBe(
					false
				);
			}
			// The URL line, headers, body and diagnostics wrap inside the preview.
			expect(await sticksOut(preview, 'p, li, table, pre, header, h3, code')).toEqual([]);
			if (width >= 1440) {
				// Side by side, and together they use the width of the screen.
				expect(previewBox.x).toBeGreaterThan((await box(settings)).x);
				expect(previewBox.x + previewBox.width).toBeGreaterThan(width - 60);
				expect((await box(url)).width).toBeGreaterThan(width * 0.3);
			}

			// The first keystroke moves nothing above or beside it.
			// The URL's frame (its text scrolls sideways inside it), the preview and the title.
			const frame = page.locator('[data-field="genericSmsSendUrl"] .cm-editor');
			const marks = [frame, preview, page.locator('h1')];
			const before = await Promise.all(marks.map(placeOnPage));
			await url.click();
			await page.keyboard.press('End');
			await page.keyboard.type('%');
			const completion = page.locator('.cm-tooltip-autocomplete');
			await expect(completion).toBeVisible();
			await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
			expect(await Promise.all(marks.map(placeOnPage))).toEqual(before);

			// The completion list, in the page's scheme, inside the screen. Its options are chosen
			// with the arrow keys in the editor (aria-activedescendant), not by focusing the list,
			// which axe's rule for scrollable regions cannot know; every other rule runs.
			if (axeAt(width, scheme)) {
				await expectAccessible(page, { except: ['scrollable-region-focusable'] });
			}
			const list = await box(completion);
			expect(list.x + list.width).toBeLessThanOrEqual(width);
			await page.keyboard.press('Escape');
			await page.keyboard.press('Backspace');
			await expect(page.getByText('Unsaved changes')).toHaveCount(0);

			// The hover and lint tooltip of an unknown name.
			await body.getByText('%no_such_name%').hover();
			const tooltip = page.locator('.cm-tooltip-hover');
			await expect(tooltip.locator('.cm-tpl-hover')).toBeVisible();
			await expect(tooltip.locator('.cm-diagnostic')).toBeVisible();
			if (axeAt(width, scheme)) await expectAccessible(page);
			const hint = await box(tooltip);
			expect(hint.x).toBeGreaterThanOrEqual(0);
			expect(hint.x + hint.width).toBeLessThanOrEqual(width);
			const colours = await tooltip.evaluate((el) => {
				const style = getComputedStyle(el);
				return [style.color, style.backgroundColor];
			});
			const text = await page.evaluate(() => getComputedStyle(document.body).color);
			expect(colours[0], `tooltip text in the ${scheme} scheme`).toBe(text);
			expect(colours[1], `tooltip background in the ${scheme} scheme`).toBe(PANEL[scheme]);
			await page.mouse.move(0, 0);
			await screenshot(page, `profile-editor-${width}-${scheme}-typed`);
		});
	});

	test('at 768 px the preview stays in sight while the URL is typed, with a big body', async ({
		page
	}) => {
		const f = await shared(page);
		const profile = await createProfile(page, uniqueName('Tablet'));
		const origin = new URL(page.url()).origin;
		// A JSON body of about 4 KB, many lines, next to the 300-character URL.
		const items = Array.from({ length: 60 }, (_, i) => `\t\t{ "line": ${i}, "to": "%sms_to%" }`);
		const saved = await page.request.put(`/api/profiles/${profile}`, {
			headers: { origin },
			data: {
				baseRevision: 1,
				document: {
					services: {
						sendMessage: {
							genericSmsSendUrl: f.url,
							genericSmsSendPostData: `{\n\t"items": [\n${items.join(',\n')}\n\t]\n}`,
							genericSmsContentType: 'application/json'
						}
					}
				}
			}
		});
		expect(saved.status()).toBe(200);
		await page.setViewportSize({ width: 768, height: 1024 });
		await page.goto(`/profiles/${profile}/services/sendMessage`);
		const url = page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' });
		const preview = page.getByRole('region', { name: 'Request preview' });
		const previewUrl = preview.getByLabel('URL', { exact: true });
		await expect(url).toHaveText(f.url);
		await expect(preview.getByLabel('Body', { exact: true })).toContainText('"line": 59');

		await url.click();
		await page.keyboard.press('End');
		await page.keyboard.type('&typed=yes');
		await expect(previewUrl).toContainText('&typed=yes');
		// The field being typed and the request it makes are both on the screen.
		await expect(url).toBeInViewport();
		await expect(previewUrl).toBeInViewport();
		await expect(preview.getByRole('heading', { name: 'Request preview' })).toBeInViewport();
		await screenshot(page, 'profile-editor-768-typing');

		// Side by side, nothing over the other, nothing out of its box, no sideways scroll.
		const previewBox = await box(preview);
		const settings = page.locator('.settings');
		expect(previewBox.x).toBeGreaterThan((await box(settings)).x + 200);
		for (const editor of await page.locator('.cm-editor').all()) {
			expect(overlap(await box(editor), previewBox), 'an editor overlaps the preview').toBe(false);
		}
		expect(await sticksOut(settings, '[data-field], .cm-editor, input, select, textarea')).toEqual(
			[]
		);
		expect(await sticksOut(preview, 'p, li, table, pre, header, h3, code')).toEqual([]);
		await expectNoSidewaysScroll(page);
		for (const scheme of SCHEMES) {
			await page.emulateMedia({ colorScheme: scheme });
			// Every rule in light, contrast alone in dark.
			await expectAccessible(page, scheme === 'light' ? {} : { rules: ['color-contrast'] });
		}
	});

	test('a test call with a long URL: the method label stays a word', async ({ page }) => {
		const f = await shared(page);
		await page.goto(`/profiles/${f.profile}/services/sendMessage`);
		// The editors are mounted once the page runs: the shortcut is listened to from then on.
		await expect(page.locator('.cm-editor').first()).toBeVisible();
		// The test-call panel, which listens to the shortcut, loads just after the editors.
		const panel = page.getByRole('region', { name: 'Test call' });
		await expect(panel).toBeVisible();
		await page.keyboard.press('Control+Enter');
		const method = panel.locator('.sent .method');
		await expect(method).toHaveText('POST', { timeout: 15_000 });
		for (const width of WIDTHS) {
			await page.setViewportSize({ width, height: 900 });
			const label = await box(method);
			// One line of text: wider than tall.
			expect(label.width).toBeGreaterThan(label.height);
			expect(await sticksOut(panel, 'p, pre, code, table, li')).toEqual([]);
			await expectNoSidewaysScroll(page);
		}
	});

	test('the menu on a phone opens, leads to a page and closes', async ({ page }) => {
		await page.setViewportSize({ width: 390, height: 800 });
		await page.goto('/');
		const menu = page.getByRole('button', { name: 'Menu' });
		const nav = page.getByRole('navigation', { name: 'Main' });
		await expect(nav).toBeHidden();
		await expect(menu).toHaveAttribute('aria-expanded', 'false');
		// A click before the page's script runs does nothing: click until the menu opens.
		await expect(async () => {
			if ((await menu.getAttribute('aria-expanded')) === 'false') await menu.click();
			await expect(menu).toHaveAttribute('aria-expanded', 'true', { timeout: 1000 });
		}).toPass();
		await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
		await expectNoSidewaysScroll(page);
		for (const scheme of SCHEMES) {
			await page.emulateMedia({ colorScheme: scheme });
			// Every rule in light, contrast alone in dark.
			await expectAccessible(page, scheme === 'light' ? {} : { rules: ['color-contrast'] });
		}
		await nav.getByRole('link', { name: 'Profiles' }).click();
		await expect(page).toHaveURL(/\/profiles$/);
		await expect(nav).toBeHidden();
		await page.setViewportSize({ width: 1440, height: 800 });
		await expect(menu).toBeHidden();
		await expect(nav).toBeVisible();
	});

	/** The longest name a profile can have (200 characters), in one word: it must wrap. */
	const LONGEST_NAME = `Provider-${'x'.repeat(191)}`;

	test('a new profile from XML, its review, with the longest name and a 300-character URL', async ({
		page
	}) => {
		const f = await shared(page);
		await page.goto('/profiles');
		const panel = page.getByRole('region', { name: 'New profile' });
		await panel.getByLabel('Name', { exact: true }).fill(LONGEST_NAME);
		await panel.getByRole('radio', { name: /^Provisioning XML/ }).check();
		const xml = `<account>\n<genericSmsSendUrl>${f.url.replaceAll('&', '&amp;')}</genericSmsSendUrl>\n</account>`;
		await panel.getByRole('textbox', { name: 'XML', exact: true }).fill(xml);
		// The form as filled in, then its review, each at every width without loading it again.
		for (const step of ['new-profile-form', 'new-profile-review']) {
			if (step === 'new-profile-review') {
				await panel.getByRole('button', { name: 'Review the new profile' }).click();
				await expect(page.getByRole('table', { name: /What will change/ })).toContainText(f.url);
			}
			for (const width of READING_WIDTHS) {
				await page.setViewportSize({ width, height: 900 });
				for (const scheme of SCHEMES) {
					await page.emulateMedia({ colorScheme: scheme });
					await screenshot(page, `${step}-${width}-${scheme}`);
					await expectNoSidewaysScroll(page);
					await expectSchemeBackground(page, scheme);
					if (axeAt(width, scheme)) await expectAccessible(page);
				}
			}
		}
	});

	test('a profile at a glance, with the longest name and a 300-character URL', async ({ page }) => {
		const f = await shared(page);
		const id = await createProfile(
			page,
			LONGEST_NAME.replace('Provider', uniqueName('Glance')).slice(0, 200)
		);
		const saved = await page.request.put(`/api/profiles/${id}`, {
			headers: { origin: new URL(page.url()).origin },
			data: {
				baseRevision: 1,
				document: {
					services: {
						sendMessage: { genericSmsSendUrl: f.url },
						externalAuth: { externalAuthUrl: 'https://auth.example.com/?u=%no_such_name%' }
					}
				}
			}
		});
		expect(saved.status()).toBe(200);
		await atEveryWidth(page, `/profiles/${id}`, 'profile-glance', async () => {
			await expect(page.getByRole('region', { name: 'At a glance' })).toContainText('1 error');
		});
	});
});

test.describe('signed-out pages and refusals at every width, in light and dark', () => {
	test.describe.configure({ timeout: 180_000 });
	test.use({ storageState: signedOut });

	test('sign-in page', async ({ page }) => {
		await atEveryWidth(page, '/login', 'login');
	});

	test('the API reference, signed out', async ({ page }) => {
		await atEveryWidth(page, '/api/docs', 'api-docs', async () => {
			await expect(page.getByRole('navigation', { name: 'Operations' })).toBeVisible();
			await expect(page.locator('#createProfile')).toContainText('/api/profiles');
			// A flow's inputs and steps are a list; a field's `code` is drawn as code.
			await expect(page.locator('#runFlow > ul > li')).toHaveCount(5);
			const call = page.locator('#sendTestCall');
			const details = call.locator('details').first();
			if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) {
				await call.getByText('Parameters, request and answers').click();
			}
			await expect(call.locator('.description code', { hasText: 'callId' }).first()).toBeVisible();
			// A list of one of several shapes draws each shape's fields.
			await expect(call.locator('code.name', { hasText: 'interpretation' }).first()).toBeVisible();
			await expectNoSidewaysScroll(page);
		});
	});

	test('a page the role does not allow (403) looks like the app', async ({
		browser,
		adminState,
		baseURL
	}) => {
		const viewer = await viewerPage(browser, adminState, baseURL!);
		const response = await viewer.goto('/admin/users');
		expect(response?.status()).toBe(403);
		await atEveryWidth(viewer, '/admin/users', 'forbidden', async () => {
			await expect(viewer.getByRole('link', { name: 'Provisioning Studio' })).toBeVisible();
			await expect(viewer.getByRole('main')).toContainText('Users needs the admin role.');
		});
		await viewer.context().close();
	});

	for (const width of [390, 1440]) {
		test(`a viewer refused an editor's page at ${width} px sees why, the menu, and signs out`, async ({
			browser,
			adminState,
			baseURL
		}) => {
			const viewer = await viewerPage(browser, adminState, baseURL!);
			await viewer.setViewportSize({ width, height: 800 });
			const response = await viewer.goto('/sinks');
			expect(response?.status()).toBe(403);
			await expect(viewer).toHaveURL(/\/sinks$/);
			const main = viewer.getByRole('main');
			await expect(viewer.getByRole('heading', { level: 1 })).toHaveText('403 · Not allowed');
			await expect(main).toContainText(
				'The page Echo sinks needs the editor role. You are signed in as Vera Viewer with the viewer role.'
			);
			await expect(main.getByRole('link', { name: 'Services' })).toBeVisible();
			const nav = viewer.getByRole('navigation', { name: 'Main' });
			if (width < 768) {
				const menu = viewer.getByRole('button', { name: 'Menu' });
				await expect(nav).toBeHidden();
				// A click before the page's script runs does nothing: click until the menu opens.
				await expect(async () => {
					if ((await menu.getAttribute('aria-expanded')) === 'false') await menu.click();
					await expect(menu).toHaveAttribute('aria-expanded', 'true', { timeout: 1000 });
				}).toPass();
			}
			await expect(nav.getByRole('link')).toHaveText(['Services', 'Profiles', 'Push sandboxes']);
			await expect(viewer.getByText('Vera Viewer viewer')).toBeVisible();
			await expectNoSidewaysScroll(viewer);
			await expectAccessible(viewer);
			await screenshot(viewer, `forbidden-sinks-${width}`);
			// The app runs on the page: its links navigate and its menu signs out.
			await nav.getByRole('link', { name: 'Profiles' }).click();
			await expect(viewer).toHaveURL(/\/profiles$/);
			await viewer.goBack();
			await expect(viewer.getByRole('heading', { level: 1 })).toHaveText('403 · Not allowed');
			if (width < 768) await viewer.getByRole('button', { name: 'Menu' }).click();
			await viewer.getByRole('button', { name: 'Sign out' }).click();
			await expect(viewer).toHaveURL(/\/login/);
			expect((await viewer.request.get('/api/session')).status()).toBe(401);
			await viewer.context().close();
		});
	}
});

/** A signed-in viewer's page in a context of its own, created by the admin. */
async function viewerPage(browser: Browser, adminState: string, baseURL: string): Promise<Page> {
	const admin = await browser.newContext({ baseURL, storageState: adminState });
	const email = uniqueEmail('viewer');
	await createUser(await admin.newPage(), { email, name: 'Vera Viewer', role: 'viewer' });
	await admin.close();
	const viewer = await (await browser.newContext({ baseURL })).newPage();
	await signIn(viewer, email, PASSWORD);
	return viewer;
}
