#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The `provisioning-studio` command: runs the bundled program. The bundle is built by
 * `npm run build:cli` (and by `prepare` after `npm ci`); when it is missing, it is built once here.
 */

const bundle = fileURLToPath(new URL('../dist/cli/provisioning-studio.js', import.meta.url));
if (!existsSync(bundle)) {
	const { buildCli } = await import('../scripts/build-cli.js');
	await buildCli();
}
const { main } = await import(pathToFileURL(bundle).href);
try {
	process.exitCode = await main(process.argv.slice(2));
} catch (error) {
	// A bug, not a finding: its own exit code, so CI does not read it as "findings".
	console.error('provisioning-studio: internal error, please report it:', error);
	process.exitCode = 70;
}
