import type { ServerContext } from '../platform/context';
import { bearerToken } from '../http/bearer.js';
import { routedPath } from './access';
import type { AuthUser } from './auth-user';
import { SESSION_COOKIE, userFromApiToken, userFromSession } from './session';
import { hashSecret } from './tokens';

/**
 * Who a request comes from, and whether a write with a session cookie came from this app: the
 * checks of the hooks (`hooks.server.ts`), over a request's method, path and headers only, so
 * that the test-call endpoint served before the kit (`direct-api.ts`) makes the same ones.
 */

/** A request's header by its lower-case name, or null. */
export type HeaderOf = (name: string) => string | null;

/**
 * The value of the session cookie in a `Cookie` header, as the kit reads it: the first pair of
 * that name, its value trimmed, unquoted and percent-decoded (as it is when it does not decode).
 */
export function sessionCookie(header: string | null): string | undefined {
	if (!header) return undefined;
	for (const pair of header.split(';')) {
		const equals = pair.indexOf('=');
		if (equals < 0 || pair.slice(0, equals).trim() !== SESSION_COOKIE) continue;
		let value = pair.slice(equals + 1).trim();
		if (value.length > 1 && value.startsWith('"') && value.endsWith('"')) {
			value = value.slice(1, -1);
		}
		try {
			return value.includes('%') ? decodeURIComponent(value) : value;
		} catch {
			return value;
		}
	}
	return undefined;
}

/** The secret a request acts with, and what it is. */
export interface Credential {
	via: AuthUser['via'];
	secret: string;
}

/**
 * The credential a request acts with: an API token sent as Bearer, else the session cookie. An
 * `Authorization` header that is not a Bearer token counts as none.
 */
export function requestCredential(
	authorization: string | null,
	session: string | undefined
): Credential | null {
	const bearer = bearerToken(authorization);
	if (bearer) return { via: 'token', secret: bearer };
	return session ? { via: 'session', secret: session } : null;
}

/**
 * The hash of the credential a request acts with (by {@link requestCredential}), as the store
 * keeps it: what the guess limits count a signed-in caller by. Null without one.
 */
export function requestCredentialHash(
	authorization: string | null,
	session: string | undefined
): string | null {
	const credential = requestCredential(authorization, session);
	return credential ? hashSecret(credential.secret) : null;
}

/** The user a request acts as, by its {@link requestCredential}. */
export function requestUser(
	ctx: ServerContext,
	authorization: string | null,
	session: string | undefined
): Promise<AuthUser | null> {
	const credential = requestCredential(authorization, session);
	if (credential?.via === 'token') return userFromApiToken(ctx, credential.secret);
	if (credential) return userFromSession(ctx, credential.secret);
	return Promise.resolve(null);
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Why a write with a session cookie is refused, or null: it must come from our own pages
 * (`origin`, the app's), as JSON, which no other site's form can send.
 */
export function crossSiteProblem(
	method: string,
	pathname: string,
	header: HeaderOf,
	origin: string
): string | null {
	if (READS.has(method)) return null;
	const from = header('origin');
	const site = header('sec-fetch-site');
	if (from ? from !== origin : site !== 'same-origin') {
		return 'Writes with a session cookie must come from this app (same Origin).';
	}
	const type = header('content-type') ?? '';
	const hasBody = header('content-length') !== '0' && method !== 'DELETE';
	// XML, like JSON, cannot be sent cross-site by a form: the import endpoint reads it.
	const xml = routedPath(pathname) === '/api/import' && /^(application|text)\/xml\s*(;|$)/i;
	if (hasBody && !/^application\/json\s*(;|$)/i.test(type) && !(xml && xml.test(type))) {
		return 'Send the request body as application/json.';
	}
	return null;
}
