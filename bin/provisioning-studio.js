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
process.exitCode = await main(process.argv.slice(2));
