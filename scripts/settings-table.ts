// Writes README's table of the app's environment variables from the one schema the app checks
// them with (src/lib/server/platform/environment.ts), between its settings markers, then formats README.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { settingsTable } from '../src/lib/server/platform/environment';

const README = path.resolve(import.meta.dirname, '../README.md');
const START = '<!-- settings:start -->';
const END = '<!-- settings:end -->';

const text = readFileSync(README, 'utf8');
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from < 0 || to < from) throw new Error(`README.md has no ${START} … ${END} block.`);
writeFileSync(
	README,
	`${text.slice(0, from + START.length)}\n\n${settingsTable()}\n\n${text.slice(to)}`
);
execFileSync('npx', ['prettier', '--write', README], { stdio: 'inherit' });
