import { describe, expect, it } from 'vitest';
import { AuditExportQuerySchema, AuditListQuerySchema, queryIssues, queryObject } from './query';

const query = (text: string) => queryObject(new URLSearchParams(text));

describe('queryObject', () => {
	it('takes the first value of a parameter, as URLSearchParams.get does', () => {
		expect(query('action=a&action=b&limit=5')).toEqual({ action: 'a', limit: '5' });
		expect(Object.getPrototypeOf(query('__proto__=x'))).toBe(Object.prototype);
	});
});

describe('AuditListQuerySchema', () => {
	it('reads the filters and the paging, leaving out what it cannot read', () => {
		expect(AuditListQuerySchema.parse(query(''))).toEqual({ limit: 100 });
		expect(
			AuditListQuerySchema.parse(
				query('action=profile.&actor=ada@example.com&since=2026-11-01&until=soon&before=812')
			)
		).toEqual({
			action: 'profile.',
			actor: 'ada@example.com',
			since: Date.UTC(2026, 10, 1),
			limit: 100,
			before: 812
		});
		expect(AuditListQuerySchema.parse(query('action=&before=-3&since='))).toEqual({ limit: 100 });
	});

	it('brings the limit within 1 to 1000', () => {
		const limit = (value: string) => AuditListQuerySchema.parse(query(`limit=${value}`)).limit;
		expect([limit('5000'), limit('0'), limit('-5'), limit('2.7'), limit('x')]).toEqual([
			1000, 100, 1, 2, 100
		]);
	});
});

describe('AuditExportQuerySchema', () => {
	it('is JSON Lines unless told, with the list’s filters', () => {
		expect(AuditExportQuerySchema.parse(query('since=2026-11-01'))).toEqual({
			format: 'jsonl',
			since: Date.UTC(2026, 10, 1)
		});
		expect(AuditExportQuerySchema.parse(query('format=csv&action=login.')).format).toBe('csv');
	});

	it('refuses a wrong format or time, naming it', () => {
		const refused = AuditExportQuerySchema.safeParse(query('format=xml&until=later'));
		expect(refused.success).toBe(false);
		expect(queryIssues(refused.error!)).toEqual([
			{ code: 'invalid_value', path: ['format'], message: 'format is jsonl or csv, not "xml".' },
			{
				code: 'invalid_value',
				path: ['until'],
				message: 'until is not a date or time: use e.g. 2026-11-01 or 2026-11-01T09:30:00Z.'
			}
		]);
	});
});
