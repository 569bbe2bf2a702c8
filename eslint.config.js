import prettier from 'eslint-config-prettier';
import path from 'node:path';
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import { defineConfig, includeIgnoreFile } from 'eslint/config';
import globals from 'globals';
import ts from 'typescript-eslint';

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
			parserOptions: {
				projectService: true,
				extraFileExtensions: ['.svelte'],
				parser: ts.parser
			}
		}
	},
	{
		// The core is pure TypeScript: it runs unchanged in the browser, the server and tests.
		files: ['src/lib/core/**/*.ts'],
		ignores: ['src/lib/core/**/*.spec.ts'],
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
					'require'
				].map((name) => ({
					name,
					message: `The core is pure TypeScript: no ${name}.`
				}))
			]
		}
	}
);
