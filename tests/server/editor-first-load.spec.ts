import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICES } from '$lib/core/catalogue/services';
import { remarkOf } from '$lib/core/catalogue/sources';

/**
 * What the built client loads with the editor's first page: the static imports of the kit's
 * start, its app, the root layout and the editor's route, as the build's manifest links them
 * (the browser fetches exactly these before the page answers a key; `import()`s wait).
 */

const CLIENT = '.svelte-kit/output/client';
const NODES = '.svelte-kit/generated/client-optimized/nodes';
const EDITOR_PAGE = 'src/routes/profiles/[id]/services/[service]/+page.svelte';

interface Chunk {
	file: string;
	isEntry?: boolean;
	imports?: string[];
}

const manifest = JSON.parse(
	readFileSync(path.join(CLIENT, '.vite/manifest.json'), 'utf8')
) as Record<string, Chunk>;

/** The manifest's key of the generated node that renders this page. */
function nodeOf(page: string): string {
	const node = readdirSync(NODES).find((name) =>
		readFileSync(path.join(NODES, name), 'utf8').includes(page)
	);
	if (!node) throw new Error(`No node of the build renders ${page}`);
	return `${NODES}/${node}`;
}

/** The chunks a page's first load fetches, read as text. */
function firstLoad(page: string): Map<string, string> {
	const roots = [
		`${NODES}/0.js`,
		nodeOf(page),
		...Object.keys(manifest).filter((k) => /entry\/(start|app)\./.test(manifest[k].file))
	];
	const seen = new Set<string>();
	const walk = (key: string) => {
		if (seen.has(key)) return;
		seen.add(key);
		for (const next of manifest[key].imports ?? []) walk(next);
	};
	roots.forEach(walk);
	return new Map(
		[...seen].map((key) => [
			manifest[key].file,
			readFileSync(path.join(CLIENT, manifest[key].file), 'utf8')
		])
	);
}

/** The words only a service's full entry holds: its purpose and its remarks. */
function textsOf(service: (typeof SERVICES)[number]): string[] {
	return [service.purpose, ...(service.remarks ?? []).map((r) => remarkOf(r).text)];
}

/** How a minifier may write a text in a script: as it is, or with its quotes escaped. */
function appearsIn(code: string, text: string): boolean {
	return [text, JSON.stringify(text).slice(1, -1)].some((spelling) => code.includes(spelling));
}

describe("the editor's first load", () => {
	const chunks = firstLoad(EDITOR_PAGE);

	it('is read from the build', () => {
		expect(chunks.size).toBeGreaterThan(3);
		// The check finds a catalogue entry where one is: the open service's own words load first.
		const sendMessage = SERVICES.find((s) => s.id === 'sendMessage')!;
		const code = [...chunks.values()].join('\n');
		expect(appearsIn(code, sendMessage.purpose)).toBe(true);
	});

	// Read by the server for the page; the page reads kept XML again only when its draft's changes.
	it("holds no reader of a kept XML's account keys", () => {
		const reader = String.raw`<!\[CDATA\[([\s\S]*?)\]\]>`;
		const all = readdirSync(path.join(CLIENT, '_app/immutable/chunks'), { withFileTypes: true });
		const where = (files: [string, string][]) =>
			files.filter(([, code]) => code.includes(reader)).map(([file]) => file);
		const built = all.map((f): [string, string] => [
			f.name,
			readFileSync(path.join(f.parentPath, f.name), 'utf8')
		]);
		expect(where(built)).not.toEqual([]);
		expect(where([...chunks])).toEqual([]);
	});

	// Each service beyond the contract, in its own file or not, and each the servers call, loads
	// with the page that needs it.
	const later = SERVICES.filter((s) => s.source || s.caller !== 'app');
	it.each(later.map((s) => [s.id, s.source ? 'beyond the contract' : `called by ${s.caller}`]))(
		'holds no entry of %s, %s',
		(id) => {
			const service = SERVICES.find((s) => s.id === id)!;
			const found = [...chunks]
				.filter(([, code]) => textsOf(service).some((text) => appearsIn(code, text)))
				.map(([file]) => file);
			expect(found).toEqual([]);
		}
	);
});
