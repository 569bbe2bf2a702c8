import { isXmlKey } from '../catalogue/placed';
import type { Service, Variable } from '../catalogue/schema';
import type { DeclaredAccountKey } from '../catalogue/account-keys';
import { vocabularyOf, type Vocabulary } from '../catalogue/vocabulary';
import { append, Repeats, type Issue } from '../issues';
import { xmlCharIssues } from '../xml/chars';
import { tokenize, type PlaceholderToken, type Tokenized } from './tokenize';

/**
 * A template checked against one service: every placeholder with its scope (what the highlighter
 * colours and hover explains) and every issue (what lint shows), syntax and names together.
 */

/** The scope a placeholder is coloured by. */
export type MarkScope = 'service' | 'account' | 'global' | 'function' | 'unknown';

/** One placeholder of an analysed template. */
export interface PlaceholderMark {
	from: number;
	to: number;
	key: string;
	scope: MarkScope;
	variable?: Variable;
}

/** A template analysed for a service. */
export interface Analysis {
	tokenized: Tokenized;
	marks: PlaceholderMark[];
	issues: Issue[];
}

function check(token: PlaceholderToken, vocabulary: Vocabulary, repeats: Repeats): PlaceholderMark {
	const resolution = vocabulary.resolve(token.key);
	const named = resolution.issue;
	if (named) {
		// One name has one issue: the name is the key; all names' issues are one kind.
		repeats.add('name', token.key, () => {
			const { replacement, ...issue } = named();
			return {
				...issue,
				from: token.from,
				to: token.to,
				fix: replacement
					? {
							label: `Replace with %${replacement}%`,
							from: token.from,
							to: token.to,
							insert: `%${replacement}%`
						}
					: undefined
			};
		});
	}
	return {
		from: token.from,
		to: token.to,
		key: token.key,
		scope: resolution.scope,
		variable: resolution.entry?.variable
	};
}

const URL_ROLES = new Set(['url', 'fallbackUrl']);

/**
 * A secret sent in a URL (not hashed): URLs are written to web servers' and proxies' access logs,
 * which is why providers who put passwords in query strings strip them from their logs.
 */
function secretsInUrl(marks: readonly PlaceholderMark[]): Issue[] {
	const hashed = marks.filter((m) => m.scope === 'function');
	return marks
		.filter((m) => m.variable?.secret && !hashed.some((h) => h.from <= m.from && m.to <= h.to))
		.map((m) => ({
			code: 'secret_in_url',
			severity: 'warning' as const,
			message: `%${m.key}% is sent in the URL, and URLs end up in web server and proxy access logs. Send it in the post data${m.key === 'account[password]' ? ', or send %sha1(%account[password]%)%' : ''} instead.`,
			from: m.from,
			to: m.to
		}));
}

/**
 * Tokenizes a template and judges each placeholder by the service's vocabulary (with the account
 * keys the profile's XML declares, when given). When `field` is a key the XML carries,
 * characters XML 1.0 cannot carry are errors too (it could not be exported).
 */
export function analyzeTemplate(
	source: string,
	service: Service,
	field?: string,
	declared: readonly DeclaredAccountKey[] = []
): Analysis {
	const vocabulary = vocabularyOf(service, declared);
	const tokenized = tokenize(source);
	const issues: Issue[] = [];
	const repeats = new Repeats(issues);
	repeats.addAll(tokenized.issues);
	const marks: PlaceholderMark[] = [];
	for (const token of tokenized.tokens) {
		if (token.kind !== 'placeholder') continue;
		let inner = token;
		while (inner.ref.kind === 'sha1') {
			marks.push({ from: inner.from, to: inner.to, key: inner.key, scope: 'function' });
			inner = inner.ref.inner;
		}
		marks.push(check(inner, vocabulary, repeats));
	}
	if (field && URL_ROLES.has(service.keys.find((k) => k.key === field)?.role ?? '')) {
		repeats.addAll(secretsInUrl(marks));
	}
	repeats.finish();
	if (field && isXmlKey(service, field)) append(issues, xmlCharIssues(source));
	if (field) for (const issue of issues) issue.field = field;
	return { tokenized, marks, issues };
}
