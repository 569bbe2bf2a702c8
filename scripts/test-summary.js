#!/usr/bin/env node
// Prints one closing line for the whole test run (unit, server and browser tests), from the JSON reports the
// two runners wrote: "tests: N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';

function read(file) {
	try {
		return JSON.parse(readFileSync(file, 'utf8'));
	} catch {
		console.error(`No test report at ${file}: did that runner run?`);
		process.exit(1);
	}
}

const unit = read('reports/unit.json');
const server = read('reports/server.json');
const e2e = read('reports/e2e.json');
const vitest = [unit, server];
const sum = (key) => vitest.reduce((n, report) => n + (report[key] ?? 0), 0);
const passed = sum('numPassedTests') + (e2e.stats?.expected ?? 0);
const failed = sum('numFailedTests') + (e2e.stats?.unexpected ?? 0) + (e2e.stats?.flaky ?? 0);
const skipped = sum('numPendingTests') + sum('numTodoTests') + (e2e.stats?.skipped ?? 0);
console.log(
	`unit: ${unit.numPassedTests} passed; server: ${server.numPassedTests} passed; ` +
		`browser: ${e2e.stats?.expected ?? 0} passed`
);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
