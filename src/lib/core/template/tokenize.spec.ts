import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Issue } from '../issues';
import {
	MAX_FUNCTION_DEPTH,
	placeholders,
	tokenize,
	type PlaceholderToken,
	type Token,
	type Tokenized
} from './tokenize';

/** `text(0,5)`, `ph(5,13:sms_to)`, `ph(0,27:sha1(ph(6,25:account[password])))`. */
function show(token: Token): string {
	if (token.kind === 'text') return `text(${token.from},${token.to})`;
	const ref = token.ref;
	const what =
		ref.kind === 'name'
			? ref.name
			: ref.kind === 'account'
				? `account[${ref.key}]`
				: `sha1(${show(ref.inner)})`;
	return `ph(${token.from},${token.to}:${what})`;
}

/** `unclosed_placeholder/warning(3,12)+'%'@12`. */
function showIssue(issue: Issue): string {
	const fix = issue.fix ? `+'${issue.fix.insert}'@${issue.fix.from}` : '';
	return `${issue.code}/${issue.severity}(${issue.from},${issue.to})${fix}`;
}

function render(tokenized: Tokenized): [string, string] {
	return [tokenized.tokens.map(show).join(' '), tokenized.issues.map(showIssue).join(' ')];
}

function applyFix(source: string, issue: Issue): string {
	const fix = issue.fix!;
	return source.slice(0, fix.from) + fix.insert + source.slice(fix.to);
}

/** Asserts that tokens cover the source from 0 to its end with no gap, overlap or empty token. */
function expectContiguous({ source, tokens }: Tokenized): void {
	let at = 0;
	for (const token of tokens) {
		expect(token.from).toBe(at);
		expect(token.to).toBeGreaterThan(token.from);
		at = token.to;
	}
	expect(at).toBe(source.length);
}

const SHA1_NESTED_8 = '%sha1('.repeat(8) + '%x%' + ')%'.repeat(8);
const SHA1_NESTED_9 = '%sha1('.repeat(9) + '%x%' + ')%'.repeat(9);

describe('tokenize', () => {
	// [template, tokens, issues]
	const cases: [string, string, string][] = [
		['', '', ''],
		['hello', 'text(0,5)', ''],
		['%', 'text(0,1)', ''],
		['%%', 'text(0,2)', ''],
		['100%', 'text(0,4)', ''],
		['50% off', 'text(0,7)', ''],
		['a%20b', 'text(0,5)', ''],
		['%C3%A9%', 'text(0,7)', ''],
		['%E2%82%AC', 'text(0,9)', ''],
		['%20%sms_to%', 'text(0,3) ph(3,11:sms_to)', ''],
		['q=%C3%A9&to=%sms_to%', 'text(0,12) ph(12,20:sms_to)', ''],
		['%ab%', 'text(0,4)', ''],
		['%abc%', 'ph(0,5:abc)', ''],
		['%a%', 'ph(0,3:a)', ''],
		['%Fa_x%', 'ph(0,6:Fa_x)', ''],
		['%sms_to%', 'ph(0,8:sms_to)', ''],
		['%SMS_TO%', 'ph(0,8:SMS_TO)', ''],
		['to=%sms_to%&b=%sms_body%', 'text(0,3) ph(3,11:sms_to) text(11,14) ph(14,24:sms_body)', ''],
		['%sms_to%%sms_body%', 'ph(0,8:sms_to) ph(8,18:sms_body)', ''],
		['%account[username]%', 'ph(0,19:account[username])', ''],
		['%account[x.y-z]%', 'ph(0,16:account[x.y-z])', ''],
		['%account%', 'ph(0,9:account)', ''],
		['%sha1%', 'ph(0,6:sha1)', ''],
		['%sha1(%account[password]%)%', 'ph(0,27:sha1(ph(6,25:account[password])))', ''],
		['%sha1(%sha1(%x%)%)%', 'ph(0,19:sha1(ph(6,17:sha1(ph(12,15:x)))))', ''],
		['%7*7%', 'text(0,5)', ''],
		['%__proto__%', 'ph(0,11:__proto__)', ''],
		['%constructor%', 'ph(0,13:constructor)', ''],
		['?u=%username&p=1', 'text(0,16)', "unclosed_placeholder/warning(3,12)+'%'@12"],
		['%sms_to', 'text(0,7)', "unclosed_placeholder/warning(0,7)+'%'@7"],
		['%account[user', 'text(0,13)', "unclosed_placeholder/warning(0,13)+']%'@13"],
		['%account[user]', 'text(0,14)', "unclosed_placeholder/warning(0,14)+'%'@14"],
		['%account[]%', 'text(0,11)', 'invalid_account_key/warning(0,9)'],
		['%md5(%x%)%', 'text(0,5) ph(5,8:x) text(8,10)', 'unknown_function/error(0,4)'],
		['50%off(today)', 'text(0,13)', ''],
		['%sha1(x)%', 'text(0,9)', 'invalid_function_argument/error(0,6)'],
		['%sha1(%x%', 'text(0,6) ph(6,9:x)', "unclosed_placeholder/warning(0,9)+')%'@9"],
		['%sha1(%x%)', 'text(0,6) ph(6,9:x) text(9,10)', "unclosed_placeholder/warning(0,9)+'%'@10"],
		[
			'%sha1(%md5(%x%)%)%',
			'text(0,11) ph(11,14:x) text(14,18)',
			'invalid_function_argument/error(0,6) unknown_function/error(6,10)'
		]
	];

	it.each(cases)('tokenizes %j as the table says', (source, tokens, issues) => {
		expect(render(tokenize(source))).toEqual([tokens, issues]);
	});

	it.each(cases.filter(([, , issues]) => issues.includes('@')))(
		'offers a fix for %j that makes the placeholder well-formed',
		(source) => {
			const issue = tokenize(source).issues[0];
			const fixed = tokenize(applyFix(source, issue));
			expect(fixed.issues).toEqual([]);
			expect(placeholders(fixed).some((p) => p.from === issue.from)).toBe(true);
		}
	);

	it('keeps the key as the text between the percent signs', () => {
		const source = 'a%sha1(%account[password]%)%b%account[host]%';
		expect(placeholders(tokenize(source)).map((p) => p.key)).toEqual([
			'sha1(%account[password]%)',
			'account[host]'
		]);
	});

	it('accepts sha1 nested up to the limit and rejects one level more', () => {
		expect(MAX_FUNCTION_DEPTH).toBe(8);
		const eight = tokenize(SHA1_NESTED_8);
		expect(eight.issues).toEqual([]);
		expect(eight.tokens).toHaveLength(1);

		const nine = tokenize(SHA1_NESTED_9);
		expect(nine.issues.map(showIssue)).toEqual(['invalid_function_argument/error(0,6)']);
		expect(nine.tokens.map(show).slice(0, 2)).toEqual([
			'text(0,6)',
			expect.stringMatching(/^ph\(6,/)
		]);
	});

	it('tokenizes 200,000 nested %sha1( openings without overflowing the stack', () => {
		const source = '%sha1('.repeat(200_000) + '%x%' + ')%'.repeat(200_000);
		const tokenized = tokenize(source);
		expectContiguous(tokenized);
		expect(placeholders(tokenized)).toHaveLength(1);
	});

	it('tokenizes 200,000 unclosed %sha1( openings in linear time', () => {
		const tokenized = tokenize('%sha1('.repeat(200_000));
		expectContiguous(tokenized);
		expect(tokenized.issues).toHaveLength(200_000);
	});

	it('tokenizes 1 MB of mixed content into tokens that cover it contiguously', () => {
		const pieces = [
			'plain text ',
			'%sms_to%',
			'%20',
			'%C3%A9',
			'%account[username]%',
			'%sha1(%account[password]%)%',
			'%sha1(%sha1(%x%)%)%',
			'%',
			'%%',
			'%x',
			'%account[',
			'%md5(',
			'%sha1(',
			'{"a":"b"}',
			'<a>&amp;</a>',
			'é😀\n'
		];
		let seed = 42;
		const chunks: string[] = [];
		let size = 0;
		while (size < 1_000_000) {
			seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
			const piece = pieces[(seed >>> 16) % pieces.length];
			chunks.push(piece);
			size += piece.length;
		}
		const tokenized = tokenize(chunks.join(''));
		expectContiguous(tokenized);
		expect(placeholders(tokenized).length).toBeGreaterThan(10_000);
	});

	it('never throws and covers any string contiguously', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), (source) => {
				expectContiguous(tokenize(source));
			})
		);
	});

	const templateText = fc
		.array(
			fc.oneof(
				fc.constantFrom(
					'%',
					'%%',
					'%sms_to%',
					'%account[',
					'%account[x.y]%',
					']',
					')',
					'%sha1(',
					')%',
					'%md5(',
					'%20',
					'%ab',
					'x',
					'_'
				),
				fc.string({ unit: 'binary', maxLength: 4 })
			),
			{ maxLength: 30 }
		)
		.map((parts) => parts.join(''));

	it('gives placeholders that read back as %key% and never two text tokens in a row', () => {
		fc.assert(
			fc.property(templateText, (source) => {
				const { tokens } = tokenize(source);
				tokens.forEach((token, i) => {
					if (token.kind === 'text') {
						expect(tokens[i + 1]?.kind).not.toBe('text');
						return;
					}
					expect(source.slice(token.from, token.to)).toBe(`%${token.key}%`);
					if (token.ref.kind === 'sha1') {
						const inner: PlaceholderToken = token.ref.inner;
						expect(inner.from).toBe(token.from + 6);
						expect(inner.to).toBe(token.to - 2);
					}
				});
			})
		);
	});

	it('reports issues inside the source, with fixes that insert only closing characters', () => {
		fc.assert(
			fc.property(templateText, (source) => {
				for (const issue of tokenize(source).issues) {
					expect(issue.from).toBeGreaterThanOrEqual(0);
					expect(issue.to).toBeLessThanOrEqual(source.length);
					if (issue.fix) {
						expect(issue.fix.from).toBe(issue.fix.to);
						expect(['%', ']%', ')%']).toContain(issue.fix.insert);
					}
				}
			})
		);
	});
});
