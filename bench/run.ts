import { benchCli } from './cli';
import { benchEditor } from './editor';
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

console.log(`Node ${process.version}, ${new Date().toISOString()}`);
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

table(
	'XML export and import: 1 MB of templates and 10,000 kept unknown elements',
	['profile', 'operation', 'p50', 'p95', 'runs'],
	benchXml()
);

table(
	"Command line: cold `provisioning-studio check`, wall time including Node's start (a new process each run)",
	['case', 'p50', 'p95', 'min', 'goal', 'runs'],
	await benchCli()
);

table(
	'Profile API under 20 concurrent clients, 10 s each, on SQLite and PostgreSQL (autocannon, built server)',
	['request', 'p50', 'p99', 'throughput', 'non-2xx + errors'],
	await benchServer()
);

table(
	'Test calls: overhead over calling the loopback upstream directly, and 50 concurrent callers',
	['case', 'p50', 'p99', 'throughput', 'calls'],
	await benchTestCalls()
);

table(
	'Push sandbox: sustained sends beside two floors, a 1,000-element multisend, RSS over 100,000 pushes',
	['case', 'p50', 'p99 (RSS: after)', 'throughput', 'non-2xx + errors'],
	await benchSandbox()
);

table(
	'Editor in Chromium: keystroke to updated preview',
	['template', 'p50', 'p95', 'longest task', 'keystrokes'],
	await benchEditor()
);
