/**
 * What the server-sent event streams (a sink's, a sandbox's) say besides their items, shared by
 * the server that sends it and the pages that read it.
 */

/** The last event of a stream whose caller's access ended; its data is `{ reason }`. */
export const ACCESS_ENDED_EVENT = 'access_ended';

/**
 * Why: the session ended (signed out, expired, or ended by a change of the account), the API
 * token was revoked, the account was deactivated, its role no longer allows the stream, or
 * REQUIRE_2FA holds the session back until a second factor is set up again.
 */
export type AccessEnded =
	'session_ended' | 'token_revoked' | 'deactivated' | 'role_changed' | 'second_factor_required';

/** What a page says when its stream ended for a reason. */
export const ACCESS_ENDED_MESSAGES: Record<AccessEnded, string> = {
	session_ended: 'Your session ended.',
	token_revoked: 'The API token was revoked.',
	deactivated: 'Your account was deactivated.',
	role_changed: 'Your role no longer allows this page.',
	second_factor_required: 'Set up a second factor on your account page first.'
};
