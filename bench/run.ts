import { benchCli } from './cli';
import { benchDirectPaths } from './direct-paths';
import { benchEditor, benchEditorProfile, benchFirstKeystroke } from './editor';
import { benchOpenApi } from './openapi';
import { benchOperations } from './operations';
import { benchSandbox } from './sandbox';
import { benchServer } from './server';
import { benchTemplate } from './template';
import { benchTestCalls } from './test-calls';
import { benchXml } from './xml';

/** `npm run bench`: every benchmark of the project, printed as Markdown tables. */

function table(title: string, head: string[], rows: string[][]): void {
	console.log(`\n### ${title}\n`);
	console.log(`| ${head.join(' | ')} |`);
	console.log(`|${head.map(() => '---').join('|')}|`);
	for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

/**
 * `npm run bench -- editor template`: only the named benchmarks; all of them without names.
 * `--profile` makes the editor's run a CPU profile of its typing instead.
 */
const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const runs = (name: string) => only.length === 0 || only.includes(name);

console.log(`Node ${process.version}, ${new Date().toISOString()}`);
if (runs('template'))
	table(
		'Template expansion vs a naive single-regex replace (same input, same run)',
		[
			'template',
			'tokenize+expand p50',
			'p95',
			'naive regex p50',
			'ratio (ours / naive)',
			'full request build p50',
			'p95'
		],
		benchTemplate()
	);

if (runs('xml'))
	table(
		'XML export and import: 1 MB of templates and 10,000 kept unknown elements',
		['profile', 'operation', 'p50', 'p95', 'runs'],
		benchXml()
	);

if (runs('cli'))
	table(
		"Command line: cold `provisioning-studio check`, wall time including Node's start (a new process each run)",
		['case', 'p50', 'p95', 'min', 'goal', 'runs'],
		await benchCli()
	);

if (runs('server'))
	table(
		'Profile API under 20 concurrent clients, 10 s each, on SQLite, PostgreSQL, and two instances on one PostgreSQL with 10 clients each (autocannon, built server)',
		['request', 'p50', 'p99', 'throughput', 'non-2xx + errors'],
		await benchServer()
	);
else if (only.includes('instances'))
	table(
		'Profile API under 20 concurrent clients, 10 s each: one instance on PostgreSQL, and two on one PostgreSQL with 10 clients each (autocannon, built server)',
		['request', 'p50', 'p99', 'throughput', 'non-2xx + errors'],
		await benchServer({ sqlite: false })
	);

if (runs('test-calls'))
	table(
		'Test calls: overhead over calling the loopback upstream directly, and 50 concurrent callers',
		['case', 'p50', 'p99', 'throughput', 'calls'],
		await benchTestCalls()
	);

if (runs('operations'))
	table(
		'Logs and metrics: their cost on a profile read (both off, then both on, same run), and sandbox pushes with both on',
		['case', 'p50', 'p99', 'throughput', 'non-2xx + errors', 'against the goal'],
		await benchOperations()
	);

if (runs('openapi'))
	table(
		'The published API document: made at start, and served (autocannon, built server)',
		['case', 'p50', 'p99', 'goal'],
		await benchOpenApi()
	);

if (runs('direct-paths'))
	table(
		"Paths served before the kit: each figure with the path and through the kit's route, same server, each pair back to back, twice",
		['figure', 'with the path', 'without (the kit)', 'worse without', 'more than a fifth'],
		await benchDirectPaths()
	);

if (runs('sandbox'))
	table(
		'Push sandbox: sustained sends beside two floors, a 1,000-element multisend, RSS over 100,000 pushes',
		['case', 'p50', 'p99 (RSS: after)', 'throughput', 'non-2xx + errors'],
		await benchSandbox()
	);

if (runs('editor') && flags.includes('--profile'))
	for (const { title, head, rows } of await benchEditorProfile())
		table(`Editor CPU profile, ${title}`, head ?? ['function', 'self', 'total'], rows);
else if (runs('editor'))
	table(
		'Editor in Chromium: real key presses at 15 a second into the Send Message JSON body, beside a bare CodeMirror floor',
		[
			'body · page',
			'keydown → preview DOM p50',
			'p95',
			'keydown → next frame p50',
			'p95',
			'keydown → next paint p95 (Event Timing)',
			'long tasks per key',
			'longest task',
			'keys'
		],
		await benchEditor()
	);
else if (only.includes('first-key'))
	table(
		'First keystroke: gzipped JavaScript received when a key typed into the Send Message body shows in the preview, beside a bare CodeMirror floor with the same languages',
		['page', 'at the first keystroke', 'files', 'at', 'once idle', 'files'],
		(await benchFirstKeystroke()).map((row) => row.slice(0, 6))
	);
