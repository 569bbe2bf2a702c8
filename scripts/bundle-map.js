#!/usr/bin/env node
// What the browser's scripts are made of, by source module: `npm run bundle-map` builds the client
// with source maps (BUNDLE_MAP=1) and attributes every byte of each chunk to the module its
// source map names for it. `npm run bundle-map -- <chunk> …` (paths or names as the browser asked
// for them, e.g. what `npm run bench -- first-key` lists) counts only those chunks: what a given
// moment of a page's load is made of.
//
// A module's gzipped size is its share of its chunk's raw bytes times the chunk's gzipped size
// (gzip works across a whole file, so a module has no gzipped size of its own); the totals are
// the chunks' real gzipped sizes.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const CLIENT = '.svelte-kit/output/client';
const wanted = process.argv.slice(2).map((name) => path.basename(name));

if (process.env.BUNDLE_MAP_SKIP_BUILD !== '1') {
	execFileSync('npx', ['vite', 'build'], {
		stdio: ['ignore', 'ignore', 'inherit'],
		env: { ...process.env, BUNDLE_MAP: '1' }
	});
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...B64].map((c, i) => [c, i]));

/** The source index of each segment of a source map's mappings, line by line: [column, source][]. */
function decode(mappings) {
	const lines = [];
	let source = 0;
	for (const line of mappings.split(';')) {
		const segments = [];
		let column = 0;
		for (const segment of line.split(',')) {
			if (!segment) continue;
			const fields = [];
			let value = 0;
			let shift = 0;
			for (const char of segment) {
				const digit = DIGIT.get(char);
				value += (digit & 31) << shift;
				if (digit & 32) shift += 5;
				else {
					fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
					value = 0;
					shift = 0;
				}
			}
			column += fields[0];
			if (fields.length > 1) {
				source += fields[1];
				segments.push([column, source]);
			} else segments.push([column, -1]);
		}
		lines.push(segments);
	}
	return lines;
}

/** A module's name, shorter: its package, or its path in the project. */
function moduleName(source) {
	const file = source.replace(/^(\.\.\/)+/, '').replace(/\?.*$/, '');
	const nm = file.lastIndexOf('node_modules/');
	if (nm >= 0) return file.slice(nm + 'node_modules/'.length);
	return file;
}

function chunks(dir) {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(dir, entry.name);
		if (entry.isDirectory()) return chunks(file);
		return entry.name.endsWith('.js') ? [file] : [];
	});
}

const modules = new Map();
let total = 0;
let files = 0;
for (const file of chunks(path.join(CLIENT, '_app/immutable'))) {
	if (wanted.length && !wanted.includes(path.basename(file))) continue;
	const code = readFileSync(file, 'utf8');
	const gzipped = gzipSync(code, { level: 9 }).length;
	total += gzipped;
	files++;
	const bytes = new Map();
	const add = (name, n) => bytes.set(name, (bytes.get(name) ?? 0) + n);
	let map;
	try {
		map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
	} catch {
		add(`(no source map) ${path.basename(file)}`, code.length);
	}
	if (map) {
		const lines = code.split('\n');
		decode(map.mappings).forEach((segments, i) => {
			const line = lines[i] ?? '';
			let covered = 0;
			segments.forEach(([column, source], j) => {
				const end = j + 1 < segments.length ? segments[j + 1][0] : line.length;
				const name = source >= 0 ? moduleName(map.sources[source]) : '(generated)';
				add(name, end - column);
				covered += end - column;
			});
			// Before a line's first segment, and its line break, no module is named.
			add('(generated)', line.length - covered + 1);
		});
	}
	for (const [name, n] of bytes) {
		const share = (n / code.length) * gzipped;
		const entry = modules.get(name) ?? { gzip: 0, raw: 0, chunks: new Set() };
		entry.gzip += share;
		entry.raw += n;
		entry.chunks.add(path.basename(file));
		modules.set(name, entry);
	}
}

const kb = (n) => (n / 1024).toFixed(1);
console.log(`${files} chunks, ${kb(total)} KB gzipped (level 9)\n`);
console.log('| module | gzip KB (share) | raw KB | chunks |');
console.log('|---|---|---|---|');
for (const [name, m] of [...modules].sort((a, b) => b[1].gzip - a[1].gzip)) {
	if (m.gzip < 0.05 * 1024 && process.env.BUNDLE_MAP_ALL !== '1') continue;
	console.log(`| ${name} | ${kb(m.gzip)} | ${kb(m.raw)} | ${[...m.chunks].join(' ')} |`);
}
