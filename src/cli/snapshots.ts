import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RenderedRequest } from './model';

/**
 * Request snapshots: each service rendered with each scenario is kept as one `.http` file of
 * exact bytes (request line, headers in order, a blank line, the body as sent), compared byte
 * for byte on later runs, with a line diff when they differ.
 */

/** The text of a rendering's requests, as stored. Several requests are separated by a marker. */
export function requestText(requests: readonly RenderedRequest[]): string {
	if (requests.length === 0) return '# No request is sent.\n';
	return requests
		.map((r) => {
			const head = [
				...(requests.length > 1 ? [`### recipient ${r.recipient ?? ''}`] : []),
				`${r.method} ${r.url}`,
				...r.headers.map((h) => `${h.name}: ${h.value}`)
			].join('\n');
			return r.body === null ? `${head}\n` : `${head}\n\n${r.body}`;
		})
		.join('\n');
}

/** A file or folder name from free text (scenario names): lower case, dashes, nothing else. */
export function slug(text: string): string {
	const s = text
		.normalize('NFKD')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '');
	return s || 'scenario';
}

/**
 * The folder of an input file's snapshots: its path relative to the working directory, without
 * its extension (`profiles/acme.xml` → `<dir>/profiles/acme`).
 */
export function snapshotFolder(dir: string, file: string): string {
	const relative = path.relative(process.cwd(), path.resolve(file));
	const parsed = path.parse(relative);
	const parts = [...parsed.dir.split(path.sep).filter((p) => p !== ''), parsed.name].map((p) =>
		p === '..' ? '_up' : p
	);
	return path.join(dir, ...parts);
}

/** Where one rendering's snapshot lives. */
export function snapshotPath(dir: string, file: string, service: string, scenario: string): string {
	return path.join(snapshotFolder(dir, file), service, `${slug(scenario)}.http`);
}

/** Reads a stored snapshot, or null when there is none. */
export function readSnapshot(file: string): string | null {
	try {
		return readFileSync(file, 'utf8');
	} catch {
		return null;
	}
}

/** Writes a snapshot (folders made as needed). */
export function writeSnapshot(file: string, text: string): void {
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, text);
}

/** Every `.http` file under a folder (none when it does not exist). */
export function storedSnapshots(folder: string): string[] {
	const out: string[] = [];
	const walk = (dir: string) => {
		let entries;
		try {
			entries = readdirSync(dir, { withFileTypes: true });
		} catch {
			return;
		}
		for (const entry of entries) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else if (entry.name.endsWith('.http')) out.push(full);
		}
	};
	walk(folder);
	return out.sort();
}

/** Removes a snapshot no rendering has any more. */
export function removeSnapshot(file: string): void {
	rmSync(file, { force: true });
}

/** A line made visible: tabs, carriage returns and trailing spaces shown. */
function visible(line: string): string {
	return line
		.replace(/\r/g, '␍')
		.replace(/\t/g, '→')
		.replace(/ +$/, (s) => '·'.repeat(s.length));
}

/** The longest common subsequence of two line lists, as pairs of indices. */
function common(a: string[], b: string[]): [number, number][] {
	const n = a.length;
	const m = b.length;
	const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
	for (let i = n - 1; i >= 0; i--) {
		for (let j = m - 1; j >= 0; j--) {
			table[i][j] =
				a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
		}
	}
	const pairs: [number, number][] = [];
	let i = 0;
	let j = 0;
	while (i < n && j < m) {
		if (a[i] === b[j]) {
			pairs.push([i++, j++]);
		} else if (table[i + 1][j] >= table[i][j + 1]) i++;
		else j++;
	}
	return pairs;
}

/**
 * A readable diff of a stored snapshot (`-`) and the rendering (`+`): changed lines with their
 * line numbers and two lines of context; for one changed line, the column where it differs.
 * A difference only in the last line break is said in words.
 */
export function diffText(stored: string, rendered: string): string {
	const a = stored.split('\n');
	const b = rendered.split('\n');
	let start = 0;
	while (start < a.length && start < b.length && a[start] === b[start]) start++;
	let endA = a.length;
	let endB = b.length;
	while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
		endA--;
		endB--;
	}
	const midA = a.slice(start, endA);
	const midB = b.slice(start, endB);
	// Small middles get a real diff; a huge one is shown as removed and added.
	const pairs = midA.length * midB.length <= 4_000_000 ? common(midA, midB) : [];
	const lines: string[] = [];
	const context = (from: number, to: number) => {
		for (let k = Math.max(0, from); k < Math.min(to, a.length); k++)
			lines.push(`  ${String(k + 1).padStart(4)} | ${visible(a[k])}`);
	};
	context(start - 2, start);
	let i = 0;
	let j = 0;
	const cut = (line: string) =>
		line.length > 300 ? `${line.slice(0, 300)}… (${line.length} characters)` : line;
	for (const [pi, pj] of [...pairs, [midA.length, midB.length] as [number, number]]) {
		for (; i < pi; i++)
			lines.push(`- ${String(start + i + 1).padStart(4)} | ${visible(cut(midA[i]))}`);
		for (; j < pj; j++)
			lines.push(`+ ${String(start + j + 1).padStart(4)} | ${visible(cut(midB[j]))}`);
		if (pi < midA.length) {
			lines.push(`  ${String(start + pi + 1).padStart(4)} | ${visible(cut(midA[pi]))}`);
			i++;
			j++;
		}
	}
	context(endA, endA + 2);
	if (midA.length === 1 && midB.length === 1) {
		let column = 0;
		while (midA[0][column] === midB[0][column]) column++;
		lines.push(`  (line ${start + 1} differs from column ${column + 1})`);
	}
	return lines.join('\n');
}
