import type { Page } from '@playwright/test';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { sendTextPush } from '../helpers/feeds';
import { expect, test, uniqueName } from './fixtures';

/**
 * The device view's live stream in a real browser: the stream drops while a provider's server
 * keeps pushing, and the browser's own reconnect (with Last-Event-ID) brings every push sent
 * during the gap, once each, in order. A save reloads the page's data without touching the
 * stream, so a push arriving meanwhile is never hidden or shown twice.
 */

/** A generic text push as a provider's server sends it. */
async function send(pushUrl: string, message: string): Promise<void> {
	expect((await sendTextPush(pushUrl, message)).status).toBe(200);
}

/** Creates a sandbox; answers its id and push URL (the page is left on its device view). */
async function createSandbox(page: Page): Promise<{ id: string; pushUrl: string }> {
	await page.goto('/sandboxes');
	await page.getByLabel('Name', { exact: true }).fill(uniqueName('Live'));
	await page.getByRole('button', { name: 'Create sandbox' }).click();
	await page.waitForURL(/\/sandboxes\/[^/]+$/);
	await expect(connection(page)).toHaveText(/Live: pushes appear here/);
	const pushUrl = (await page.getByTestId('push-url').textContent())!;
	return { id: new URL(page.url()).pathname.split('/').pop()!, pushUrl };
}

/**
 * A TCP relay between the browser and the app, on a port of its own: `cut()` drops every
 * connection and refuses new ones (the network is gone), `mend()` lets them through again.
 * It keeps the head of each request it relays, to read the headers the browser sent.
 */
class Relay {
	readonly heads: string[] = [];
	#server!: Server;
	#sockets = new Set<Socket>();
	#cut = false;

	async start(target: number): Promise<number> {
		this.#server = createServer((client) => {
			if (this.#cut) return client.destroy();
			const upstream = connect(target, '127.0.0.1');
			this.#sockets.add(client).add(upstream);
			client.on('data', (chunk: Buffer) => {
				const text = chunk.toString('latin1');
				if (/^[A-Z]+ \//.test(text)) this.heads.push(text.slice(0, text.indexOf('\r\n\r\n')));
			});
			client.pipe(upstream).pipe(client);
			const drop = () => {
				client.destroy();
				upstream.destroy();
				this.#sockets.delete(client);
				this.#sockets.delete(upstream);
			};
			client.on('error', drop).on('close', drop);
			upstream.on('error', drop).on('close', drop);
		});
		await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
		return (this.#server.address() as { port: number }).port;
	}

	cut(): void {
		this.#cut = true;
		for (const socket of this.#sockets) socket.destroy();
	}

	mend(): void {
		this.#cut = false;
	}

	async stop(): Promise<void> {
		this.cut();
		await new Promise<void>((resolve) => this.#server.close(() => resolve()));
	}
}

const connection = (page: Page) => page.locator('p.connection');
const shown = (page: Page) =>
	page.getByRole('list', { name: 'Pushes received' }).locator('[data-kind="text"]');

/** The texts the device view shows, newest first. */
async function texts(page: Page): Promise<string[]> {
	return shown(page).evaluateAll((nodes) => nodes.map((n) => n.textContent ?? ''));
}

test.describe('live device view', () => {
	test('a dropped stream reconnects with Last-Event-ID and shows every push of the gap once, in order', async ({
		page,
		baseURL
	}) => {
		const { id, pushUrl } = await createSandbox(page);
		// The device view is opened again through the relay (the session cookie is the host's).
		const relay = new Relay();
		const port = await relay.start(Number(new URL(baseURL!).port));
		try {
			await page.goto(`http://127.0.0.1:${port}/sandboxes/${id}`);
			await expect(connection(page)).toHaveText(/Live: pushes appear here/);

			await send(pushUrl, 'Before the gap');
			await expect(shown(page)).toHaveCount(1);
			const listed = (await (await page.request.get(`/api/sandboxes/${id}/pushes`)).json()) as {
				pushes: { id: number }[];
			};

			// The network goes away: the stream drops, the page says so, and pushes go on.
			relay.cut();
			await expect(connection(page)).toHaveText(/Reconnecting…/);
			const gap = ['Gap 1', 'Gap 2', 'Gap 3', 'Gap 4', 'Gap 5'];
			for (const message of gap) await send(pushUrl, message);
			expect(await texts(page)).toHaveLength(1);

			relay.mend();
			await expect(connection(page)).toHaveText(/Live: pushes appear here/);
			await expect(shown(page)).toHaveCount(6);
			const all = await texts(page);
			[...gap].reverse().forEach((message, i) => expect(all[i]).toContain(message));
			expect(all[5]).toContain('Before the gap');

			// The browser resumed on its own, after the last push it had received.
			const streams = relay.heads.filter((h) => h.startsWith(`GET /api/sandboxes/${id}/events`));
			expect(streams.length).toBeGreaterThanOrEqual(2);
			expect(streams.at(-1)).toMatch(new RegExp(`^last-event-id: ${listed.pushes[0].id}$`, 'im'));

			// And the live stream goes on after the reconnect.
			await send(pushUrl, 'After the gap');
			await expect(shown(page)).toHaveCount(7);
			expect((await texts(page))[0]).toContain('After the gap');
		} finally {
			await relay.stop();
		}
	});

	test('saving the settings keeps the stream: a push arriving while the page reloads stays shown once', async ({
		page
	}) => {
		const { id, pushUrl } = await createSandbox(page);
		let streams = 0;
		page.on('request', (request) => {
			if (request.url().includes(`/api/sandboxes/${id}/events`)) streams++;
		});
		// Every article the page removes is counted: a push must never vanish and come back.
		await page.evaluate(() => {
			const list = document.querySelector('[aria-label="Pushes received"]')!;
			const w = window as unknown as { removed: number };
			w.removed = 0;
			new MutationObserver((records) => {
				for (const r of records) w.removed += r.removedNodes.length;
			}).observe(list, { childList: true });
		});

		// The save's reload is read before the push is recorded and reaches the page after it.
		let pushed!: () => void;
		const pushShown = new Promise<void>((resolve) => (pushed = resolve));
		await page.route(/\/sandboxes\/[^/]+\/__data\.json/, async (route) => {
			const response = await route.fetch();
			await pushShown;
			await route.fulfill({ response });
		});
		// Saved trimmed, so the field shows when the reloaded data has reached the page.
		const appIds = page.getByLabel('Registered application ids');
		await appIds.fill('  com.provider.app  ');
		await page.getByRole('button', { name: 'Save the settings' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
		await send(pushUrl, 'During the save');
		await expect(shown(page)).toHaveCount(1);
		pushed();
		await expect(appIds).toHaveValue('com.provider.app');
		await send(pushUrl, 'After the save');
		await expect(shown(page)).toHaveCount(2);
		expect(await texts(page)).toEqual([
			expect.stringContaining('After the save'),
			expect.stringContaining('During the save')
		]);
		expect(await page.evaluate(() => (window as unknown as { removed: number }).removed)).toBe(0);
		expect(streams).toBe(0);
	});
});
