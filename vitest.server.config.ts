import { defineConfig } from 'vitest/config';

/**
 * Tests of the real built server (`node scripts/serve.js` on an ephemeral port with a fresh
 * DATA_DIR). Run after `vite build`; each file starts the servers it needs.
 */
export default defineConfig({
	test: {
		include: ['tests/server/**/*.spec.ts'],
		environment: 'node',
		setupFiles: ['tests/helpers/fast-check-seed.ts'],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		fileParallelism: false,
		expect: { requireAssertions: true }
	}
});
