import { isSecretKey } from '../profile/secret-keys';
import { SECRET_MASK } from '../profile/secrets';
import type { Substitution } from '../template';
import type { BuiltRequest, Header } from './build';

/**
 * Redaction of a built request for what is kept or shown after a test call (history, sink
 * records): every place a secret value landed (`%account[password]%`, also inside
 * `%sha1(…)%`) becomes the mask. The core's substitutions say exactly where, so nothing else is
 * touched.
 */

/** A request as it may be stored, and the secret texts that were taken out. */
export interface RedactedRequest {
	method: BuiltRequest['method'];
	url: string;
	headers: Header[];
	body: string | null;
	/** The texts as they were sent in place of a secret (encoded), longest first. */
	secrets: string[];
}

/** The secret names a substitution carries: its own, or those inside `%sha1(…)%`. */
function secretsIn(substitution: Substitution): string[] {
	if (substitution.status !== 'value') return [];
	const key = substitution.key;
	if (isSecretKey(key)) return [key];
	// `%sha1(%account[password]%)%`: the hash stands for the password.
	const found: string[] = [];
	const inner = /%([^%]+)%/g;
	for (let match = inner.exec(key); match; match = inner.exec(key)) {
		if (isSecretKey(match[1])) found.push(match[1]);
	}
	return found;
}

function isSecretSubstitution(substitution: Substitution): boolean {
	return secretsIn(substitution).length > 0;
}

/** The secret names whose values a request carries (URL, headers or body). */
export function secretsUsed(request: BuiltRequest): Set<string> {
	const all = [
		...request.substitutions.url,
		...request.substitutions.headers.flat(),
		...request.substitutions.body
	];
	return new Set(all.flatMap(secretsIn));
}

function redactText(text: string, substitutions: Substitution[], found: Set<string>): string {
	let out = '';
	let at = 0;
	for (const s of substitutions) {
		if (!isSecretSubstitution(s) || s.from === s.to) continue;
		found.add(text.slice(s.from, s.to));
		out += text.slice(at, s.from) + SECRET_MASK;
		at = s.to;
	}
	return out + text.slice(at);
}

/** The request with every secret value replaced by the mask. */
export function redactRequest(request: BuiltRequest): RedactedRequest {
	const found = new Set<string>();
	const url = redactText(request.url, request.substitutions.url, found);
	const headers = request.headers.map((h, i) => ({
		name: h.name,
		value: redactText(h.value, request.substitutions.headers[i] ?? [], found)
	}));
	const body =
		request.body === null ? null : redactText(request.body, request.substitutions.body, found);
	return {
		method: request.method,
		url,
		headers,
		body,
		secrets: [...found].sort((a, b) => b.length - a.length)
	};
}

/** `text` with every occurrence of the given secret texts replaced by the mask. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
	let out = text;
	for (const secret of secrets) {
		// Very short values (one or two characters) would mask unrelated text: left as they are.
		if (secret.length < 3) continue;
		out = out.split(secret).join(SECRET_MASK);
	}
	return out;
}

/** Secret texts shorter than this are not masked (they would mask unrelated text). */
const MIN_SECRET_LENGTH = 3;

function tryDecode(text: string): string | null {
	try {
		return decodeURIComponent(text);
	} catch {
		return null;
	}
}

function tryJsonUnescape(text: string): string | null {
	try {
		const value: unknown = JSON.parse(`"${text}"`);
		return typeof value === 'string' ? value : null;
	} catch {
		return null;
	}
}

const XML_ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'"
};

function xmlUnescape(text: string): string {
	return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
		if (name.startsWith('#')) {
			const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
			return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
		}
		return XML_ENTITIES[name] ?? whole;
	});
}

/** XML escapes as servers write them: text only, attributes, and with `'` as `&apos;` or `&#39;`. */
function xmlEscapes(text: string): string[] {
	const base = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
	const quoted = base.replace(/"/g, '&quot;');
	return [
		base,
		quoted,
		quoted.replace(/'/g, '&apos;'),
		quoted.replace(/'/g, '&#39;'),
		base.replace(/"/g, '&#34;').replace(/'/g, '&#39;')
	];
}

/** JSON string escapes as servers write them: plain, with `\/`, and ASCII-only (`\u00e9`). */
function jsonEscapes(text: string): string[] {
	const plain = JSON.stringify(text).slice(1, -1);
	const ascii = plain.replace(
		/[\u007f-\uffff]/g,
		(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
	);
	return [plain, plain.replace(/\//g, '\\/'), ascii, ascii.replace(/\//g, '\\/')];
}

/**
 * Percent-encodings: as a URI component, strictly (RFC 3986: `!'()*` too), as a form field (`+`
 * for a space), and each with lowercase hex.
 */
function percentEncodings(text: string): string[] {
	const component = encodeURIComponent(text);
	const strict = component.replace(
		/[!'()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
	);
	const form = new URLSearchParams([['', text]]).toString().slice(1);
	const lower = (t: string) => t.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
	const encoded = [component, strict, component.replace(/%20/g, '+'), form];
	return [...encoded, ...encoded.map(lower)];
}

/** A value as a URL parser writes it in a host name (lowercase, punycode). */
function hostForm(text: string): string | null {
	if (!/^[^\s/?#@:\\[\]%]+$/.test(text)) return null;
	try {
		return new URL(`http://${text}/`).hostname;
	} catch {
		return null;
	}
}

/**
 * Every form in which a secret may come back from a server that was sent `texts` (the texts as
 * sent, and the secret values themselves): as sent, percent-decoded, form-decoded, JSON- and
 * XML-unescaped, and each of those again percent-, form-, JSON- and XML-escaped, and as a host
 * name. Longest first, so that a longer form is masked before a shorter one inside it.
 */
export function secretForms(texts: Iterable<string>): string[] {
	const bases = new Set<string>();
	for (const text of texts) {
		if (text.length < MIN_SECRET_LENGTH) continue;
		bases.add(text);
		for (const decoded of [
			tryDecode(text),
			tryDecode(text.replace(/\+/g, ' ')),
			tryJsonUnescape(text),
			xmlUnescape(text)
		]) {
			if (decoded !== null) bases.add(decoded);
		}
	}
	const forms = new Set<string>();
	for (const base of bases) {
		const host = hostForm(base);
		for (const form of [
			base,
			...percentEncodings(base),
			...jsonEscapes(base),
			...xmlEscapes(base),
			...(host === null ? [] : [host])
		]) {
			if (form.length >= MIN_SECRET_LENGTH) forms.add(form);
		}
	}
	return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * `value` with every secret form masked in every string it holds (objects and arrays are copied,
 * other values kept): for answers, history entries and audit details built from a request.
 */
export function maskSecretsIn<T>(value: T, forms: readonly string[]): T {
	if (!forms.length) return value;
	const walk = (item: unknown): unknown => {
		if (typeof item === 'string') return scrubSecrets(item, forms);
		if (Array.isArray(item)) return item.map(walk);
		if (item !== null && typeof item === 'object') {
			// fromEntries defines own properties (a `__proto__` key stays a key).
			return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]));
		}
		return item;
	};
	return walk(value) as T;
}

const AUTHORITY = /^([A-Za-z][A-Za-z0-9+.-]*:)\/\/(?:[^@/?#\\]*@)?([^/?#\\]*)/;

/**
 * The origin of a request as it may be shown, logged or audited: the URL's origin, or, when a
 * secret landed in the host, the redacted URL's scheme and host as written (with the mask).
 */
export function shownOrigin(request: BuiltRequest): string {
	const redacted = redactRequest(request).url;
	const authority = AUTHORITY.exec(redacted);
	if (authority && authority[2].includes(SECRET_MASK)) {
		return `${authority[1].toLowerCase()}//${authority[2]}`;
	}
	if (!URL.canParse(redacted)) return '(not a URL)';
	const origin = new URL(redacted).origin;
	return origin === 'null' ? '(not a URL)' : origin;
}
