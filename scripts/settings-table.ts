// Writes docs/configuration.md's table of the app's environment variables from the one schema the
// app checks them with (src/lib/server/platform/environment.ts), between its settings markers.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { settingsTable } from '../src/lib/server/platform/environment';

export const CONFIGURATION = path.resolve(import.meta.dirname, '../docs/configuration.md');
const START = '<!-- settings:start -->';
const END = '<!-- settings:end -->';

/** The schema's table with its links made relative to docs/ (they are written from the root). */
export function configurationTable(): string {
	return settingsTable()
		.replaceAll('](docs/', '](')
		.replaceAll('](#audit-stream)', '](api.md#audit-stream)');
}

function write(): void {
	const text = readFileSync(CONFIGURATION, 'utf8');
	const from = text.indexOf(START);
	const to = text.indexOf(END);
	if (from < 0 || to < from) throw new Error(`${CONFIGURATION} has no ${START} … ${END} block.`);
	writeFileSync(
		CONFIGURATION,
		`${text.slice(0, from + START.length)}\n\n${configurationTable()}\n\n${text.slice(to)}`
	);
	execFileSync('npx', ['prettier', '--write', CONFIGURATION], { stdio: 'inherit' });
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) write();
