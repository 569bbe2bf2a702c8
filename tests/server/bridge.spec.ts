import { describe, expect, it } from 'vitest';
import { installDirectDocument } from '$lib/server/api/document-direct';
import { installDirectApi } from '$lib/server/http/direct-api';
import { bridge } from '$lib/server/platform/bridge';
import { installLifecycle, noteRequest } from '$lib/server/platform/lifecycle';
import { logger } from '$lib/server/platform/logger';
import { metrics } from '$lib/server/platform/metrics';
import { installDirectGateway } from '$lib/server/push/gateway-direct';

/** What ties the start script (`scripts/serve.js`) to the built app: one key of `globalThis`. */

/** The project's keys of `globalThis` (the tests' own, `….tests.…`, aside). */
function projectKeys(): string[] {
	return Object.getOwnPropertySymbols(globalThis)
		.map((symbol) => symbol.description ?? '')
		.filter((name) => name.startsWith('provisioning-studio.') && !name.includes('.tests.'))
		.sort();
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
});
