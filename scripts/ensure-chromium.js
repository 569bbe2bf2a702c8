#!/usr/bin/env node
// Makes sure a Chromium is there: Playwright's own download cannot be used, so the tests and the
// benchmarks drive the system's Chromium, from Debian's packages by default.
//
// The browser tests use `chromium-headless-shell`: Chromium's own headless build (the same
// Blink and V8 as the browser, and what Playwright runs for headless tests when it downloads its
// own), without the browser's window, tabs and toolbar. The full browser in headless mode still
// builds and paints those for every page a test opens, which took more of the machine than
// the app's pages did. The benchmarks (`--full`) measure what a user waits for, so they drive
// the full `chromium`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const full = process.argv.includes('--full');
const pkg = full ? 'chromium' : 'chromium-headless-shell';
const wanted = process.env.CHROMIUM_PATH ?? `/usr/bin/${pkg}`;

if (existsSync(wanted)) process.exit(0);

if (process.env.CHROMIUM_PATH) {
	console.error(`CHROMIUM_PATH is set to ${wanted}, but there is no file there.`);
	process.exit(1);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (!isRoot || !hasApt) {
	console.error(
		`${full ? 'The benchmarks' : 'The browser tests'} need ${wanted}. Install it ` +
			`(Debian/Ubuntu: \`sudo apt-get install -y ${pkg}\`) or point CHROMIUM_PATH at a ` +
			'Chromium binary.'
	);
	process.exit(1);
}

console.log(`${wanted} is missing: installing Debian’s ${pkg} package…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env });
if (!existsSync(wanted)) {
	console.error(`apt-get finished but ${wanted} is still missing.`);
	process.exit(1);
}
