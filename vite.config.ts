import { sveltekit } from '@sveltejs/kit/vite';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The kit's and Svelte's own configuration is in svelte.config.js.
export default defineConfig({
	plugins: [sveltekit()],
	// `npm run bundle-map` builds with source maps, to say which module each byte comes from.
	build: { sourcemap: process.env.BUNDLE_MAP === '1' },
	server: { port: 5173, strictPort: false },
	// The server's build carries these packages in its own chunks instead of loading them from
	// node_modules at start: ESM packages of hundreds of small modules (kysely 288, zod 102),
	// whose loading was a third of a start. zod-openapi goes with zod, so both use one zod.
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
		// The files of a worker share its loaded modules instead of each importing the app's
		// modules again: the imports took more of the run than the tests. A file that changes
		// something global (timers, a stubbed global or variable, the password cost) puts it back.
		isolate: false,
		expect: { requireAssertions: true }
	}
});
