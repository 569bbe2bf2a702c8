import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGING_CHECKS } from './rules';

const DOC = readFileSync(
	path.resolve(import.meta.dirname, '../../../../docs/messaging.md'),
	'utf8'
);

describe('the checks of a messaging round', () => {
	it('make an error only from the contract or the documentation', () => {
		for (const check of Object.values(MESSAGING_CHECKS)) {
			if (check.severity === 'error') expect(['contract', 'docs']).toContain(check.source.kind);
		}
	});

	it('are each described in docs/messaging.md at their severity', () => {
		for (const check of Object.values(MESSAGING_CHECKS)) {
			const row = DOC.split('\n').find((line) => line.startsWith(`| \`${check.id}\` `));
			expect(row, check.id).toBeDefined();
			expect(row!.split('|')[2].trim(), check.id).toBe(check.severity);
		}
	});
});
