import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const port = Number(process.env.E2E_PORT ?? 4319);

/** The browser tests start the built app on a fresh data directory with a known admin. */
export const E2E_ADMIN = { email: 'admin@example.com', password: 'correct horse battery staple' };
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'ps-e2e-'));
// Workers load this file again: they must see the same directory.
process.env.E2E_DATA_DIR = dataDir;

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
		command: 'node scripts/serve.js',
		url: `http://127.0.0.1:${port}/api/health`,
		env: {
			PORT: String(port),
			HOST: '127.0.0.1',
			ORIGIN: `http://127.0.0.1:${port}`,
			DATA_DIR: dataDir,
			ADMIN_EMAIL: E2E_ADMIN.email,
			ADMIN_PASSWORD: E2E_ADMIN.password,
			// Flows reach HTTPS-only services on a local upstream the test starts: the loopback
			// address on high ports is opened, and the test certificate trusted.
			OUTBOUND_ALLOW: '127.0.0.1/32',
			OUTBOUND_PORTS: '1024-65535',
			NODE_EXTRA_CA_CERTS: path.resolve('tests/fixtures/tls/cert.pem')
		},
		reuseExistingServer: false,
		timeout: 60_000
	}
});
