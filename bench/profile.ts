import type { CDPSession, Page } from '@playwright/test';
import { SourceMap } from 'node:module';

/**
 * Where a page's main thread spends its time: a CPU profile taken through the page's CDP session
 * (`Profiler.start` / `Profiler.stop`), summed by function, each named from the chunk's source map
 * when the build has one (`BUNDLE_MAP=1`) as its source module, line and name, else as the chunk
 * and the minified name with its position.
 */

/** The part of a CDP profile this summary reads. */
interface CpuProfile {
	nodes: {
		id: number;
		callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
		children?: number[];
	}[];
	samples?: number[];
	timeDeltas?: number[];
}

/** A function's share of a profile, in ms. */
export interface ProfileRow {
	name: string;
	self: number;
	total: number;
}

/** Microseconds between samples: fine enough to see a key's few milliseconds. */
const SAMPLING_US = 200;

/** Starts profiling the page of `session`. */
export async function startProfile(session: CDPSession): Promise<void> {
	await session.send('Profiler.enable');
	await session.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
	await session.send('Profiler.start');
}

/** Stops the profile started by {@link startProfile} and sums it by function. */
export async function stopProfile(session: CDPSession): Promise<ProfileRow[]> {
	const { profile } = (await session.send('Profiler.stop')) as unknown as { profile: CpuProfile };
	await session.send('Profiler.disable');
	return summarise(profile, await sourceMaps(profile));
}

/** The source map of each script of the profile that has one beside it (`<script>.map`). */
async function sourceMaps(profile: CpuProfile): Promise<Map<string, SourceMap>> {
	const urls = new Set(profile.nodes.map((n) => n.callFrame.url).filter((u) => u.endsWith('.js')));
	const maps = new Map<string, SourceMap>();
	await Promise.all(
		[...urls].map(async (url) => {
			const response = await fetch(`${url}.map`).catch(() => undefined);
			// A server that answers every path with its page (the floor's) has no map.
			const payload = response?.ok ? await response.json().catch(() => undefined) : undefined;
			if (payload?.mappings) maps.set(url, new SourceMap(payload));
		})
	);
	return maps;
}

/** The name a call frame is summed under. */
function frameName(
	frame: CpuProfile['nodes'][number]['callFrame'],
	maps: Map<string, SourceMap>
): string {
	const fn = frame.functionName || '(anonymous)';
	if (!frame.url) return fn;
	const map = maps.get(frame.url);
	const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
	if (entry && 'originalSource' in entry && entry.originalSource) {
		const source = entry.originalSource.includes('node_modules/')
			? entry.originalSource.replace(/^.*node_modules\//, '')
			: entry.originalSource.replace(/^.*?\/?src\//, 'src/');
		return `${source}:${entry.originalLine + 1} ${entry.name ?? fn}`;
	}
	const chunk = frame.url.split('/').pop() ?? frame.url;
	return `${chunk}:${frame.lineNumber + 1}:${frame.columnNumber + 1} ${fn}`;
}

/**
 * Self time (samples in the function itself) and total time (samples with the function anywhere
 * on the stack, counted once per sample) by name; the idle samples are left out.
 */
export function summarise(profile: CpuProfile, maps = new Map<string, SourceMap>()): ProfileRow[] {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const names = new Map(profile.nodes.map((n) => [n.id, frameName(n.callFrame, maps)]));
	const rows = new Map<string, ProfileRow>();
	const row = (name: string) => {
		let found = rows.get(name);
		if (!found) rows.set(name, (found = { name, self: 0, total: 0 }));
		return found;
	};
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	for (let i = 0; i < samples.length; i++) {
		// A sample's time is the gap until the next one.
		const ms = (deltas[i + 1] ?? 0) / 1000;
		const leaf = byId.get(samples[i]);
		if (!leaf || leaf.callFrame.functionName === '(idle)') continue;
		row(names.get(leaf.id)!).self += ms;
		const seen = new Set<string>();
		for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
			const name = names.get(id)!;
			if (name === '(root)' || seen.has(name)) continue;
			seen.add(name);
			row(name).total += ms;
		}
	}
	return [...rows.values()];
}

/** Whether a row is the project's own code (its modules are named from `src/`). */
export const ownCode = (row: ProfileRow) => row.name.startsWith('src/');

/**
 * The `count` costliest rows by `by` (of those `only` keeps), per key, as table rows: name, self,
 * total.
 */
export function topRows(
	rows: ProfileRow[],
	by: 'self' | 'total',
	keys: number,
	count = 12,
	only: (row: ProfileRow) => boolean = () => true
): string[][] {
	const fmt = (value: number) => `${(value / keys).toFixed(2)} ms`;
	return rows
		.filter(only)
		.sort((a, b) => b[by] - a[by])
		.slice(0, count)
		.map((r) => [`\`${r.name}\``, fmt(r.self), fmt(r.total)]);
}

/** The whole main thread's busy time per key (every sample but the idle ones). */
export function busyPerKey(rows: ProfileRow[], keys: number): string {
	return `${(rows.reduce((sum, r) => sum + r.self, 0) / keys).toFixed(2)} ms`;
}

/** A trace event, as far as {@link stopTrace} reads it. */
interface TraceEvent {
	name: string;
	ph: string;
	pid: number;
	tid: number;
	dur?: number;
	args?: {
		data?: { type?: string; clip?: number[]; nodeId?: number; layerId?: number };
		beginData?: { dirtyObjects?: number; totalObjects?: number };
		endData?: { layoutRoots?: { nodeId?: number }[] };
	};
}

/** What a trace says of the page's main thread: time by event, and what was painted and laid out. */
export interface Trace {
	/** ms by event name; an event inside another counts in both. */
	sums: Map<string, number>;
	/** By the node a paint was for: how many paints, and their area in CSS pixels. */
	paints: Map<string, { count: number; area: number }>;
	/** By the layout's root: how many layouts, and the objects they found dirty and laid out. */
	layouts: Map<string, { count: number; dirty: number; total: number }>;
}

/**
 * Starts a trace of the browser's timeline events: what the profile counts as `(program)`,
 * the browser's own work (style, layout, paint), is named there, with each paint's area and node
 * and each layout's root and objects.
 */
export async function startTrace(page: Page): Promise<void> {
	await page
		.context()
		.browser()!
		.startTracing(page, {
			categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline']
		});
}

/** A quad's area (four corners, x and y each). */
function quadArea(q: number[]): number {
	let twice = 0;
	for (let i = 0; i < 8; i += 2) twice += q[i] * q[(i + 3) % 8] - q[(i + 2) % 8] * q[i + 1];
	return Math.abs(twice) / 2;
}

/** Names nodes of the page by their backend ids, as `tag#id.class[aria-label]`. */
async function nodeNamer(session: CDPSession) {
	await session.send('DOM.getDocument', { depth: 0 });
	const names = new Map<number, Promise<string>>();
	return (id: number | undefined): Promise<string> => {
		if (id === undefined) return Promise.resolve('(no node)');
		let name = names.get(id);
		if (!name) {
			name = session.send('DOM.describeNode', { backendNodeId: id }).then(
				({ node }) => {
					const attrs = new Map<string, string>();
					for (let i = 0; i + 1 < (node.attributes ?? []).length; i += 2)
						attrs.set(node.attributes![i], node.attributes![i + 1]);
					const cls = (attrs.get('class') ?? '').split(/\s+/).filter(Boolean).slice(0, 2);
					const label = attrs.get('aria-label');
					return (
						node.nodeName.toLowerCase() +
						(attrs.has('id') ? `#${attrs.get('id')}` : '') +
						cls.map((c) => `.${c}`).join('') +
						(label ? `[${label}]` : '')
					);
				},
				() => `(node ${id}, gone)`
			);
			names.set(id, name);
		}
		return name;
	};
}

/**
 * Stops the trace and sums the complete events of the thread that dispatched the keys (the
 * page's main thread); with the page's CDP `session`, its paints and layouts by node too.
 */
export async function stopTrace(page: Page, session?: CDPSession): Promise<Trace> {
	const buffer = await page.context().browser()!.stopTracing();
	const { traceEvents } = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
	const thread = (e: TraceEvent) => `${e.pid}:${e.tid}`;
	const keys = new Map<string, number>();
	for (const e of traceEvents) {
		if (e.name === 'EventDispatch' && e.args?.data?.type === 'keydown')
			keys.set(thread(e), (keys.get(thread(e)) ?? 0) + 1);
	}
	const main = [...keys].sort((a, b) => b[1] - a[1])[0]?.[0];
	const sums = new Map<string, number>();
	const paints = new Map<string, { count: number; area: number }>();
	const layouts = new Map<string, { count: number; dirty: number; total: number }>();
	const name = session ? await nodeNamer(session) : async () => '(unnamed)';
	for (const e of traceEvents) {
		if (thread(e) !== main) continue;
		if (e.name === 'Paint' && e.args?.data?.clip) {
			const at = await name(e.args.data.nodeId);
			const row = paints.get(at) ?? { count: 0, area: 0 };
			row.count++;
			row.area += quadArea(e.args.data.clip);
			paints.set(at, row);
		}
		if (e.name === 'Layout' && e.args?.beginData) {
			const at = await name(e.args.endData?.layoutRoots?.[0]?.nodeId);
			const row = layouts.get(at) ?? { count: 0, dirty: 0, total: 0 };
			row.count++;
			row.dirty += e.args.beginData.dirtyObjects ?? 0;
			row.total += e.args.beginData.totalObjects ?? 0;
			layouts.set(at, row);
		}
		if (e.ph !== 'X' || e.dur === undefined) continue;
		sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur / 1000);
	}
	return { sums, paints, layouts };
}

/** The `count` costliest trace events of the page per key, beside the floor's. */
export function traceRows(
	page: Map<string, number>,
	floor: Map<string, number>,
	keys: number,
	count = 10
): string[][] {
	const fmt = (value: number | undefined) => `${((value ?? 0) / keys).toFixed(2)} ms`;
	return [...page]
		.sort((a, b) => b[1] - a[1])
		.slice(0, count)
		.map(([name, ms]) => [`\`${name}\``, fmt(ms), fmt(floor.get(name))]);
}

/** The nodes painted most per key (count, area in px²), the floor's total beside the page's. */
export function paintRows(page: Trace, floor: Trace, keys: number, count = 10): string[][] {
	const total = (t: Trace) => [...t.paints.values()].reduce((s, r) => s + r.area, 0);
	const area = (px: number) => `${Math.round(px / keys).toLocaleString('en')} px²`;
	return [
		['all paints', area(total(page)), area(total(floor))],
		...[...page.paints]
			.sort((a, b) => b[1].area - a[1].area)
			.slice(0, count)
			.map(([node, r]) => [`\`${node}\` (${(r.count / keys).toFixed(1)} a key)`, area(r.area), ''])
	];
}

/** The layouts per key by root: how many, and the objects found dirty and laid out. */
export function layoutRows(page: Trace, floor: Trace, keys: number, count = 6): string[][] {
	const per = (t: Trace) => {
		const all = [...t.layouts.values()];
		const sum = (f: (r: { count: number; dirty: number; total: number }) => number) =>
			(all.reduce((s, r) => s + f(r), 0) / keys).toFixed(1);
		return `${sum((r) => r.count)} · ${sum((r) => r.dirty)} · ${sum((r) => r.total)}`;
	};
	return [
		['all layouts (layouts · dirty objects · objects)', per(page), per(floor)],
		...[...page.layouts]
			.sort((a, b) => b[1].total - a[1].total)
			.slice(0, count)
			.map(([root, r]) => [
				`\`${root}\``,
				`${(r.count / keys).toFixed(1)} · ${(r.dirty / keys).toFixed(1)} · ${(r.total / keys).toFixed(1)}`,
				''
			])
	];
}
