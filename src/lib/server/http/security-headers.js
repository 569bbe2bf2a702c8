// Plain JavaScript: besides the app's hooks, scripts/serve.js reads it, for the answers that
// never reach the app (static files, a malformed path, a body over the size limit, a crash).

/**
 * The security headers every response of the app carries, pages, API answers, errors and files
 * alike.
 * @type {Readonly<Record<string, string>>}
 */
export const SECURITY_HEADERS = Object.freeze({
	'X-Content-Type-Options': 'nosniff',
	'Referrer-Policy': 'same-origin',
	'X-Frame-Options': 'DENY',
	'Cross-Origin-Opener-Policy': 'same-origin',
	'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()'
});

/**
 * The Content-Security-Policy of every response that is not one of the app's pages (those get
 * the kit's, with hashes for its own scripts): no script at all, inline styles only (the plain
 * error pages use them), and no framing.
 */
export const FALLBACK_CSP =
	"default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * Sets the security headers, and the fallback policy when there is no Content-Security-Policy
 * yet, through `set` (a `Headers` object's or a Node response's).
 * @param {(name: string, value: string) => void} set
 * @param {(name: string) => boolean} has
 */
export function applySecurityHeaders(set, has) {
	for (const [name, value] of Object.entries(SECURITY_HEADERS)) set(name, value);
	if (!has('content-security-policy')) set('Content-Security-Policy', FALLBACK_CSP);
}
