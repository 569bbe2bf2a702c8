import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph } from '../scripts/import-cycles';

describe('import cycles', () => {
	const root = mkdtempSync(path.join(tmpdir(), 'import-cycles-'));
	afterAll(() => rmSync(root, { recursive: true, force: true }));

	function write(file: string, text: string) {
		mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
		writeFileSync(path.join(root, file), text);
	}

	it('names a circle closed by a type, a lazy import and a component, in import order', () => {
		write('lib/a.ts', "import type { B } from './b';\nexport const a = (b: B) => b;\n");
		write(
			'lib/b.ts',
			"export type B = 1;\nexport const load = () => import('$lib/view.svelte');\n"
		);
		write('lib/view.svelte', '<script lang="ts">\n\timport { a } from \'./a.js\';\n</script>\n');
		// Not circles: an index imported by its folder, a component that renders itself.
		write('lib/tree/index.ts', "export { a } from '../a';\n");
		write('lib/c.ts', "import { a } from './tree';\nexport const c = a;\n");
		write(
			'lib/Node.svelte',
			'<script lang="ts">\n\timport Node from \'./Node.svelte\';\n</script>\n'
		);

		expect(importCycles(importGraph(root))).toEqual([['lib/a.ts', 'lib/b.ts', 'lib/view.svelte']]);
	});

	it('finds none in the tree', () => {
		const graph = importGraph(path.resolve(import.meta.dirname));
		// The graph is the tree's: `$lib` resolves.
		expect(graph.get('hooks.server.ts')).toContain('lib/server/auth/access.ts');
		expect(importCycles(graph)).toEqual([]);
	});
});
