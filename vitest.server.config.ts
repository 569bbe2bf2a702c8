import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Tests of the real built server (`node scripts/serve.js` on an ephemeral port with a fresh
 * DATA_DIR), run after `vite build`, each file starting the servers it needs; and of the real
 * command-line program (tests/cli), built once with the project's script before the files run. A few
 * files run a server module itself in the test's process (`$lib` resolves as in the app).
 */
export default defineConfig({
	resolve: { alias: { $lib: path.resolve(import.meta.dirname, 'src/lib') } },
	test: {
		include: ['tests/server/**/*.spec.ts', 'tests/cli/**/*.spec.ts'],
		environment: 'node',
		setupFiles: ['tests/helpers/fast-check-seed.ts', 'tests/helpers/contract-setup.ts'],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		// Two files at a time: most of a file's time is its servers starting and real time passing.
		fileParallelism: true,
		maxWorkers: 2,
		// A worker's files share its loaded modules (the document's checker among them) instead of
		// each loading them again; a file that changes the environment or a global puts it back.
		isolate: false,
		globalSetup: ['tests/cli/build-once.ts'],
		expect: { requireAssertions: true }
	}
});
