/**
 * The tables of operations in `docs/api.md`, made from the published document: one table per
 * tag, each operation linked to its entry in the reference (`/api/docs#<operationId>`), so the
 * narrative around them never becomes a second list of the API. `npm run docs:api` writes them
 * between their markers; a unit test holds them equal.
 */

interface Operation {
	operationId: string;
	summary: string;
	tags: string[];
	'x-required-role'?: string;
	security?: Record<string, unknown>[];
}

/** As much of an OpenAPI document as the tables read. */
export interface DocumentForTables {
	paths: Record<string, Record<string, Operation | unknown>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A refusal-only operation of the gateway: its summary ends `refuses <METHOD>`. */
const REFUSES = /^(.*) refuses [A-Z]+$/;

/** Where the reference draws an operation, on the app's own origin. */
export function referenceLink(operationId: string): string {
	return `/api/docs#${operationId}`;
}

function who(op: Operation): string {
	if (op.security && op.security.length === 0) return 'anyone';
	return op['x-required-role'] ?? 'signed in';
}

function escape(text: string): string {
	return text.replaceAll('|', '\\|');
}

/**
 * The table of one tag's operations, in the document's order. The methods a gateway address
 * refuses share one row.
 */
export function operationTable(document: DocumentForTables, tag: string): string {
	const rows: string[] = [];
	for (const [path, item] of Object.entries(document.paths)) {
		const refused: { method: string; op: Operation }[] = [];
		for (const method of METHODS) {
			const op = item[method] as Operation | undefined;
			if (!op || op.tags[0] !== tag) continue;
			if (REFUSES.test(op.summary)) {
				refused.push({ method: method.toUpperCase(), op });
				continue;
			}
			const link = `[\`${method.toUpperCase()} ${path}\`](${referenceLink(op.operationId)})`;
			rows.push(`| ${link} | ${escape(op.summary)} | ${who(op)} |`);
		}
		if (refused.length > 0) {
			const first = refused[0].op;
			const methods = refused.map((r) => r.method).join(', ');
			const link = `[\`${methods} ${path}\`](${referenceLink(first.operationId)})`;
			const subject = REFUSES.exec(first.summary)![1];
			rows.push(`| ${link} | ${escape(subject)} refuses these methods | ${who(first)} |`);
		}
	}
	if (rows.length === 0) throw new Error(`No operation has the tag ${tag}.`);
	return ['| operation | what it does | who |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The marker before a tag's table in `docs/api.md`; `<!-- /operations -->` ends it. */
export function tableStart(tag: string): string {
	return `<!-- operations: ${tag} -->`;
}

export const TABLE_END = '<!-- /operations -->';

/**
 * `text` with every marked table made again from the document. Throws for a tag of the
 * document without a table, and for a marker without its end.
 */
export function withOperationTables(text: string, document: DocumentForTables, tags: string[]) {
	let out = text;
	for (const tag of tags) {
		const start = out.indexOf(tableStart(tag));
		if (start < 0) throw new Error(`docs/api.md has no table for the tag ${tag}.`);
		const end = out.indexOf(TABLE_END, start);
		if (end < 0) throw new Error(`The table of ${tag} in docs/api.md has no ${TABLE_END}.`);
		const table = operationTable(document, tag);
		out = `${out.slice(0, start + tableStart(tag).length)}\n\n${table}\n\n${out.slice(end)}`;
	}
	return out;
}
