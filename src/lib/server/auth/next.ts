/**
 * Where to go after signing in. The `next` parameter is resolved the way a browser resolves a
 * Location header (dot segments, `%2e`, backslashes, tabs and line breaks all normalised), and
 * only a path of this site comes out: never another host (`//evil.example`), never the sign-in,
 * sign-out or setup pages. Anything else means `/`.
 */

const BASE = new URL('http://app.invalid/');

/** A same-site path (with its query and fragment) to redirect to after sign-in, else `/`. */
export function safeNext(raw: unknown): string {
	if (typeof raw !== 'string' || !raw.startsWith('/')) return '/';
	let url: URL;
	try {
		url = new URL(raw, BASE);
	} catch {
		return '/';
	}
	if (url.origin !== BASE.origin) return '/';
	const target = url.pathname + url.search + url.hash;
	// The answer is sent as a Location: read back as a browser would, it must stay on this site
	// and mean the same URL (a path starting `//` or `/\` would name another host).
	let again: URL;
	try {
		again = new URL(target, BASE);
	} catch {
		return '/';
	}
	if (!/^\/(?![/\\])/.test(target) || again.href !== url.href) return '/';
	if (/^\/(login|logout|setup)\/?$/.test(url.pathname)) return '/';
	return target;
}
