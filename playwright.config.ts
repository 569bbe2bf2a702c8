import { defineConfig } from '@playwright/test';
import { availableParallelism } from 'node:os';

/**
 * The browser tests. Each worker starts the built app on a fresh data directory and a port of
 * its own (the `app` fixture in `tests/e2e/fixtures.ts`), so the workers share nothing but the
 * machine: two by default, one per core of a two-core machine; `E2E_WORKERS` sets another count.
 */
const workers = Number(process.env.E2E_WORKERS ?? Math.min(2, availableParallelism()));

export default defineConfig({
	testDir: 'tests/e2e',
	testMatch: '**/*.test.ts',
	fullyParallel: true,
	workers,
	retries: 0,
	forbidOnly: true,
	reporter: [[process.env.CI ? 'line' : 'list'], ['json', { outputFile: 'reports/e2e.json' }]],
	use: {
		browserName: 'chromium',
		launchOptions: {
			// Chromium's headless build (see scripts/ensure-chromium.js); Playwright adds --headless.
			executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				'--no-first-run'
			]
		}
	}
});
