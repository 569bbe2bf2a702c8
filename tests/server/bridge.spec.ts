import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installDirectDocument } from '$lib/server/openapi/document-direct';
import { installDirectApi } from '$lib/server/http/direct-api';
import { bridge } from '$lib/server/platform/bridge';
import { installLifecycle, noteRequest } from '$lib/server/platform/lifecycle';
import { logger } from '$lib/server/platform/logger';
import { metrics } from '$lib/server/platform/metrics';
import { installDirectGateway } from '$lib/server/push/gateway-direct';
import { sleep } from '../helpers/fixtures';
import { startServer, stopAllServers } from '../helpers/server';

/**
 * What ties the start script (`scripts/serve.js`) to the built app: one key of `globalThis`, and
 * the page modules it loads once it listens, found in the Node adapter's build.
 */

afterAll(async () => {
	await stopAllServers();
});

/** The project's keys of `globalThis` (the tests' own, `….tests.…`, aside). */
function projectKeys(): string[] {
	return Object.getOwnPropertySymbols(globalThis)
		.map((symbol) => symbol.description ?? '')
		.filter((name) => name.startsWith('provisioning-studio.') && !name.includes('.tests.'))
		.sort();
}

/** The kit's page nodes of `src/routes`: the root layout and error page, every layout and page. */
function routeNodes(): number {
	const nodes = new Set(['/:layout', '/:error']);
	const walk = (dir: string) => {
		for (const entry of readdirSync(path.join('src/routes', dir), { withFileTypes: true })) {
			if (entry.isDirectory()) walk(path.join(dir, entry.name));
			const kind = /^\+(page|layout|error)(\.server)?\.(svelte|ts|js)$/.exec(entry.name)?.[1];
			if (kind) nodes.add(`/${dir}:${kind}`);
		}
	};
	walk('');
	return nodes.size;
}

describe('the bridge between the start script and the built app', () => {
	it('is one key of globalThis, whatever the app installs on it', () => {
		logger();
		metrics();
		installLifecycle(
			async () => {},
			() => ({ database: { backend: 'sqlite', location: 'memory' }, origin: null })
		);
		noteRequest('bridge-test', { route: null, userId: null, ip: null });
		installDirectGateway();
		installDirectApi();
		installDirectDocument();
		expect(projectKeys()).toEqual(['provisioning-studio.bridge']);
		expect(bridge()).toMatchObject({
			logger: expect.any(Object),
			requestLogger: expect.any(Object),
			metrics: expect.any(Object),
			lifecycle: expect.any(Object),
			pushGateway: expect.any(Function),
			testCalls: expect.any(Function),
			apiDocument: expect.any(Function)
		});
	});
	it("loads every page's module of the build once it listens", async () => {
		const server = await startServer({ env: { LOG_FORMAT: 'json', LOG_LEVEL: 'debug' } });
		// Its log line, at debug level, once the last module is loaded.
		const loaded = async () => {
			for (let i = 0; i < 200; i++) {
				const line = server
					.stdout()
					.split('\n')
					.find((l) => l.includes('"pageModules":'));
				if (line) return (JSON.parse(line) as { pageModules: number }).pageModules;
				await sleep(50);
			}
			return undefined;
		};
		expect(
			await loaded(),
			"scripts/serve.js loaded no page modules, or not all: the Node adapter's build no longer " +
				'keeps them in build/server/chunks/nodes/ as warmUpPages expects; update warmUpPages'
		).toBe(routeNodes());
	});
});
