import type { TestProject } from 'vitest/node';
import { buildCli } from '../../scripts/build-cli.js';

declare module 'vitest' {
	export interface ProvidedContext {
		/** The command-line program's bundle, built once before any test file runs. */
		cliBundle: string;
	}
}

/**
 * Builds the command-line program once, before the test files start: files run side by side,
 * and one file's build must never rewrite the bundle while another file runs it.
 */
export async function setup(project: TestProject): Promise<void> {
	project.provide('cliBundle', await buildCli());
}
