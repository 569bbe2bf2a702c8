// Finds Prometheus' `promtool` for the metrics test: on the PATH, else unpacked (not installed)
// from Debian's prometheus package into node_modules/.cache, so that no Prometheus server is
// installed or started on the machine. Needs root and apt-get for the download.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CACHE = path.resolve(import.meta.dirname, '../node_modules/.cache/promtool');
const UNPACKED = path.join(CACHE, 'usr/bin/promtool');

function onPath() {
	try {
		execFileSync('promtool', ['--version'], { stdio: 'ignore' });
		return 'promtool';
	} catch {
		return null;
	}
}

/** The path of a working promtool; downloads and unpacks Debian's package when there is none. */
export function ensurePromtool() {
	const found = onPath() ?? (existsSync(UNPACKED) ? UNPACKED : null);
	if (found) return found;
	const isRoot = process.getuid?.() === 0;
	if (!isRoot || !existsSync('/usr/bin/apt-get')) {
		throw new Error(
			'The metrics test needs promtool: install it (Debian/Ubuntu: `sudo apt-get install -y prometheus`, ' +
				'then stop the prometheus service it starts) or put it on the PATH.'
		);
	}
	console.log('promtool is missing: unpacking it from Debian’s prometheus package…');
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const work = mkdtempSync(path.join(tmpdir(), 'promtool-'));
	try {
		execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
		execFileSync('apt-get', ['download', '-qq', '-o', 'APT::Sandbox::User=root', 'prometheus'], {
			cwd: work,
			stdio: 'inherit',
			env
		});
		const deb = readdirSync(work).find((name) => name.endsWith('.deb'));
		if (!deb) throw new Error('apt-get download prometheus gave no package.');
		mkdirSync(CACHE, { recursive: true });
		execFileSync('dpkg-deb', ['-x', path.join(work, deb), CACHE], { stdio: 'inherit' });
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
	if (!existsSync(UNPACKED)) throw new Error('The prometheus package holds no usr/bin/promtool.');
	return UNPACKED;
}
