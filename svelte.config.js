import adapter from '@sveltejs/adapter-node';

/**
 * The kit's and Svelte's configuration, where the Svelte tools (the language server,
 * svelte-check, eslint-plugin-svelte) look for it. Vite's own settings and the unit tests'
 * are in vite.config.ts.
 * @type {import('@sveltejs/kit').Config}
 */
const config = {
	compilerOptions: {
		// Runes everywhere in our own code; libraries keep their own mode.
		runes: ({ filename }) => (filename.split(/[/\\]/).includes('node_modules') ? undefined : true)
	},
	kit: {
		adapter: adapter(),
		// Addresses from the root: the 403 page is rendered for the refused page's address,
		// which may be deeper than its own, so paths relative to the page would miss.
		paths: { relative: false },
		// The browser asks the server which route an address is, instead of loading the table of
		// every route with the first page: new routes (sign-in, API pages) cost the editor nothing.
		router: { resolution: 'server' },
		// A page's stylesheets come inside its HTML: a dozen small files no longer take the
		// browser's connections ahead of the scripts, nor hold back the kit's start script.
		inlineStyleThreshold: 8 * 1024,
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
	}
};

export default config;
