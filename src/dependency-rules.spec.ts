import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const project = path.resolve(import.meta.dirname, '..');
const CONFIG = ['.dependency-cruiser.cjs', '.dependency-cruiser-resolve.cjs'];

interface Violation {
	rule: { name: string };
	from: string;
	cycle?: { name: string }[];
}

describe('the import rules of `npm run lint`', () => {
	const root = mkdtempSync(path.join(tmpdir(), 'dependency-rules-'));
	afterAll(() => rmSync(root, { recursive: true, force: true }));

	function write(file: string, text: string) {
		mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
		writeFileSync(path.join(root, file), text);
	}

	/** The project's own rules, run on a tree of the fixture's. */
	function violations(): Violation[] {
		for (const file of CONFIG) copyFileSync(path.join(project, file), path.join(root, file));
		const bin = path.join(project, 'node_modules/.bin/depcruise');
		const out = execFileSync(bin, ['src', '--config', CONFIG[0], '--output-type', 'json'], {
			cwd: root,
			encoding: 'utf8'
		});
		return JSON.parse(out).summary.violations;
	}

	it('name a circle closed by a type, a lazy import through $lib and a component', () => {
		write('src/lib/a.ts', "import type { B } from './b';\nexport const a = (b: B) => b;\n");
		write(
			'src/lib/b.ts',
			"export type B = 1;\nexport const load = () => import('$lib/view.svelte');\n"
		);
		write(
			'src/lib/view.svelte',
			'<script lang="ts">\n\timport { a } from \'./a\';\n\ta;\n</script>\n'
		);
		// Not circles: an index imported by its folder, a component that renders itself.
		write('src/lib/tree/index.ts', "export { a } from '../a';\n");
		write('src/lib/c.ts', "import { a } from './tree';\nexport const c = a;\n");
		write(
			'src/lib/Node.svelte',
			'<script lang="ts">\n\timport Node from \'./Node.svelte\';\n</script>\n<Node />\n'
		);

		const found = violations();
		// One report for the one circle, naming its modules; the others are not circles.
		expect(found).toHaveLength(1);
		expect(found[0].rule.name).toBe('no-circular');
		const modules = [found[0].from, ...(found[0].cycle ?? []).map((m) => m.name)];
		expect(new Set(modules)).toEqual(
			new Set(['src/lib/a.ts', 'src/lib/b.ts', 'src/lib/view.svelte'])
		);
	});
});
