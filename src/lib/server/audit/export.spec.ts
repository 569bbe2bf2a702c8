import { describe, expect, it } from 'vitest';
import { csvField, csvRecord } from './export';

describe('csvField', () => {
	it('quotes what must be quoted, doubling quotes (RFC 4180)', () => {
		expect(csvField('plain')).toBe('plain');
		expect(csvField('a,b')).toBe('"a,b"');
		expect(csvField('say "hi"')).toBe('"say ""hi"""');
		expect(csvField('two\nlines')).toBe('"two\nlines"');
		expect(csvField('cr\r')).toBe('"cr\r"');
	});

	it('makes a cell a spreadsheet would run as a formula text', () => {
		for (const start of ['=', '+', '-', '@', '\t', '\r']) {
			expect(csvField(`${start}1+1`).replace(/^"/, '')).toMatch(/^'/);
		}
		expect(csvField('=SUM(A1,A2)')).toBe(`"'=SUM(A1,A2)"`);
		expect(csvField('a=b')).toBe('a=b');
	});
});

describe('csvRecord', () => {
	it('writes an entry in the columns order, CRLF-terminated, empty cells for nulls', () => {
		expect(
			csvRecord({
				id: 7,
				at: Date.UTC(2026, 10, 27, 9, 30),
				actorId: null,
				actor: null,
				action: 'logout',
				target: null,
				ip: null,
				details: { reason: 'idle, long' }
			})
		).toBe('7,2026-11-27T09:30:00.000Z,,,logout,,,"{""reason"":""idle, long""}"\r\n');
	});
});
