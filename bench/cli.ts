import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildCli } from '../scripts/build-cli.js';
import { ms, type Timing } from './measure';

/**
 * Cold `provisioning-studio check`, wall time including Node's start: a new process per run,
 * as CI runs it. A typical profile (two services, four scenarios), and one 1 MB template.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/provisioning-studio.js');
const TYPICAL = path.join(ROOT, 'tests/cli/fixtures/clean/acme.xml');

function coldRuns(args: string[], runs: number): Timing {
	const samples: number[] = [];
	for (let i = 0; i < runs; i++) {
		const t0 = performance.now();
		const result = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: 'ignore' });
		samples.push(performance.now() - t0);
		if (result.status !== 0)
			throw new Error(`check exited with ${result.status}: ${args.join(' ')}`);
	}
	samples.sort((a, b) => a - b);
	const at = (p: number) =>
		samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)];
	return { p50: at(50), p95: at(95), min: samples[0], runs };
}

/** A profile whose Send Message body is a 1 MB JSON template. */
function largeTemplate(dir: string): string {
	const unit = '{"to":"%sms_to%","body":"%sms_body%","note":"a &amp; b"},\n';
	const body = `[${unit.repeat(Math.ceil((1024 * 1024) / unit.length))}{}]`;
	const file = path.join(dir, 'large.xml');
	writeFileSync(
		file,
		'<account>\n<genericSmsSendUrl>https://sms.example.com/send</genericSmsSendUrl>\n' +
			`<genericSmsSendPostData>${body}</genericSmsSendPostData>\n` +
			'<genericSmsSendContentType>application/json</genericSmsSendContentType>\n</account>\n'
	);
	return file;
}

/** Runs the command-line benchmark and returns its table rows. */
export async function benchCli(): Promise<string[][]> {
	await buildCli();
	const dir = mkdtempSync(path.join(tmpdir(), 'bench-cli-'));
	try {
		const bare = coldRuns(['--version'], 20);
		const typical = coldRuns(['check', TYPICAL], 20);
		const large = coldRuns(['check', largeTemplate(dir)], 10);
		const row = (name: string, goal: string, t: Timing) => [
			name,
			ms(t.p50),
			ms(t.p95),
			ms(t.min),
			goal,
			String(t.runs)
		];
		return [
			row('`--version` (Node start + program load)', '', bare),
			row('`check` of a typical profile (2 services, 4 requests)', '≤ 300 ms', typical),
			row('`check` of a 1 MB template (5 scenarios)', '≤ 1 s', large)
		];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
