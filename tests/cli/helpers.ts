import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * Runs the real command-line program, as built by the project's script, in a child process:
 * exit code, stdout and stderr, with a clean environment (no colour unless asked).
 */

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const BIN = path.join(ROOT, 'bin/provisioning-studio.js');

/** The program's bundle, which the run's global setup built (`build-once.ts`). */
export async function ensureBuilt(): Promise<string> {
	return inject('cliBundle');
}

/** What a run of the program gave. */
export interface Run {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs `provisioning-studio <args>` (async: a local upstream in this process can answer it). */
export function run(
	args: string[],
	options: { env?: Record<string, string>; cwd?: string } = {}
): Promise<Run> {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			[BIN, ...args],
			{
				cwd: options.cwd ?? ROOT,
				env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
				maxBuffer: 64 * 1024 * 1024
			},
			(error, stdout, stderr) => {
				const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
				resolve({ code, stdout, stderr });
			}
		);
	});
}

/** A fresh temporary folder, removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
	const dir = mkdtempSync(path.join(tmpdir(), 'ps-cli-'));
	return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fixture's path relative to the project root, as the program names it. */
export function fixture(...parts: string[]): string {
	return path.relative(ROOT, path.join(FIXTURES, ...parts));
}
