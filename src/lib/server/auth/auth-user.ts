import type { SessionUser } from '$lib/api-schemas/account';

/**
 * The user a request acts as, as handlers see it (no password hash), and as `GET /api/session`
 * shows it: `via` a session or an API token, and `method`, how the session was made (`password`,
 * or a single sign-on; null for an API token).
 */
export type AuthUser = SessionUser;
