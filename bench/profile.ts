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
	args?: { data?: { type?: string } };
}

/**
 * Starts a trace of the browser's timeline events: what the profile counts as `(program)`,
 * the browser's own work (style, layout, paint), is named there.
 */
export async function startTrace(page: Page): Promise<void> {
	await page
		.context()
		.browser()!
		.startTracing(page, { categories: ['devtools.timeline'] });
}

/**
 * Stops the trace and sums, in ms, the complete events of the thread that dispatched the keys
 * (the page's main thread) by name; an event inside another counts in both.
 */
export async function stopTrace(page: Page): Promise<Map<string, number>> {
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
	for (const e of traceEvents) {
		if (e.ph !== 'X' || e.dur === undefined || thread(e) !== main) continue;
		sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur / 1000);
	}
	return sums;
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
