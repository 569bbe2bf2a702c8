import type { Service } from '../catalogue/schema';
import { ruleIssue } from '../catalogue/sources';
import { append, lineColumn, type Issue } from '../issues';
import { tokenize, type Encoding, type Substitution } from '../template';
import { readJsonBody, type BodyVerdict } from './json-read';

/** Checks of an expanded request: its URL and its body, mapped back to the template. */

/** Maps an offset of the expanded text back to the template, naming the value it fell in. */
export function sourceSpan(
	offset: number,
	substitutions: readonly Substitution[],
	text = ''
): { from: number; to: number; key?: string } {
	let shift = 0;
	for (const sub of substitutions) {
		if (offset < sub.from) break;
		// Right after a value counts as the value's fault: a value ending in `"` or `\` makes
		// the parser stumble on the template's closing quote.
		const endsHere = offset === sub.to && sub.to > sub.from && /["\\]/.test(text[sub.to - 1] ?? '');
		if (offset < sub.to || endsHere)
			return { from: sub.sourceFrom, to: sub.sourceTo, key: sub.key };
		shift = sub.sourceTo - sub.to;
	}
	return { from: offset + shift, to: offset + shift + 1 };
}

function bodyIssue(
	kind: 'JSON' | 'XML',
	detail: string,
	offset: number,
	substitutions: readonly Substitution[],
	field: string,
	body: string
): Issue {
	const span = sourceSpan(offset, substitutions, body);
	const where = span.key ? `the value of %${span.key}% breaks it` : 'check the template';
	return {
		code: kind === 'JSON' ? 'body_invalid_json' : 'body_invalid_xml',
		severity: 'error',
		message: `After expansion the body is not valid ${kind} (${detail}): ${where}.`,
		field,
		from: span.from,
		to: span.to
	};
}

/**
 * Reads an expanded XML body strictly: well-formed, or the first fault and its offset. Null
 * while no reader is at hand (a browser page loads it after its first paint), when the body is
 * then not checked.
 */
export type XmlBodyReader = (body: string) => BodyVerdict | null;

/**
 * Reads an expanded JSON body: {@link readJsonBody} in place, or a page's reader that answers
 * null while a large body's verdict is on its way (the body is then not checked yet).
 */
export type JsonBodyReader = (body: string) => BodyVerdict | null;

/** Which check a body gets: JSON, XML, or none (other content types are not checked). */
export function bodyKind(encoding: Encoding, contentType: string): 'JSON' | 'XML' | null {
	if (encoding === 'json' || /[/+]json\b/i.test(contentType)) return 'JSON';
	if (encoding === 'xml' || /[/+]xml\b/i.test(contentType)) return 'XML';
	return null;
}

/** Checks that an expanded JSON or XML body is well-formed; other bodies are not checked. */
export function checkBody(
	body: string,
	encoding: Encoding,
	contentType: string,
	substitutions: readonly Substitution[],
	field: string,
	readXml: XmlBodyReader,
	readJson: JsonBodyReader = readJsonBody
): Issue[] {
	const checked = bodyKind(encoding, contentType);
	if (checked === 'JSON') {
		const read = readJson(body);
		if (read === null || read.ok) return [];
		return [bodyIssue('JSON', read.fault.message, read.fault.offset, substitutions, field, body)];
	}
	if (checked === 'XML') {
		const read = readXml(body);
		if (read === null || read.ok) return [];
		const { message, offset } = read.fault;
		const { line, column } = lineColumn(body, offset);
		return [
			bodyIssue(
				'XML',
				`${message} at line ${line}, column ${column}`,
				offset,
				substitutions,
				field,
				body
			)
		];
	}
	return [];
}

/**
 * The origin a URL template fixes by its literal text, or null when values decide it (the
 * scheme or the host is a placeholder, or a literal host prefix ending in `.` or `-` is completed
 * by one). Values before the authority's last literal `@` are user info: the host after it still
 * fixes the origin.
 */
export function literalOrigin(template: string): string | null {
	const { source, tokens } = tokenize(template);
	const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(source);
	if (!scheme) return null;
	let hostStart = scheme[0].length;
	let authorityEnd = source.length;
	authority: for (const t of tokens) {
		if (t.kind !== 'text') continue;
		for (let i = Math.max(t.from, scheme[0].length); i < t.to; i++) {
			if ('/?#'.includes(source[i])) {
				authorityEnd = i;
				break authority;
			}
			if (source[i] === '@') hostStart = i + 1;
		}
	}
	const next = tokens.find((t) => t.kind === 'placeholder' && t.from >= hostStart);
	const host = source.slice(hostStart, next ? next.from : source.length);
	if (!/^[^/?#]/.test(host)) return null;
	// `sms.%account[host]%` or `api-%env%.example.com`: the value completes the host name.
	if (next && next.from < authorityEnd && /[.-]$/.test(host)) return null;
	const withoutValues = tokens
		.filter((t) => t.kind === 'text')
		.map((t) => source.slice(t.from, t.to))
		.join('');
	try {
		return new URL(withoutValues).origin;
	} catch {
		return null;
	}
}

/** Checks an expanded URL: parse, scheme, https rule, userinfo, and an origin values changed. */
export function checkUrl(
	url: string,
	template: string,
	service: Service,
	field: string
): { issues: Issue[]; parsed: URL | null } {
	const issues: Issue[] = [];
	const at = { field, from: 0, to: Math.min(template.length, template.indexOf(':') + 1 || 1) };
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		issues.push({
			code: 'invalid_url',
			severity: 'error',
			message: `After expansion the URL "${url.slice(0, 200)}" is not a valid absolute URL (it needs a scheme and a host, e.g. https://example.com/…).`,
			field,
			from: 0,
			to: template.length
		});
		return { issues, parsed: null };
	}
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
		issues.push({
			code: 'invalid_url_scheme',
			severity: 'error',
			message: `The URL scheme is ${parsed.protocol}; only http: and https: can be called.`,
			...at
		});
	} else if (parsed.protocol === 'http:') {
		const fix = /^http:/i.test(template)
			? { label: 'Use https:', from: 0, to: 5, insert: 'https:' }
			: undefined;
		issues.push(
			service.limits.httpsOnly
				? ruleIssue(service, 'limits', {
						code: 'https_required',
						severity: 'error',
						message: `${service.title} accepts only https: URLs.`,
						...at,
						fix
					})
				: {
						code: 'insecure_url',
						severity: 'warning',
						// A service without account values (initial provisioning) has no password to mask.
						message:
							service.accountKeys === 'none'
								? 'Plain http: sends credentials readable on the network. Use https:.'
								: 'Plain http: sends credentials readable on the network, and the app sends %account[password]% as ****. Use https:.',
						...at,
						fix
					}
		);
	}
	if (parsed.username || parsed.password) {
		issues.push({
			code: 'url_userinfo',
			severity: 'warning',
			message:
				'The URL carries a user name or password before the host; put credentials in the query or body.',
			field,
			from: 0,
			to: template.length
		});
	}
	const origin = literalOrigin(template);
	if (origin !== null && origin !== parsed.origin) {
		issues.push({
			code: 'origin_changed',
			severity: 'error',
			message: `A substituted value changes where the request goes: the template names ${origin}, the expanded URL goes to ${parsed.origin}.`,
			field,
			from: 0,
			to: template.length
		});
	}
	const sent = requestTarget(parsed);
	const written = writtenTarget(url);
	if (written !== null && written !== sent) {
		issues.push({
			code: 'url_rewritten',
			severity: 'warning',
			message: `An HTTP client sends this path and query as ${sent.slice(0, 300)}, not as written (${written.slice(0, 300)}): characters such as spaces, { } < > are percent-encoded, "." and ".." segments are removed, "\\" becomes "/" and a #fragment is never sent. Write it the way it is sent so that what you see is what is sent.`,
			field,
			from: 0,
			to: template.length
		});
	}
	append(issues, strayPercents(template, field));
	return { issues, parsed };
}

/** The path and query an HTTP client puts on the request line for a parsed URL. */
export function requestTarget(url: URL): string {
	return (url.pathname || '/') + url.search;
}

/** The path, query and fragment as written after the authority; null when there is no authority. */
function writtenTarget(url: string): string | null {
	const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(url);
	if (!scheme) return null;
	const rest = url.slice(scheme[0].length);
	const end = rest.search(/[/?#\\]/);
	if (end === -1) return '/';
	const target = rest.slice(end);
	return target.startsWith('?') || target.startsWith('#') ? `/${target}` : target;
}

/**
 * A `%` in a URL's literal text that neither starts a placeholder nor a percent-encoded byte
 * (`?u=johndoe%&p=…`) is sent as is, and servers read it differently: flag it, offering `%25`.
 */
export function strayPercents(template: string, field: string): Issue[] {
	const issues: Issue[] = [];
	const { source, tokens } = tokenize(template);
	for (const token of tokens) {
		if (token.kind !== 'text') continue;
		for (
			let i = source.indexOf('%', token.from);
			i !== -1 && i < token.to;
			i = source.indexOf('%', i + 1)
		) {
			// Percent-encoded bytes are fine; `%name` is already reported as an unclosed placeholder.
			if (/^[0-9A-Fa-f]{2}$/.test(source.slice(i + 1, i + 3))) continue;
			if (/[A-Za-z_]/.test(source[i + 1] ?? '')) continue;
			issues.push({
				code: 'stray_percent',
				severity: 'warning',
				message:
					'A lone % in the URL is neither a placeholder nor a percent-encoded byte; write %25 for a percent sign.',
				field,
				from: i,
				to: i + 1,
				fix: { label: 'Write %25', from: i, to: i + 1, insert: '%25' }
			});
		}
	}
	return issues;
}
