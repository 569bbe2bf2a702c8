import type { RequestEvent } from '@sveltejs/kit';
import { requestCredentialHash } from '../auth/request';
import { SESSION_COOKIE } from '../auth/session';

/**
 * The hash of the signed-in caller's credential (its session's or API token's), which the limits
 * on guesses at one's own password or code count by; the hooks guarantee one on every user route.
 */
export function requireCredential(event: RequestEvent): string {
	const hash = requestCredentialHash(
		event.request.headers.get('authorization'),
		event.cookies.get(SESSION_COOKIE)
	);
	if (!hash) throw new Error('No credential on a route that requires one: check the access table.');
	return hash;
}
