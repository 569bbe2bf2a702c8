#!/usr/bin/env node
// Prints one closing line for the whole test run (unit + end-to-end), from the JSON reports the
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
const e2e = read('reports/e2e.json');
const passed = unit.numPassedTests + (e2e.stats?.expected ?? 0);
const failed = unit.numFailedTests + (e2e.stats?.unexpected ?? 0) + (e2e.stats?.flaky ?? 0);
const skipped = unit.numPendingTests + unit.numTodoTests + (e2e.stats?.skipped ?? 0);
console.log(`unit: ${unit.numPassedTests} passed; end-to-end: ${e2e.stats?.expected ?? 0} passed`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
