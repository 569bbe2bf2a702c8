import { describe, expect, it } from 'vitest';
import { safeNext } from './next';

/** How a browser reads a Location header sent by the app at `origin`. */
function landsOn(location: string, origin = 'https://studio.example'): string {
	return new URL(location, `${origin}/login`).origin;
}

describe('safeNext', () => {
	it.each([
		'//evil.example',
		'/.//evil.example',
		'/././/evil.example',
		'/%2e//evil.example',
		'/%2E//evil.example',
		'/x/..//evil.example',
		'/x/%2e%2e//evil.example',
		'/x/%2E%2e/%2fevil.example/..//evil.example',
		'/\\evil.example',
		'/\\\\evil.example',
		'\\/evil.example',
		'/.\\/evil.example',
		'/%5C/evil.example/..//evil.example',
		'/\t/evil.example',
		'/\n/evil.example',
		'/\r\n/evil.example',
		'/.\t//evil.example',
		'/\u0000//evil.example',
		' //evil.example',
		'https://evil.example/',
		'http:/evil.example',
		'javascript:alert(1)',
		'/\t/\t/evil.example',
		'//evil.example/%2e%2e',
		'///evil.example',
		'/../../..//evil.example'
	])('never leaves the site: %j', (raw) => {
		const next = safeNext(raw);
		expect(next.startsWith('/')).toBe(true);
		expect(next.startsWith('//')).toBe(false);
		expect(landsOn(next)).toBe('https://studio.example');
	});

	it.each([
		['/', '/'],
		['/profiles', '/profiles'],
		['/profiles/abc?tab=xml#field', '/profiles/abc?tab=xml#field'],
		['/x/../profiles', '/profiles'],
		['/./profiles', '/profiles'],
		['/%2e/profiles', '/profiles'],
		['/caf\u00e9', '/caf%C3%A9'],
		['/profiles?next=//evil.example', '/profiles?next=//evil.example'],
		['/%2F%2Fevil.example', '/%2F%2Fevil.example']
	])('keeps a path of the site, normalised: %j → %j', (raw, expected) => {
		expect(safeNext(raw)).toBe(expected);
		expect(landsOn(expected)).toBe('https://studio.example');
	});

	it.each(['/login', '/login/', '/logout', '/setup', '/x/../login', '/%2e/setup'])(
		'never goes back to sign-in, sign-out or setup: %j',
		(raw) => {
			expect(safeNext(raw)).toBe('/');
		}
	);

	it.each([null, undefined, 42, '', 'profiles'])('answers / for %j', (raw) => {
		expect(safeNext(raw)).toBe('/');
	});
});
