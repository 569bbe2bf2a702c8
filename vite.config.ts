import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [
		sveltekit({
			compilerOptions: {
				// Runes everywhere in our own code; libraries keep their own mode.
				runes: ({ filename }) =>
					filename.split(/[/\\]/).includes('node_modules') ? undefined : true
			},
			adapter: adapter(),
			// Addresses from the root: the 403 page is rendered for the refused page's address,
			// which may be deeper than its own, so paths relative to the page would miss.
			paths: { relative: false },
			// The cross-site form check runs in hooks.server.ts, which exempts push sandboxes.
			csrf: { trustedOrigins: ['*'] },
			// Scripts only from our origin (hashed or nonced by the kit); styles inline too, since
			// Svelte and CodeMirror inject them; nothing may frame the app.
			csp: {
				mode: 'auto',
				directives: {
					'default-src': ['self'],
					'script-src': ['self'],
					'style-src': ['self', 'unsafe-inline'],
					'img-src': ['self', 'data:'],
					'font-src': ['self'],
					'connect-src': ['self'],
					'object-src': ['none'],
					'base-uri': ['self'],
					'form-action': ['self'],
					'frame-ancestors': ['none']
				}
			}
		})
	],
	// `npm run bundle-map` builds with source maps, to say which module each byte comes from.
	build: { sourcemap: process.env.BUNDLE_MAP === '1' },
	server: { port: 5173, strictPort: false },
	test: {
		include: ['src/**/*.spec.ts'],
		environment: 'node',
		setupFiles: ['tests/helpers/fast-check-seed.ts'],
		// Property tests over big inputs take a second alone; a busy machine must not fail them.
		testTimeout: 30_000,
		expect: { requireAssertions: true }
	}
});
