/**
 * Modules under src/ must not import each other in a circle. Every import counts, `import type`
 * and `import()` too: a circle closed by a type or a lazy import still ties both sides together.
 */
module.exports = {
	forbidden: [
		{
			name: 'no-circular',
			severity: 'error',
			comment: 'Move what both sides need into a module both import.',
			// A component that renders itself is recursion, not a circle.
			from: { path: '(.+)' },
			to: { circular: true, pathNot: '^$1$' }
		}
	],
	options: {
		webpackConfig: { fileName: '.dependency-cruiser-resolve.cjs' },
		doNotFollow: { path: 'node_modules' },
		includeOnly: { path: '^src/' },
		tsPreCompilationDeps: true,
		enhancedResolveOptions: {
			extensions: ['.ts', '.js', '.svelte', '.svelte.ts', '.json'],
			mainFields: ['module', 'main', 'types']
		}
	}
};
