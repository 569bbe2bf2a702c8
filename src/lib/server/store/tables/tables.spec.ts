import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The groups of tables stay apart: each imports what they share and the store's types, never
 * another group nor the assembler, so a group can be read (and a column added) on its own.
 */

const DIR = import.meta.dirname;
const GROUPS = readdirSync(DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));

/** The modules of the project a file imports, as written (static and dynamic imports). */
function localImports(file: string): string[] {
	const text = readFileSync(path.join(DIR, file), 'utf8');
	const found = text.matchAll(/(?:\bfrom|\bimport\s*\(?)\s*['"]((?:\.|\$lib)[^'"]*)['"]/g);
	return [...found].map((m) => m[1]);
}

describe('the groups of tables', () => {
	it('finds the groups', () => {
		expect(GROUPS).toContain('shared.ts');
		expect(GROUPS.length).toBeGreaterThan(5);
	});

	for (const file of GROUPS) {
		it(`${file} imports no other group`, () => {
			const allowed =
				file === 'shared.ts' ? ['../schema', '../types'] : ['./shared', '../schema', '../types'];
			expect(localImports(file).filter((name) => !allowed.includes(name))).toEqual([]);
		});
	}
});
