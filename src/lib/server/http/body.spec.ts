import { describe, expect, it } from 'vitest';
import { contentDisposition, downloadHeaders } from './body';

/** The names a browser would take from a Content-Disposition value. */
function names(value: string): { filename: string; filenameStar: string } {
	const filename = /; filename="([^"]*)"/.exec(value)?.[1];
	const star = /; filename\*=UTF-8''([^;\s]*)$/.exec(value)?.[1];
	if (filename === undefined || star === undefined) throw new Error(`Unreadable: ${value}`);
	return { filename, filenameStar: decodeURIComponent(star) };
}

const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/u;

describe('contentDisposition', () => {
	it.each([
		['right-to-left override', 'x\u202egnp.exe'],
		['left-to-right override', 'x\u202dgnp.exe'],
		['right-to-left embedding and pop', 'a\u202bb\u202c'],
		['isolates', 'a\u2066b\u2067c\u2068d\u2069'],
		['marks', 'a\u200eb\u200fc\u061c'],
		['zero-width characters', 'a\u200bb\u200cc\u200dd\u2060e'],
		['a byte order mark', '\ufeffname'],
		['a NUL', 'a\u0000b'],
		['line breaks and a tab', 'a\r\nb\tc'],
		['DEL and C1 controls', 'a\u007fb\u0085c\u009bd'],
		['line and paragraph separators', 'a\u2028b\u2029c'],
		['a lone surrogate', 'a\ud800b'],
		['a private-use character', 'a\ue000b'],
		['a soft hyphen', 'a\u00adb']
	])('strips %s from filename and filename*', (_, name) => {
		const value = contentDisposition(name, '-backup.json');
		expect(value).not.toMatch(UNSAFE);
		const { filename, filenameStar } = names(value);
		expect(filename).not.toMatch(UNSAFE);
		expect(filenameStar).not.toMatch(UNSAFE);
		expect(filenameStar.endsWith('-backup.json')).toBe(true);
	});

	it('turns x\u202egnp.exe into xgnp.exe, never a name that reads as .png', () => {
		const { filename, filenameStar } = names(contentDisposition('x\u202egnp.exe'));
		expect(filename).toBe('xgnp.exe');
		expect(filenameStar).toBe('xgnp.exe');
	});

	it('keeps letters of any script in filename* and gives filename in ASCII', () => {
		const { filename, filenameStar } = names(contentDisposition('Café Ünïcode 電話', '.xml'));
		expect(filename).toBe('Caf-n-code.xml');
		expect(filenameStar).toBe('Café Ünïcode 電話.xml');
	});

	it('quotes nothing that could end the value early', () => {
		const value = contentDisposition('a"b\\c;d\'e(f)*', '.json');
		expect(names(value).filename).toBe('a-b-c-d-e-f.json');
		expect(value).toMatch(/filename\*=UTF-8''a%22b%5Cc%3Bd%27e%28f%29%2A\.json$/);
	});

	it('falls back when nothing printable is left', () => {
		expect(names(contentDisposition('\u202e\u200b', '.md')).filename).toBe('download.md');
		expect(names(contentDisposition('\u202e\u200b', '.md')).filenameStar).toBe('download.md');
		expect(names(contentDisposition('...', '.md')).filename).toBe('download.md');
	});
});

describe('downloadHeaders', () => {
	it('names a profile download without its format characters, and types it', () => {
		const headers = new Headers(
			downloadHeaders('Evil\u202egnp', '-backup.json', 'application/json')
		);
		expect(headers.get('content-type')).toBe('application/json');
		const { filename, filenameStar } = names(headers.get('content-disposition')!);
		expect(filename).toBe('Evilgnp-backup.json');
		expect(filenameStar).toBe('Evilgnp-backup.json');
	});
});
