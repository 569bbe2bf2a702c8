import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4319);

export default defineConfig({
	testDir: 'tests/e2e',
	testMatch: '**/*.test.ts',
	fullyParallel: false,
	workers: 1,
	retries: 0,
	forbidOnly: true,
	reporter: [[process.env.CI ? 'line' : 'list'], ['json', { outputFile: 'reports/e2e.json' }]],
	use: {
		baseURL: `http://127.0.0.1:${port}`,
		browserName: 'chromium',
		launchOptions: {
			executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
			args: [
				'--headless',
				'--no-sandbox',
				'--disable-gpu',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				'--no-first-run'
			]
		}
	},
	webServer: {
		command: 'node build',
		url: `http://127.0.0.1:${port}/`,
		env: { PORT: String(port), HOST: '127.0.0.1' },
		reuseExistingServer: false,
		timeout: 60_000
	}
});
