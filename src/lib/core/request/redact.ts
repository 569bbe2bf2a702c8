import { isSecretKey, SECRET_MASK } from '../profile/secrets';
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
