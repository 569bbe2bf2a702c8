import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableCells } from '../../../../tests/helpers/markdown';
import { openApi } from './document';
import { operationTable, TABLE_END, tableStart } from './markdown';
import { OPERATIONS } from './operations';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const COMMITTED = path.join(ROOT, 'docs/openapi.json');

/** Every `+server.ts` under `dir`, with the methods it exports, as `METHOD /path/{param}`. */
function endpoints(dir: string, base: string): string[] {
	const found: string[] = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			found.push(...endpoints(full, `${base}/${entry.name}`));
			continue;
		}
		if (entry.name !== '+server.ts') continue;
		const route = base.replace(/\[\.\.\.[^\]]+\]/g, '{path}').replace(/\[([^\]]+)\]/g, '{$1}');
		const source = readFileSync(full, 'utf8');
		for (const [, method] of source.matchAll(
			/export const (GET|POST|PUT|PATCH|DELETE|fallback)\b/g
		)) {
			found.push(`${method} ${route}`);
		}
	}
	return found;
}

const described = OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`);

describe('the OpenAPI document', () => {
	it('describes every endpoint under src/routes/api, and nothing else there', () => {
		const files = endpoints(path.join(ROOT, 'src/routes/api'), '/api').sort();
		const api = described.filter((d) => d.split(' ')[1].startsWith('/api/')).sort();
		expect(api).toEqual(files);
	});

	it('describes the gateway and the sinks the app serves outside /api', () => {
		const fallbackOf = (dir: string) =>
			endpoints(path.join(ROOT, 'src/routes', dir), `/${dir}`).map((e) => e.split(' ')[1]);
		// A fallback takes any method: the document lists the ones each address answers.
		for (const route of [...fallbackOf('sandbox'), ...fallbackOf('sink')]) {
			const prefix = route.replace('/{path}', '');
			expect(described.some((d) => d.split(' ')[1].startsWith(`${prefix}/`))).toBe(true);
		}
		expect(described).toContain('POST /sandbox/{key}/pnm2/send');
		expect(described).toContain('POST /sandbox/{key}/pnm2/multisend');
	});

	it('gives every operation a unique id, a summary, a tag and its answers', () => {
		const ids = OPERATIONS.map((op) => op.operationId);
		expect(new Set(ids).size).toBe(ids.length);
		for (const op of OPERATIONS) {
			expect(op.summary.length, op.operationId).toBeGreaterThan(5);
			expect(op.description?.length ?? 0, op.operationId).toBeGreaterThan(10);
			const statuses = Object.keys(op.answers).map(Number);
			// The gateway's addresses also answer methods and paths it only refuses, as the contract says.
			expect(
				statuses.some((s) => s < 400) || 'default' in op.answers || op.tag === 'Gateway',
				op.operationId
			).toBe(true);
			if (op.access !== 'public') expect(statuses, op.operationId).toContain(401);
			if (op.body) expect(statuses, op.operationId).toEqual(expect.arrayContaining([400, 413]));
		}
	});

	it('is OpenAPI 3.1 with the package’s version, and one Error schema', () => {
		const { document } = openApi();
		const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
		expect(document.openapi).toBe('3.1.0');
		expect(document.info.version).toBe(pkg.version);
		expect(Object.keys(document.components?.schemas ?? {})).toContain('Error');
	});

	it('is committed as docs/openapi.json, so every change of the API shows in review', () => {
		const committed = readFileSync(COMMITTED, 'utf8');
		expect(committed, 'docs/openapi.json is stale: npm run docs:openapi').toBe(openApi().body);
	});
});

describe('the tables of operations in docs/api.md', () => {
	const text = readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8');
	const { document } = openApi();

	it('are the ones made from the document, one per tag (npm run docs:api writes them)', () => {
		expect(document.tags?.length).toBeGreaterThan(10);
		for (const { name } of document.tags ?? []) {
			const start = text.indexOf(tableStart(name));
			expect(start, `docs/api.md has a table for ${name}`).toBeGreaterThan(-1);
			const end = text.indexOf(TABLE_END, start);
			const written = text.slice(start + tableStart(name).length, end);
			expect(tableCells(written), name).toEqual(
				tableCells(operationTable(document as never, name))
			);
		}
	});

	it('link every operation of the document to its entry in the reference', () => {
		const linked = new Set([...text.matchAll(/\]\(\/api\/docs#(\w+)\)/g)].map((m) => m[1]));
		const refusals = OPERATIONS.filter((op) => / refuses [A-Z]+$/.test(op.summary));
		for (const op of OPERATIONS) {
			if (refusals.includes(op)) continue;
			expect(linked.has(op.operationId), op.operationId).toBe(true);
		}
	});
});
