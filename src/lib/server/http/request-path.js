// Plain JavaScript: scripts/serve.js reads it, to refuse a request whose path reads one way as
// written and another once resolved, before any path prefix decides anything (the sinks'
// exemption from the same-origin check, the paths served before the kit).

/** A `.` or `..` segment, each dot written plainly or as `%2E`, between slashes or at an end. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * Why a request target is refused, or null when its path reads the same resolved as written:
 * refused are a target that is no path (an absolute URL), a raw control character, a backslash,
 * raw or `%5C` (URL parsers
 * and some servers read it as a slash), and a `.` or `..` segment, raw or percent-encoded, also
 * where a `%2F` around it would be decoded into a slash by a proxy.
 * @param {string} target
 * @returns {string | null}
 */
export function pathProblem(target) {
	if (!target.startsWith('/')) return 'The request target must be a path (/…).';
	// URL parsers drop a raw tab or line break, so `.\t.` would resolve as `..`.
	// eslint-disable-next-line no-control-regex
	if (/[\u0000-\u001f\u007f]/.test(target))
		return 'The request target must not hold control characters.';
	const end = target.search(/[?#]/);
	const path = end < 0 ? target : target.slice(0, end);
	if (/\\|%5c/i.test(path)) return 'The path must not hold a backslash.';
	if (DOT_SEGMENT.test(path.replace(/%2f/gi, '/'))) {
		return 'The path must not hold "." or ".." segments: send it resolved.';
	}
	return null;
}

/**
 * The answer to a refused path, in the API's one error shape.
 * @param {string} problem
 */
export function badPathBody(problem) {
	return JSON.stringify({ error: { code: 'bad_path', message: problem } });
}
