// Fails when the modules under src/ import each other in a circle, naming each circle's files in
// order. Every import counts: `import type` and `import()` too, since a circle closed by a type or
// a lazy import still means neither side can be read, moved or tested without the other.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|js|svelte)$/;
const SVELTE_SCRIPT = /<script\b[^>]*>([\s\S]*?)<\/script>/g;
/** How an import without an extension, or with `.js` for a TypeScript file, finds its file. */
const CANDIDATES = ['', '.ts', '.js', '.svelte.ts', '.svelte.js', '/index.ts', '/index.js'];

/** Each module of the tree (a path relative to the root) and the modules of the tree it imports. */
export type ImportGraph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const file = path.join(dir, name);
		if (statSync(file).isDirectory()) return sourceFiles(file);
		return SOURCE.test(name) && !name.endsWith('.d.ts') ? [file] : [];
	});
}

/** The specifiers a module names, scripts only for a Svelte component. */
function specifiers(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const code = file.endsWith('.svelte')
		? [...text.matchAll(SVELTE_SCRIPT)].map((m) => m[1]).join('\n')
		: text;
	return ts.preProcessFile(code, true, true).importedFiles.map((f) => f.fileName);
}

function resolve(from: string, specifier: string, lib: string, files: Set<string>): string | null {
	const bare = specifier.replace(/\?.*$/, '');
	let base: string;
	if (bare === '$lib' || bare.startsWith('$lib/')) base = path.join(lib, bare.slice(4));
	else if (bare.startsWith('.')) base = path.resolve(path.dirname(from), bare);
	else return null; // a package, or a module the kit provides ($app, $env, ./$types)
	const stems = [base, base.replace(/\.js$/, '')];
	for (const stem of stems)
		for (const ending of CANDIDATES) if (files.has(stem + ending)) return stem + ending;
	return null;
}

/** The import graph of the modules under `root`, `$lib` standing for `lib`. */
export function importGraph(root: string, lib = path.join(root, 'lib')): ImportGraph {
	const files = sourceFiles(root);
	const known = new Set(files);
	const graph: ImportGraph = new Map();
	for (const file of files) {
		const targets = specifiers(file)
			.map((s) => resolve(file, s, lib, known))
			.filter((t): t is string => t !== null);
		graph.set(
			path.relative(root, file),
			[...new Set(targets)].map((t) => path.relative(root, t))
		);
	}
	return graph;
}

/** The shortest way from `start` back to itself inside one strongly connected component. */
function shortestCircle(graph: ImportGraph, start: string, component: Set<string>): string[] {
	const cameFrom = new Map<string, string>();
	const queue = [start];
	for (let i = 0; i < queue.length; i++) {
		const node = queue[i];
		for (const next of graph.get(node) ?? []) {
			if (!component.has(next) || next === node) continue;
			if (next === start) {
				const circle = [node];
				while (circle[0] !== start) circle.unshift(cameFrom.get(circle[0])!);
				return circle;
			}
			if (!cameFrom.has(next)) {
				cameFrom.set(next, node);
				queue.push(next);
			}
		}
	}
	return [start];
}

/** The same circle whichever module it is read from. */
function circleKey(circle: string[]): string {
	const first = circle.indexOf([...circle].sort()[0]);
	return [...circle.slice(first), ...circle.slice(0, first)].join('\n');
}

/**
 * The circles of the graph: for each group of modules that reach each other (Tarjan's strongly
 * connected components), the shortest circle through each of its modules, each read from its
 * first module by name in import order. A module importing itself (a recursive component) is no
 * circle.
 */
export function importCycles(graph: ImportGraph): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const components: string[][] = [];

	const visit = (node: string) => {
		index.set(node, index.size);
		low.set(node, index.get(node)!);
		stack.push(node);
		onStack.add(node);
		for (const next of graph.get(node) ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(node, Math.min(low.get(node)!, low.get(next)!));
			} else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
		}
		if (low.get(node) !== index.get(node)) return;
		const component: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			component.push(member);
		} while (member !== node);
		if (component.length > 1) components.push(component);
	};
	for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);

	const circles = new Map<string, string[]>();
	for (const component of components) {
		const members = new Set(component);
		for (const start of component) {
			const circle = shortestCircle(graph, start, members);
			const key = circleKey(circle);
			if (!circles.has(key)) circles.set(key, key.split('\n'));
		}
	}
	return [...circles.values()].sort((a, b) => a.join(' ').localeCompare(b.join(' ')));
}

if (process.argv[1] === import.meta.filename) {
	const root = path.resolve(import.meta.dirname, '../src');
	const cycles = importCycles(importGraph(root));
	for (const cycle of cycles)
		console.error(`Import cycle: ${[...cycle, cycle[0]].map((f) => `src/${f}`).join(' → ')}`);
	if (cycles.length > 0) {
		console.error('Move what both sides need (a type, a constant) to a module they both import.');
		process.exit(1);
	}
}
