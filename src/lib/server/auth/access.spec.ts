import { describe, expect, it } from 'vitest';
import { allows, requiredAccess, routedPath, type Access } from './access';

describe('requiredAccess', () => {
	it.each([
		// Public: assets, sign-in, setup, health.
		['GET', '/_app/immutable/entry/start.js', 'public'],
		['GET', '/favicon.svg', 'public'],
		['GET', '/robots.txt', 'public'],
		['GET', '/login', 'public'],
		['POST', '/login', 'public'],
		['GET', '/setup/', 'public'],
		['POST', '/api/session', 'public'],
		['GET', '/api/health', 'public'],
		// Any signed-in user: the own session, tokens, password, second factor.
		['GET', '/api/session', 'user'],
		['DELETE', '/api/session', 'user'],
		['GET', '/api/tokens', 'user'],
		['POST', '/api/tokens', 'user'],
		['DELETE', '/api/tokens/3', 'user'],
		['PUT', '/api/me/password', 'user'],
		['POST', '/api/me/totp', 'user'],
		['DELETE', '/api/me/totp', 'user'],
		['POST', '/logout', 'user'],
		['GET', '/account', 'user'],
		// Viewers read everything else, and preview.
		['GET', '/', 'viewer'],
		['HEAD', '/profiles', 'viewer'],
		['GET', '/api/profiles', 'viewer'],
		['GET', '/api/profiles/x/diff', 'viewer'],
		['OPTIONS', '/api/profiles', 'viewer'],
		['POST', '/api/preview', 'viewer'],
		// Editors write.
		['POST', '/api/profiles', 'editor'],
		['PUT', '/api/profiles/x', 'editor'],
		['PATCH', '/api/profiles/x', 'editor'],
		['DELETE', '/api/profiles/x', 'editor'],
		['POST', '/api/profiles/x/revisions/1/restore', 'editor'],
		['POST', '/profiles', 'editor'],
		['PROPFIND', '/api/profiles', 'editor'],
		// Admins manage users and read the audit log, whatever the method.
		['GET', '/admin', 'admin'],
		['GET', '/admin/users', 'admin'],
		['GET', '/api/users', 'admin'],
		['POST', '/api/users', 'admin'],
		['PATCH', '/api/users/2', 'admin'],
		['DELETE', '/api/users/2/totp', 'admin'],
		['GET', '/api/audit', 'admin'],
		['GET', '/api/users/', 'admin'],
		// Paths the router decodes before matching a route are checked decoded too.
		['GET', '/api/%75sers', 'admin'],
		['PATCH', '/api/%75sers/2', 'admin'],
		['GET', '/api/%61udit', 'admin'],
		['GET', '/%61pi/users', 'admin'],
		['GET', '/%61dmin', 'admin'],
		['POST', '/api/%70rofiles', 'editor'],
		['GET', '/api/%68ealth', 'public'],
		// Not the same as the public paths.
		['GET', '/loginx', 'viewer'],
		['POST', '/api/sessions', 'editor'],
		['GET', '/api/healthz', 'viewer'],
		['GET', '/admins', 'viewer']
	] as [string, string, Access][])('%s %s needs %s', (method, path, access) => {
		expect(requiredAccess(method, path)).toBe(access);
	});
});

describe('routedPath', () => {
	it('decodes as the router does: everything but %25 and reserved characters', () => {
		expect(routedPath('/api/%75sers')).toBe('/api/users');
		expect(routedPath('/api/%2575sers')).toBe('/api/%2575sers');
		expect(routedPath('/api/users%2F1')).toBe('/api/users%2F1');
		expect(routedPath('/caf%C3%A9')).toBe('/caf\u00e9');
	});

	it('leaves a path that does not decode as it is', () => {
		expect(routedPath('/api/%E0%A4%A')).toBe('/api/%E0%A4%A');
	});
});

describe('allows', () => {
	it.each([
		['viewer', 'public', true],
		['viewer', 'user', true],
		['viewer', 'viewer', true],
		['viewer', 'editor', false],
		['viewer', 'admin', false],
		['editor', 'viewer', true],
		['editor', 'editor', true],
		['editor', 'admin', false],
		['admin', 'viewer', true],
		['admin', 'editor', true],
		['admin', 'admin', true]
	] as const)('%s may do what needs %s: %s', (role, access, expected) => {
		expect(allows(role, access)).toBe(expected);
	});
});
