import path from 'node:path';
import { settingLabel } from '$lib/core/catalogue';
import { ANSWER_SHAPES, type AnswerShapeId } from '$lib/core/catalogue/answer-shapes';
import {
	atLeast,
	type CheckReport,
	type FileResult,
	type Finding,
	type LivePlan,
	type Rendering
} from './model';

/**
 * The reports of `check`: a readable one for a terminal, and JSON, JUnit XML, SARIF 2.1.0 and
 * GitHub workflow commands for CI. All are made from the same report, whose secrets are masked.
 */

/** The reporters `--reporter` accepts. */
export const REPORTERS = ['text', 'json', 'junit', 'sarif', 'github'] as const;
export type Reporter = (typeof REPORTERS)[number];

/** The path of a file as reports name it: relative to the working directory, with `/`. */
export function reportPath(file: string): string {
	const relative = path.relative(process.cwd(), path.resolve(file));
	return relative.split(path.sep).join('/');
}

function where(f: Finding): string {
	return f.place ? `${f.place.line}:${f.place.column}` : '';
}

function subject(f: Finding): string {
	if (f.service && f.key) return settingLabel(f.service, f.key) + ` (${f.key})`;
	if (f.key) return f.key;
	return f.service ?? '';
}

interface Counts {
	error: number;
	warning: number;
	info: number;
}

function counts(report: CheckReport): Counts {
	const c: Counts = { error: 0, warning: 0, info: 0 };
	for (const file of report.files) for (const f of file.findings) c[f.severity]++;
	return c;
}

function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Colours for a terminal; none when `enabled` is false. */
function palette(enabled: boolean) {
	const wrap = (open: number, close: number) => (text: string) =>
		enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
	return {
		red: wrap(31, 39),
		yellow: wrap(33, 39),
		cyan: wrap(36, 39),
		green: wrap(32, 39),
		dim: wrap(2, 22),
		bold: wrap(1, 22)
	};
}

const KIND_LABEL: Record<string, string> = {
	provisioning: 'additional provisioning XML',
	account: '<account> document',
	fragment: 'XML fragment',
	backup: 'JSON backup'
};

/** What `--live` is about to send, in one line: how many requests, to which hosts. */
export function livePlanText(plan: LivePlan, colour: boolean): string {
	const c = palette(colour);
	const through = plan.through ? `, through ${plan.through} (it sends them as its test calls)` : '';
	if (plan.requests === 0) {
		return `${c.bold('Live:')} nothing to send (no configured service renders a request${plan.scenario !== undefined ? ` with "${plan.scenario}"` : ''})${through}.`;
	}
	const which =
		plan.mode === 'all'
			? plan.scenario !== undefined
				? `every request of "${plan.scenario}"`
				: 'every rendered request'
			: `one per service: ${plan.scenario !== undefined ? `the first request of "${plan.scenario}" where it applies, else of the service's first scenario` : "the first request of each service's first scenario"}; --live-all sends all ${plan.rendered}`;
	return `${c.bold('Live:')} sending ${plural(plan.requests, 'request')} (${which}) to ${plan.hosts.join(', ')}${through}.`;
}

/** A live outcome's line: which request was sent and what the platform does with the answer. */
function liveLine(r: Rendering, l: NonNullable<Rendering['live']>[number]): string {
	const recipient = r.requests[l.request]?.recipient;
	const answer = l.error
		? `not answered: ${l.error.message}`
		: `${l.status} → ${l.summary ?? ''}${
				l.shape && l.shape in ANSWER_SHAPES
					? ` (answer shape: ${ANSWER_SHAPES[l.shape as AnswerShapeId].label})`
					: ''
			}`;
	return `sent ${l.method} ${l.url}${recipient ? ` (to ${recipient})` : ''}: ${answer} (${l.ms} ms)`;
}

/** The terminal report. */
export function textReport(report: CheckReport, colour: boolean): string {
	const c = palette(colour);
	const severityText = (s: Finding['severity']) =>
		s === 'error' ? c.red('error  ') : s === 'warning' ? c.yellow('warning') : c.cyan('info   ');
	const out: string[] = [];
	let requests = 0;
	const snapshot = { match: 0, differs: 0, missing: 0, written: 0 };
	const live = { ok: 0, failed: 0 };
	for (const file of report.files) {
		const requestCount = file.renderings.reduce((n, r) => n + r.requests.length, 0);
		requests += requestCount;
		for (const r of file.renderings) {
			if (r.snapshot) snapshot[r.snapshot.status]++;
			for (const l of r.live ?? []) live[l.success ? 'ok' : 'failed']++;
		}
		const services = new Set(file.renderings.map((r) => r.service)).size;
		const about = file.kind
			? c.dim(
					` (${KIND_LABEL[file.kind]}; ${plural(services, 'service')}, ${plural(requestCount, 'request')})`
				)
			: '';
		out.push(c.bold(reportPath(file.file)) + about);
		const sorted = [...file.findings].sort(
			(a, b) =>
				(a.place?.line ?? 0) - (b.place?.line ?? 0) ||
				(a.place?.column ?? 0) - (b.place?.column ?? 0)
		);
		for (const f of sorted) {
			out.push(
				`  ${where(f).padEnd(7)} ${severityText(f.severity)}  ${f.message} ${c.dim(f.code)}`
			);
			const about = [
				// A finding in another file (the scenario file) names it: its place is there.
				f.file !== file.file ? `in ${reportPath(f.file)}` : '',
				subject(f),
				f.scenarios?.length ? `with ${f.scenarios.map((s) => `"${s}"`).join(', ')}` : ''
			].filter((s) => s !== '');
			if (about.length) out.push(c.dim(`${' '.repeat(19)}${about.join(' · ')}`));
			if (f.diff) {
				for (const line of f.diff.split('\n')) {
					out.push(
						' '.repeat(19) +
							(line.startsWith('-')
								? c.red(line)
								: line.startsWith('+')
									? c.green(line)
									: c.dim(line))
					);
				}
			}
		}
		for (const r of file.renderings) {
			for (const l of r.live ?? []) {
				const which = r.requests[l.request]?.recipient
					? ` to ${r.requests[l.request].recipient}`
					: '';
				const what = l.error
					? c.red(`not answered: ${l.error.message}`)
					: `${l.status} → ${l.success ? c.green(l.summary ?? '') : c.red(l.summary ?? '')}${
							l.shape && l.shape in ANSWER_SHAPES
								? ` ${c.dim(`(answer shape: ${ANSWER_SHAPES[l.shape as AnswerShapeId].label})`)}`
								: ''
						}`;
				out.push(
					`  ${c.dim('live')}    ${r.service} with "${r.scenario}"${which}: ${what} ${c.dim(`(${l.ms} ms)`)}`
				);
			}
		}
		for (const flow of file.flows ?? []) {
			const verdict = flow.ok ? c.green('ok') : c.red(flow.refused ? 'not run' : 'failed');
			const run = flow.runId !== undefined ? c.dim(` (run ${flow.runId})`) : '';
			out.push(`  ${c.dim('flow')}    ${flow.flow}: ${verdict}${run}`);
			for (const step of flow.steps) {
				const status =
					step.status === 'failed'
						? c.red(step.status)
						: step.status === 'ok'
							? c.green(step.status)
							: c.dim(step.status);
				const sent = step.request
					? c.dim(` ${step.request}${step.httpStatus !== undefined ? ` → ${step.httpStatus}` : ''}`)
					: '';
				out.push(
					`          ${step.service} ${status}: ${step.text}${sent} ${c.dim(step.contractRow)}`
				);
			}
		}
		if (file.findings.length === 0) out.push(`  ${c.green('no findings')}`);
		out.push('');
	}
	const total = counts(report);
	const parts = [
		plural(total.error, 'error'),
		plural(total.warning, 'warning'),
		plural(total.info, 'info')
	];
	const line = [
		`${parts.join(', ')} in ${plural(report.files.length, 'file')}`,
		`${plural(requests, 'request')} rendered`
	];
	const stored = Object.entries(snapshot).filter(([, n]) => n > 0);
	if (stored.length) line.push(`snapshots: ${stored.map(([k, n]) => `${n} ${k}`).join(', ')}`);
	if (report.live) {
		const sent = `sent ${report.live.requests} of ${plural(report.live.rendered, 'rendered request')}${report.live.mode === 'one-per-service' ? ' (one per service)' : ''}`;
		line.push(`live: ${live.ok} read as success, ${live.failed} as failure, ${sent}`);
	}
	const flows = report.files.flatMap((f) => f.flows ?? []);
	if (flows.length) {
		line.push(
			`flows: ${flows.filter((f) => f.ok).length} ok, ${flows.filter((f) => !f.ok).length} failed`
		);
	}
	if (report.server) line.push(`through ${report.server}`);
	const mark = report.exitCode === 0 ? c.green('✔') : c.red('✖');
	out.push(`${mark} ${line.join(' · ')}`);
	if (report.exitCode === 1 && report.failOn !== 'none') {
		out.push(c.dim(`  (fails on ${report.failOn} and above; see --fail-on)`));
	}
	return out.join('\n') + '\n';
}

/** The JSON report: the whole report as data. */
export function jsonReport(report: CheckReport): string {
	return JSON.stringify(report, null, 2) + '\n';
}

/** Text XML 1.0 can hold, escaped for an attribute or element. */
export function xmlEscape(text: string): string {
	return (
		text
			// eslint-disable-next-line no-control-regex
			.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
			.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
			.replace(/&/g, '&amp;')
			.replace(/</g, '&lt;')
			.replace(/>/g, '&gt;')
			.replace(/"/g, '&quot;')
			.replace(/\r/g, '&#13;')
			.replace(/\n/g, '&#10;')
	);
}

/** Element text: line breaks kept as they are. */
function xmlText(text: string): string {
	return xmlEscape(text).replace(/&#10;/g, '\n');
}

function findingText(f: Finding): string {
	const lines = [
		`${reportPath(f.file)}${f.place ? `:${f.place.line}:${f.place.column}` : ''} ${f.severity} ${f.code}`,
		...(subject(f) ? [subject(f)] : []),
		f.message,
		...(f.scenarios?.length ? [`with ${f.scenarios.map((s) => `"${s}"`).join(', ')}`] : []),
		...(f.diff ? [f.diff] : [])
	];
	return lines.join('\n');
}

interface TestCase {
	name: string;
	findings: Finding[];
	/** What `--live` sent in this rendering, a line each. */
	sent: string[];
}

/** A file's test cases: reading it, each service's lint, each service × scenario rendering. */
function testCases(file: FileResult): TestCase[] {
	const cases = new Map<string, TestCase>();
	const add = (name: string, finding?: Finding) => {
		const testCase = cases.get(name) ?? { name, findings: [], sent: [] };
		if (finding) testCase.findings.push(finding);
		cases.set(name, testCase);
		return testCase;
	};
	add('read');
	for (const r of file.renderings) {
		add(`lint ${r.service}`);
		const rendered = add(`render ${r.service} with "${r.scenario}"`);
		rendered.sent.push(...(r.live ?? []).map((l) => liveLine(r, l)));
	}
	for (const flow of file.flows ?? []) add(`flow ${flow.flow}`);
	for (const f of file.findings) {
		if (f.flow) {
			add(`flow ${f.flow}`, f);
			continue;
		}
		const perScenario = /^(snapshot|live)_/.test(f.code) && f.service && f.scenarios?.length === 1;
		if (perScenario) add(`render ${f.service} with "${f.scenarios![0]}"`, f);
		else if (f.service) add(`lint ${f.service}`, f);
		else add('read', f);
	}
	return [...cases.values()];
}

/**
 * JUnit XML (the common Ant/Jenkins/GitLab form): one test suite per file, one test case for
 * reading it, one per service's lint and one per service and scenario rendered. Findings at or
 * above `--fail-on` (and every snapshot or live failure) are `<failure>`s; an unreadable file is
 * an `<error>`; other findings are kept in `<system-out>`.
 */
export function junitReport(report: CheckReport): string {
	const suites: string[] = [];
	let tests = 0;
	let failures = 0;
	let errors = 0;
	for (const file of report.files) {
		const cases = testCases(file);
		const name = reportPath(file.file);
		let suiteFailures = 0;
		let suiteErrors = 0;
		const body = cases.map((testCase) => {
			const failing = testCase.findings.filter(
				(f) =>
					atLeast(f.severity, report.failOn) ||
					(/^(snapshot|live|flow)_/.test(f.code) && f.severity === 'error')
			);
			const quiet = testCase.findings.filter((f) => !failing.includes(f));
			const attrs = `name="${xmlEscape(testCase.name)}" classname="${xmlEscape(name)}"`;
			const inner: string[] = [];
			if (failing.length) {
				const unreadable = failing.some((f) => f.code === 'unreadable_input');
				const tag = unreadable ? 'error' : 'failure';
				if (unreadable) suiteErrors++;
				else suiteFailures++;
				const first = failing[0];
				inner.push(
					`      <${tag} message="${xmlEscape(first.message)}" type="${xmlEscape(first.code)}">${xmlText(failing.map(findingText).join('\n\n'))}</${tag}>`
				);
			}
			const out = [...testCase.sent, ...quiet.map(findingText)];
			if (out.length) {
				inner.push(`      <system-out>${xmlText(out.join('\n\n'))}</system-out>`);
			}
			return inner.length
				? `    <testcase ${attrs}>\n${inner.join('\n')}\n    </testcase>`
				: `    <testcase ${attrs}/>`;
		});
		tests += cases.length;
		failures += suiteFailures;
		errors += suiteErrors;
		suites.push(
			`  <testsuite name="${xmlEscape(name)}" tests="${cases.length}" failures="${suiteFailures}" errors="${suiteErrors}" skipped="0">\n${body.join('\n')}\n  </testsuite>`
		);
	}
	return [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<testsuites name="provisioning-studio check" tests="${tests}" failures="${failures}" errors="${errors}">`,
		...suites,
		'</testsuites>',
		''
	].join('\n');
}

/** What `--live` sent, for the SARIF run's property bag: the plan and each request sent. */
function sarifLive(report: CheckReport) {
	return {
		...report.live,
		sent: report.files.flatMap((f) =>
			f.renderings.flatMap((r) =>
				(r.live ?? []).map((l) => ({
					file: reportPath(f.file),
					service: r.service,
					scenario: r.scenario,
					request: l.request,
					method: l.method,
					url: l.url,
					...(l.status !== undefined ? { status: l.status } : {}),
					...(l.error ? { error: l.error.code } : {})
				}))
			)
		)
	};
}

const SARIF_LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/**
 * SARIF 2.1.0 (what code scanning reads): one run, one rule per finding code, one result per
 * finding with its file and, when known, its line and column.
 */
export function sarifReport(report: CheckReport): string {
	const all = report.files.flatMap((f) => f.findings);
	const ruleIds = [...new Set(all.map((f) => f.code))].sort();
	const results = all.map((f) => {
		const message = [
			subject(f),
			f.message,
			f.scenarios?.length ? `(with ${f.scenarios.map((s) => `"${s}"`).join(', ')})` : ''
		]
			.filter((s) => s !== '')
			.join(': ')
			.replace(/: \(with/, ' (with');
		return {
			ruleId: f.code,
			ruleIndex: ruleIds.indexOf(f.code),
			level: SARIF_LEVEL[f.severity],
			message: { text: f.diff ? `${message}\n${f.diff}` : message },
			locations: [
				{
					physicalLocation: {
						artifactLocation: { uri: encodeURI(reportPath(f.file)) },
						...(f.place ? { region: { startLine: f.place.line, startColumn: f.place.column } } : {})
					}
				}
			]
		};
	});
	const sarif = {
		$schema: 'https://json.schemastore.org/sarif-2.1.0.json',
		version: '2.1.0',
		runs: [
			{
				tool: {
					driver: {
						name: 'provisioning-studio',
						version: report.version,
						rules: ruleIds.map((id) => ({ id, shortDescription: { text: id.replace(/_/g, ' ') } }))
					}
				},
				results,
				...(report.live ? { properties: { live: sarifLive(report) } } : {})
			}
		]
	};
	return JSON.stringify(sarif, null, 2) + '\n';
}

function escapeData(text: string): string {
	return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
	return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** GitHub Actions workflow commands: an annotation per finding, on its file and line. */
export function githubReport(report: CheckReport): string {
	const lines: string[] = [];
	for (const file of report.files) {
		for (const f of file.findings) {
			const command =
				f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'notice';
			const props = [`file=${escapeProperty(reportPath(f.file))}`];
			if (f.place) props.push(`line=${f.place.line}`, `col=${f.place.column}`);
			props.push(`title=${escapeProperty(`${f.code}${subject(f) ? ` · ${subject(f)}` : ''}`)}`);
			const text = f.diff ? `${f.message}\n${f.diff}` : f.message;
			lines.push(`::${command} ${props.join(',')}::${escapeData(text)}`);
		}
	}
	return lines.join('\n') + (lines.length ? '\n' : '');
}

/** The report in the chosen form. */
export function formatReport(report: CheckReport, reporter: Reporter, colour: boolean): string {
	switch (reporter) {
		case 'json':
			return jsonReport(report);
		case 'junit':
			return junitReport(report);
		case 'sarif':
			return sarifReport(report);
		case 'github':
			return githubReport(report);
		default:
			return textReport(report, colour);
	}
}
