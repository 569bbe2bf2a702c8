#!/usr/bin/env node
// Makes sure a Chromium is there for the browser tests: Playwright's own download cannot be
// used, so the tests drive the system's Chromium (Debian's package by default).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const wanted = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (existsSync(wanted)) process.exit(0);

if (process.env.CHROMIUM_PATH) {
	console.error(`CHROMIUM_PATH is set to ${wanted}, but there is no file there.`);
	process.exit(1);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (!isRoot || !hasApt) {
	console.error(
		'The browser tests need Chromium at /usr/bin/chromium. Install it (Debian/Ubuntu: ' +
			'`sudo apt-get install -y chromium`) or point CHROMIUM_PATH at a Chromium binary.'
	);
	process.exit(1);
}

console.log('Chromium is missing: installing Debian’s chromium package…');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
if (!existsSync(wanted)) {
	console.error(`apt-get finished but ${wanted} is still missing.`);
	process.exit(1);
}
