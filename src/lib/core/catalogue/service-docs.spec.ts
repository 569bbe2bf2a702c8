import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICES } from './services';

/**
 * The pages of docs/services against the catalogue: one page per service beyond the contract,
 * each listed in the index, naming the service's id, title and every key as the app shows them.
 */

const DIR = path.resolve(import.meta.dirname, '../../../../docs/services');
const INDEX = readFileSync(path.join(DIR, 'README.md'), 'utf8');
const PAGES = readdirSync(DIR).filter((f) => f.endsWith('.md') && f !== 'README.md');
const BEYOND = SERVICES.filter((s) => s.source);

/** The pages an index links to, by file name. */
const linked = [...INDEX.matchAll(/\]\(([^)#]+\.md)\)/g)].map((m) => m[1]);

describe('docs/services', () => {
	it('lists every page in its index, and each page once', () => {
		expect([...linked].sort()).toEqual([...PAGES].sort());
	});

	it.each(BEYOND.map((s) => [s.id, s] as const))(
		'%s: its page is linked from the index and names its id, title and keys',
		(id, service) => {
			const page = PAGES.find((p) => readFileSync(path.join(DIR, p), 'utf8').includes(`\`${id}\``));
			expect(page, `no page names \`${id}\``).toBeDefined();
			expect(INDEX).toContain(`(${page})`);
			const text = readFileSync(path.join(DIR, page!), 'utf8');
			expect(text).toContain(service.title);
			for (const key of service.keys) expect(text, key.key).toContain(key.key);
		}
	);
});
