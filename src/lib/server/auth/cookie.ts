import type { Cookies } from '@sveltejs/kit';
import type { ServerContext } from '../platform/context';
import { SESSION_COOKIE } from './session';

/** Sets the session cookie: HttpOnly, SameSite=Lax, Secure over https, Path=/. */
export function setSessionCookie(
	cookies: Cookies,
	url: URL,
	ctx: ServerContext,
	token: string
): void {
	cookies.set(SESSION_COOKIE, token, {
		path: '/',
		httpOnly: true,
		sameSite: 'lax',
		secure: url.protocol === 'https:',
		maxAge: Math.floor(ctx.config.sessionMaxMs / 1000)
	});
}

/** Removes the session cookie. */
export function clearSessionCookie(cookies: Cookies, url: URL): void {
	cookies.delete(SESSION_COOKIE, { path: '/', secure: url.protocol === 'https:' });
}
