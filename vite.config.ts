import { sveltekit } from '@sveltejs/kit/vite';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The kit's and Svelte's own configuration is in svelte.config.js.
export default defineConfig({
	plugins: [sveltekit()],
	// `npm run bundle-map` builds with source maps, to say which module each byte comes from.
	build: { sourcemap: process.env.BUNDLE_MAP === '1' },
	server: { port: 5173, strictPort: false },
	// Bundled into the server's build: loading their many small modules slowed every start; zod-openapi
	// goes with zod so both use one zod (docs/decisions/0071-what-a-test-run-costs.md).
	ssr: { noExternal: ['kysely', 'zod', 'zod-openapi'] },
	test: {
		include: ['src/**/*.spec.ts'],
		environment: 'node',
		setupFiles: ['tests/helpers/fast-check-seed.ts'],
		// Property tests over big inputs take a second alone; a busy machine must not fail them.
		testTimeout: 30_000,
		// Vitest keeps one core free by default, which leaves a two-core machine running one file at
		// a time; the unit files compute and wait for nothing, so every core runs one.
		maxWorkers: availableParallelism(),
		// Files share their worker's modules: a file that changes something global puts it back
		// (CONTRIBUTING.md, "The shared-module rule").
		isolate: false,
		expect: { requireAssertions: true }
	}
});
