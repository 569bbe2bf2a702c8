import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import client from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { ensurePromtool } from '../../scripts/ensure-promtool.js';

/**
 * docs/deploy.md stays true: the Prometheus configuration and alert rules it links
 * (docs/deploy/) pass `promtool check config` and `promtool check rules`, every metric the rules
 * use is one the app exports, the systemd unit gives a stop more than SHUTDOWN_TIMEOUT_SECONDS,
 * nginx's unbuffered location covers every event-stream route, and every setting the page names
 * is in docs/configuration.md's settings table. No server is started: the app's metric names and
 * routes are read from its source, prom-client's default metrics from a registry made here.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOC = readFileSync(path.join(ROOT, 'docs/deploy.md'), 'utf8');
const work = mkdtempSync(path.join(tmpdir(), 'deploy-docs-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

const CONFIG = 'prometheus.yml';
const RULES = 'provisioning-studio.rules.yml';

/** The files the page links under docs/deploy/, by file name. */
const blocks = new Map(
	[CONFIG, RULES].map((name) => [name, readFileSync(path.join(ROOT, 'docs/deploy', name), 'utf8')])
);

/** Every file under `dir` whose name ends with one of `suffixes`. */
function filesUnder(dir: string, suffixes: string[]): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = path.join(dir, name);
		if (statSync(full).isDirectory()) return filesUnder(full, suffixes);
		return suffixes.some((s) => name.endsWith(s)) && !name.includes('.spec.') ? [full] : [];
	});
}

/**
 * The series names the app exports: the families its code defines (`name: '…'` next to a
 * prom-client metric, wherever under src/ that code lives), prom-client's default metrics, each
 * histogram's and summary's `_bucket`/`_sum`/`_count`, and Prometheus' own `up`.
 */
async function exportedNames(): Promise<Set<string>> {
	const names = new Set(['up']);
	const suffixed = (name: string, type: string) => {
		names.add(name);
		if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name + s);
		if (type === 'summary') for (const s of ['_sum', '_count']) names.add(name + s);
	};
	for (const file of filesUnder(path.join(ROOT, 'src'), ['.js', '.ts'])) {
		const text = readFileSync(file, 'utf8');
		if (!text.includes('prom-client')) continue;
		const families =
			/new client\.(Counter|Gauge|Histogram|Summary)\(\{\s*name: '([a-z_:][a-z0-9_:]*)'/g;
		for (const [, type, name] of text.matchAll(families)) suffixed(name, type.toLowerCase());
	}
	const registry = new client.Registry();
	client.collectDefaultMetrics({ register: registry });
	for (const metric of await registry.getMetricsAsJSON())
		suffixed(metric.name, String(metric.type));
	return names;
}

/** PromQL functions and keywords that look like names. */
const PROMQL_WORDS = new Set([
	'histogram_quantile',
	'label_replace',
	'label_join',
	'absent_over_time',
	'avg_over_time',
	'max_over_time',
	'min_over_time',
	'sum_over_time',
	'count_over_time',
	'quantile_over_time',
	'last_over_time',
	'present_over_time'
]);

/** The metric names an expression uses: selectors, and bare names with an underscore. */
function metricNames(expr: string): string[] {
	const bare = expr
		.replace(/"(?:[^"\\]|\\.)*"/g, '""')
		.replace(/\{[^}]*\}/g, '{}')
		.replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
	const found = new Set<string>();
	for (const [name] of bare.matchAll(/\b[a-zA-Z_:][a-zA-Z0-9_:]*\b/g)) {
		if (/\d/.test(name[0])) continue;
		const isSelector = new RegExp(`\\b${name}\\s*(\\{|\\[)`).test(bare);
		if (isSelector || (name.includes('_') && !PROMQL_WORDS.has(name))) found.add(name);
	}
	return [...found];
}

/** The settings of docs/configuration.md's table, `<NAME>_FILE` forms included. */
function documentedSettings(): Set<string> {
	const doc = readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');
	const table = /<!-- settings:start -->([\s\S]*?)<!-- settings:end -->/.exec(doc)?.[1] ?? '';
	const names = new Set<string>();
	for (const line of table.split('\n')) {
		const first = line.split('|')[1] ?? '';
		for (const [, name] of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(name);
	}
	return names;
}

/** Words in capitals on the page that are not the app's settings. */
const NOT_SETTINGS = new Set([
	'PROT_READ',
	'PROT_WRITE',
	'PROT_EXEC',
	'AF_INET',
	'AF_INET6',
	'AF_UNIX'
]);

describe('docs/deploy.md', () => {
	it('links the Prometheus configuration and rules', () => {
		for (const name of [CONFIG, RULES]) expect(DOC).toContain(`](deploy/${name})`);
		expect(blocks.get(CONFIG)).toContain(`- ${RULES}`);
	});

	it('has a Prometheus configuration and rules promtool accepts', () => {
		const promtool = ensurePromtool();
		for (const [name, text] of blocks) writeFileSync(path.join(work, name), text);
		// The configuration reads the bearer token from a file beside it; promtool checks it exists.
		const tokenFile = /credentials_file: (\S+)/.exec(blocks.get(CONFIG) ?? '')?.[1];
		expect(tokenFile).toBeDefined();
		expect(path.isAbsolute(tokenFile!)).toBe(false);
		writeFileSync(path.join(work, tokenFile!), 'token\n');
		const run = (...args: string[]) =>
			execFileSync(promtool, args, { cwd: work, encoding: 'utf8', stdio: 'pipe' });
		expect(run('check', 'config', CONFIG)).toMatch(/SUCCESS: 1 rule files found/);
		expect(run('check', 'rules', RULES)).toMatch(/SUCCESS: \d+ rules found/);
	});

	it('alerts only on metrics the app exports', async () => {
		const exported = await exportedNames();
		expect(exported).toContain('http_request_duration_seconds_bucket');
		expect(exported).toContain('provisioning_audit_stream_backlog');
		expect(exported).toContain('nodejs_eventloop_lag_p99_seconds');
		const rules = blocks.get(RULES) ?? '';
		const exprs = [...rules.matchAll(/expr: (?:\|\n)?([\s\S]*?)\n\s+(?:for|labels):/g)].map(
			([, expr]) => expr
		);
		expect(exprs.length).toBeGreaterThan(5);
		const used = new Set(exprs.flatMap(metricNames));
		expect(used).toContain('provisioning_audit_stream_deliveries_total');
		expect([...used].filter((name) => !exported.has(name))).toEqual([]);
	});

	it('uses the label values the app counts with', () => {
		const rules = blocks.get(RULES) ?? '';
		const source = (file: string) =>
			filesUnder(path.join(ROOT, 'src/lib/server'), ['.ts', '.js'])
				.map((f) => readFileSync(f, 'utf8'))
				.filter((text) => text.includes(file))
				.join('\n');
		const delivered = source('auditStreamDeliveries');
		for (const [, value] of rules.matchAll(/deliveries_total\{[^}]*result="([^"]+)"/g)) {
			expect(delivered).toContain(`'${value}'`);
		}
		const signIns = source('signIns.inc');
		for (const [, values] of rules.matchAll(/sign_ins_total\{[^}]*result=~"([^"]+)"/g)) {
			for (const value of values.split('|')) expect(signIns).toContain(`result: '${value}'`);
		}
	});

	it('gives a stop more time than the app takes, and leaves W+X memory to V8', () => {
		const unit = /```ini\n(\[Unit\][\s\S]*?)\n```/.exec(DOC)?.[1] ?? '';
		const stop = Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]);
		const shutdown = Number(/^SHUTDOWN_TIMEOUT_SECONDS=(\d+)$/m.exec(DOC)?.[1] ?? 25);
		expect(stop).toBeGreaterThan(shutdown);
		expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
		expect(unit).not.toMatch(/^MemoryDenyWriteExecute=yes/m);
	});

	it('turns proxy buffering off for every event stream the app serves', () => {
		const location = /location ~ (\S+) \{\n\s+proxy_pass [^\n]+\n\s+proxy_buffering off;/.exec(
			DOC
		)?.[1];
		expect(location).toBeDefined();
		const streams = filesUnder(path.join(ROOT, 'src/routes'), ['+server.ts', '+server.js'])
			.filter((file) => /\b(?:resumableEventStream|eventStream)\(/.test(readFileSync(file, 'utf8')))
			.map((file) =>
				path
					.relative(path.join(ROOT, 'src/routes'), path.dirname(file))
					.split(path.sep)
					.filter((part) => !/^\(.*\)$/.test(part))
					.map((part) => (/^\[.*\]$/.test(part) ? 'x1' : part))
					.join('/')
			);
		expect(streams.length).toBeGreaterThan(0);
		for (const stream of streams) expect(`/${stream}`).toMatch(new RegExp(location!));
	});

	it('names only settings of the configuration’s table', () => {
		const settings = documentedSettings();
		expect(settings).toContain('SHUTDOWN_TIMEOUT_SECONDS');
		expect(settings).toContain('SECRET_KEY_FILE');
		const named = new Set(
			[...DOC.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)].map(([name]) => name)
		);
		expect(named.size).toBeGreaterThan(10);
		expect([...named].filter((name) => !settings.has(name) && !NOT_SETTINGS.has(name))).toEqual([]);
	});
});
