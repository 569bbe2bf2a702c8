import prettier from 'eslint-config-prettier';
import path from 'node:path';
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import { defineConfig, includeIgnoreFile } from 'eslint/config';
import globals from 'globals';
import ts from 'typescript-eslint';

/** Modules that open network connections; only the outbound module may import them. */
const NETWORK_MODULES = ['undici'].concat(
	['http', 'https', 'http2', 'net', 'tls', 'dns', 'dns/promises', 'dgram'].flatMap((m) => [
		m,
		`node:${m}`
	])
);

const OUTBOUND_ONLY = 'Only src/lib/server/outbound opens connections: send through it.';

/** `await import('node:net')` is an import too (the regular expression cannot hold a slash). */
const DYNAMIC_NETWORK_IMPORT = {
	selector: `ImportExpression[source.value=/^(${NETWORK_MODULES.join('|').replaceAll('/', '.')})$|^undici./]`,
	message: OUTBOUND_ONLY
};

const gitignorePath = path.resolve(import.meta.dirname, '.gitignore');

export default defineConfig(
	includeIgnoreFile(gitignorePath),
	js.configs.recommended,
	ts.configs.recommended,
	svelte.configs.recommended,
	prettier,
	svelte.configs.prettier,
	{
		languageOptions: { globals: { ...globals.browser, ...globals.node } },
		rules: {
			// TypeScript checks names itself; no-undef only misreads type-only globals.
			'no-undef': 'off',
			'svelte/no-at-html-tags': 'error'
		}
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
		languageOptions: {
			// Without type information: no rule in use needs it (an href is seen as resolved when
			// it calls resolve() in place), and making the program was most of the lint's time.
			parserOptions: {
				extraFileExtensions: ['.svelte'],
				parser: ts.parser
			}
		}
	},
	{
		// The core is pure TypeScript: it runs unchanged in the browser, the server and tests.
		files: ['src/lib/core/**/*.ts'],
		ignores: ['src/lib/core/**/*.spec.ts', 'src/lib/core/zod.ts'],
		languageOptions: { globals: { ...globals['shared-node-browser'] } },
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['svelte', 'svelte/*'], message: 'The core must not depend on Svelte.' },
						{ group: ['@sveltejs/*', '$app/*'], message: 'The core must not depend on SvelteKit.' },
						{
							group: ['@codemirror/*', 'codemirror'],
							message: 'Editor code lives in src/lib/editor.'
						},
						{ group: ['node:*'], message: 'The core runs in the browser too: no node: modules.' },
						{ group: ['undici', 'undici/*'], message: 'The core opens no connections.' },
						{
							regex: '^zod(/|$)',
							message:
								"Take z from the core's zod.ts: in a browser it must be told not to probe for eval first."
						},
						{
							group: ['$lib/server/*', '$lib/editor/*', '$lib/state/*', '$lib/components/*'],
							message: 'Dependencies point inward: the core imports nothing of the outer layers.'
						}
					]
				}
			],
			'no-restricted-globals': [
				'error',
				...[
					'window',
					'document',
					'navigator',
					'localStorage',
					'sessionStorage',
					'location',
					'HTMLElement',
					'process',
					'Buffer',
					'require',
					'fetch'
				].map((name) => ({
					name,
					message: `The core is pure TypeScript: no ${name}.`
				}))
			]
		}
	},
	{
		// One module opens network connections, with every outbound control: nothing else may.
		files: ['src/**/*.ts', 'src/**/*.js', 'src/**/*.svelte'],
		ignores: ['src/lib/core/**', 'src/lib/server/outbound/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: NETWORK_MODULES.map((name) => ({ name, message: OUTBOUND_ONLY })),
					patterns: [{ group: ['undici/*'], message: OUTBOUND_ONLY }]
				}
			],
			'no-restricted-syntax': ['error', DYNAMIC_NETWORK_IMPORT]
		}
	},
	{
		// Server code reaches other servers only through the outbound module (browser code may
		// fetch this app's own API).
		files: [
			'src/lib/server/**/*.ts',
			'src/routes/**/+server.ts',
			'src/routes/**/*.server.ts',
			'src/hooks.server.ts'
		],
		ignores: ['src/lib/server/outbound/**'],
		rules: {
			'no-restricted-globals': [
				'error',
				{ name: 'fetch', message: OUTBOUND_ONLY },
				{ name: 'WebSocket', message: OUTBOUND_ONLY }
			],
			'no-restricted-syntax': [
				'error',
				DYNAMIC_NETWORK_IMPORT,
				{
					// SvelteKit's `event.fetch` reaches other servers too.
					selector: "CallExpression[callee.property.name='fetch']",
					message: OUTBOUND_ONLY
				},
				{
					selector: "ObjectPattern > Property[key.name='fetch']",
					message: OUTBOUND_ONLY
				}
			]
		}
	}
);
