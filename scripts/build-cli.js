import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Bundles the command-line program (src/cli) into one ES module, `dist/cli/provisioning-studio.js` (and the chunks it loads),
 * so it starts without compiling TypeScript. Run by `npm run build:cli` and by `prepare` (so a
 * fresh checkout has it after `npm ci`); `bin/provisioning-studio.js` runs this on first use too.
 */

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** Builds the bundle; resolves to its path. */
export async function buildCli() {
	const outdir = path.join(root, 'dist/cli');
	await build({
		entryPoints: { 'provisioning-studio': path.join(root, 'src/cli/main.ts') },
		outdir,
		// The network code (undici) is a chunk of its own, loaded only by --live.
		splitting: true,
		chunkNames: 'chunks/[name]-[hash]',
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node20',
		alias: { $lib: path.join(root, 'src/lib') },
		// Dependencies are bundled too: one parse instead of hundreds of module files (zod alone
		// has over a hundred), which halves the start. Bundled CommonJS (undici, ipaddr.js)
		// requires Node's modules through a real `require`.
		banner: {
			js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
		},
		define: { __CLI_VERSION__: JSON.stringify(pkg.version) },
		legalComments: 'none',
		logLevel: 'warning'
	});
	return path.join(outdir, 'provisioning-studio.js');
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
	await buildCli();
}
