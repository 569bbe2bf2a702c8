import { chromium, type Page } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { startApp } from './app';
import { ms } from './measure';

/**
 * Keystroke to updated preview in a real browser (Chromium), in the profile editor, for an
 * ordinary template and for a 1 MB body; the longest main-thread task seen; and the editor page's initial JavaScript, gzip.
 * The page times itself: from the keydown event to the moment the preview's text changed.
 */

const KEYSTROKES = 60;
const LARGE_KEYSTROKES = 40;

/** Installs the in-page probes: keystroke → preview mutation, and long tasks. */
async function installProbes(page: Page): Promise<void> {
	await page.evaluate(() => {
		const w = window as unknown as {
			__latencies: number[];
			__longest: number;
			__pending: number | null;
		};
		w.__latencies = [];
		w.__longest = 0;
		w.__pending = null;
		document.addEventListener('keydown', () => (w.__pending = performance.now()), true);
		const preview = document.querySelector('[aria-label="Request preview"]')!;
		new MutationObserver(() => {
			if (w.__pending === null) return;
			w.__latencies.push(performance.now() - w.__pending);
			w.__pending = null;
		}).observe(preview, { subtree: true, childList: true, characterData: true });
		new PerformanceObserver((list) => {
			for (const entry of list.getEntries()) w.__longest = Math.max(w.__longest, entry.duration);
		}).observe({ type: 'longtask', buffered: false });
	});
}

async function typeAndMeasure(
	page: Page,
	count: number
): Promise<{ latencies: number[]; longest: number }> {
	for (let i = 0; i < count; i++) {
		await page.keyboard.type(i % 2 ? 'a' : 'b');
		await page.waitForFunction(
			() => (window as unknown as { __pending: number | null }).__pending === null,
			null,
			{
				timeout: 5000
			}
		);
	}
	return page.evaluate(() => {
		const w = window as unknown as { __latencies: number[]; __longest: number };
		return { latencies: w.__latencies, longest: w.__longest };
	});
}

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function bigBody(bytes: number): string {
	const unit = '{"to":"%sms_to%","body":"%sms_body%","n":"0123456789abcdefghij"}';
	const items: string[] = [];
	for (let size = 2; size < bytes; size += unit.length + 1) items.push(unit);
	return `[${items.join(',\n')}]`;
}

/** Runs the editor benchmark and returns its table rows. */
export async function benchEditor(): Promise<string[][]> {
	const app = await startApp();
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking']
	});
	try {
		const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
		const cookie = await app.login();
		const [name, value] = cookie.split('=');
		await context.addCookies([{ name, value, url: app.base }]);
		// The profile editor: the page an admin works in (sidebar marks, draft kept, scenarios).
		const created = await fetch(`${app.base}/api/profiles`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', origin: app.base, cookie },
			body: JSON.stringify({ name: 'Benchmark' })
		});
		const { profile } = (await created.json()) as { profile: { id: string } };
		const page = await context.newPage();
		const scripts: Promise<number>[] = [];
		page.on('response', (response) => {
			if (!response.url().endsWith('.js')) return;
			scripts.push(response.body().then((body) => gzipSync(body).length));
		});
		await page.goto(`${app.base}/profiles/${profile.id}/services/sendMessage`, {
			waitUntil: 'networkidle'
		});
		const initialKb = (await Promise.all(scripts)).reduce((a, b) => a + b, 0) / 1024;

		await page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' }).click();
		await page.keyboard.type('https://sms.example.com/send?to=%sms_to%&q=');
		await page.getByRole('button', { name: 'JSON body' }).click();
		await installProbes(page);
		await page.getByRole('textbox', { name: 'URL (genericSmsSendUrl)' }).click();
		await page.keyboard.press('End');
		const ordinary = await typeAndMeasure(page, KEYSTROKES);

		const body = page.getByRole('textbox', { name: 'Post data (genericSmsSendPostData)' });
		await body.click();
		await page.keyboard.press('Control+a');
		// A paste, as an admin would bring a large body in (typing 1 MB is not a use case).
		await body.evaluate(
			(element, text) => {
				const data = new DataTransfer();
				data.setData('text/plain', text);
				element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
			},
			bigBody(1024 * 1024)
		);
		await page.waitForFunction(
			() =>
				Number(
					/([0-9]+) bytes/.exec(
						document.querySelector('[aria-label="Request preview"] .meta')?.textContent ?? ''
					)?.[1]
				) > 1e6,
			null,
			{ timeout: 60_000 }
		);
		// Typing into the body is measured, not the paste: the paste's own work (the lint of the
		// whole template, garbage collection) is let settle, and a few keystrokes warm up first.
		await page.keyboard.press('Control+End');
		await page.waitForTimeout(1500);
		await installProbes(page);
		await typeAndMeasure(page, 5);
		await installProbes(page);
		const large = await typeAndMeasure(page, LARGE_KEYSTROKES);

		const row = (label: string, r: { latencies: number[]; longest: number }) => [
			label,
			ms(percentile(r.latencies, 50)),
			ms(percentile(r.latencies, 95)),
			ms(r.longest),
			String(r.latencies.length)
		];
		return [
			row('ordinary template (URL, JSON body)', ordinary),
			row('1 MB JSON body', large),
			['initial JavaScript of the editor page (gzip)', `${initialKb.toFixed(0)} KB`, '', '', '']
		];
	} finally {
		await browser.close();
		await app.stop();
	}
}
