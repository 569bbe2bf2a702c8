import { expect, test } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN, ADMIN_ENV } from '../helpers/fixtures';
import { startServer, type TestServer } from '../helpers/server';
import { expectAccessible, signIn } from './fixtures';

/**
 * The audit page with the audit stream on: its state (the receiver's host, the entries waiting,
 * the last delivery, the last error) reads at a phone's and a laptop's width, in the light and
 * the dark scheme, without sideways scrolling and with nothing for axe to find. This file starts
 * its own app with the stream pointed at a receiver that takes the first message and then
 * refuses every other one (the suite's own app has the stream off).
 */

let receiver: Server;
let receiverHost: string;
let app: TestServer;

test.beforeAll(async () => {
	test.setTimeout(60_000);
	let taken = 0;
	receiver = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			taken++;
			if (taken === 1) res.writeHead(204).end();
			else res.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance');
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	const { port } = receiver.address() as AddressInfo;
	receiverHost = `127.0.0.1:${port}`;
	app = await startServer({
		env: {
			...ADMIN_ENV,
			AUDIT_WEBHOOK_URL: `http://127.0.0.1:${port}/a/rather/long/path/to/the/receiver?key=k`,
			AUDIT_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 3).toString('base64')}`,
			AUDIT_STREAM_RETRY_MS: '50',
			AUDIT_STREAM_POLL_MS: '50'
		}
	});
});

test.afterAll(async () => {
	await app?.stop();
	receiver?.closeAllConnections();
	await new Promise((resolve) => receiver?.close(resolve));
});

test("the audit page shows the stream's state at every width, in both schemes", async ({
	browser
}) => {
	const context = await browser.newContext({ baseURL: app.url });
	try {
		const page = await context.newPage();
		// Signing in is recorded: the receiver takes the first entry and refuses the next.
		await signIn(page, ADMIN.email, ADMIN.password);
		const stream = page.getByRole('region', { name: 'Audit stream' });
		await expect(async () => {
			await page.goto('/admin/audit');
			await expect(stream.getByText('HTTP 503')).toBeVisible({ timeout: 1000 });
		}).toPass();
		await expect(stream.getByText(receiverHost)).toBeVisible();
		await expect(stream).not.toContainText('key=k');
		await expect(stream.getByText(/\d+ entr(y|ies)/)).toBeVisible();
		await expect(stream.getByText('(entry 1)')).toBeVisible();

		for (const width of [390, 1440]) {
			await page.setViewportSize({ width, height: 900 });
			for (const scheme of ['light', 'dark'] as const) {
				await test.step(`${width} px, ${scheme}`, async () => {
					await page.emulateMedia({ colorScheme: scheme });
					await page.goto('/admin/audit');
					await expect(stream.getByText('HTTP 503')).toBeVisible();
					// With LAYOUT_SCREENSHOTS=<directory>, as the layout test, a screenshot to look at.
					const dir = process.env.LAYOUT_SCREENSHOTS;
					if (dir) await stream.screenshot({ path: `${dir}/audit-stream-${width}-${scheme}.png` });
					const { scrollWidth, innerWidth } = await page.evaluate(() => ({
						scrollWidth: document.scrollingElement!.scrollWidth,
						innerWidth: window.innerWidth
					}));
					expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(innerWidth);
					await expectAccessible(page);
				});
			}
		}
	} finally {
		await context.close();
	}
});
