// Plain JavaScript: besides the API (`auth/request.ts`), scripts/serve.js reads it for
// `/metrics`, so both read an `Authorization` header the same way.

/** `Bearer` and the token; the scheme is case-insensitive (RFC 9110, section 11.1). */
const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * The token of an `Authorization: Bearer <token>` header, or null for none or another scheme.
 * @param {string | null | undefined} header
 * @returns {string | null}
 */
export function bearerToken(header) {
	return BEARER.exec(header ?? '')?.[1] ?? null;
}
