import { describe, expect, it } from 'vitest';
import { hasLineBreak, MANAGED_HEADERS, parseHeaderLines } from './headers';

const FIELD = 'genericMediaRefSendCustomHeaders';

/** The parsed lines as `Name=value`, with each value checked against its offset. */
function lines(source: string): string[] {
	const parsed = parseHeaderLines(source, FIELD);
	return parsed.lines.map((line) => {
		expect(source.slice(line.valueFrom, line.valueFrom + line.value.length)).toBe(line.value);
		return `${line.name}=${line.value}`;
	});
}

describe('parseHeaderLines', () => {
	const cases: { rule: string; source: string; expected: string[] }[] = [
		{ rule: 'one <Name>:<value> per line', source: 'X-A:1\nX-B:2', expected: ['X-A=1', 'X-B=2'] },
		{
			rule: 'spaces and tabs around the value are not part of it',
			source: 'X-A:   spaced  \t\nX-B:\tt',
			expected: ['X-A=spaced', 'X-B=t']
		},
		{
			rule: 'a value keeps its own colons',
			source: 'X-Url: https://m.example:8443/a?b=c:d',
			expected: ['X-Url=https://m.example:8443/a?b=c:d']
		},
		{
			rule: 'CRLF line ends are accepted',
			source: 'X-A: 1\r\nX-B: 2\r\n',
			expected: ['X-A=1', 'X-B=2']
		},
		{ rule: 'blank lines are skipped', source: '\n  \nX-A: 1\n\n', expected: ['X-A=1'] },
		{ rule: 'an empty value is allowed', source: 'X-Empty:', expected: ['X-Empty='] },
		{
			rule: 'a value keeps placeholders as written',
			source: 'Authorization: Bearer %account[password]%',
			expected: ['Authorization=Bearer %account[password]%']
		},
		{
			rule: 'token characters are allowed in names',
			source: "X-!#$%&'*+.^_`|~09: v",
			expected: ["X-!#$%&'*+.^_`|~09=v"]
		}
	];

	it.each(cases)('$rule', ({ source, expected }) => {
		expect(lines(source)).toEqual(expected);
		expect(parseHeaderLines(source, FIELD).issues).toEqual([]);
	});

	it.each([
		{ rule: 'a line without a colon', line: 'X-Token abc' },
		{ rule: 'a name with a space', line: 'X Token: abc' },
		{ rule: 'an empty name', line: ': abc' },
		{ rule: 'a name with a non-token character', line: 'X-Tök: abc' },
		{ rule: 'a name with a slash', line: 'X/Y: abc' }
	])('reports invalid_header for $rule, placed on the line', ({ line }) => {
		const source = `X-Ok: 1\n${line}\nX-Also: 2`;
		const parsed = parseHeaderLines(source, FIELD);
		expect(parsed.lines.map((l) => l.name)).toEqual(['X-Ok', 'X-Also']);
		expect(parsed.issues).toHaveLength(1);
		const [issue] = parsed.issues;
		expect(issue).toMatchObject({ code: 'invalid_header', severity: 'error', field: FIELD });
		expect(source.slice(issue.from, issue.to)).toBe(line);
	});

	it.each(['Host', 'HOST', 'Content-Length', 'Transfer-Encoding', 'Connection', 'Expect', 'TE'])(
		'reports header_not_allowed for %s and leaves the line out',
		(name) => {
			const source = `${name}: x`;
			const parsed = parseHeaderLines(source, FIELD);
			expect(parsed.lines).toEqual([]);
			expect(parsed.issues).toMatchObject([
				{
					code: 'header_not_allowed',
					severity: 'warning',
					field: FIELD,
					from: 0,
					to: source.length
				}
			]);
		}
	);

	it('gives the offsets of each line and of its value', () => {
		const source = 'X-A: 1\r\nX-B:  two';
		const [a, b] = parseHeaderLines(source, FIELD).lines;
		expect(source.slice(a.lineFrom, a.lineTo)).toBe('X-A: 1\r');
		expect(source.slice(b.lineFrom, b.lineTo)).toBe('X-B:  two');
		expect(b.valueFrom).toBe(source.indexOf('two'));
	});

	it('keeps a lone CR inside a value, for the CR/LF check to refuse it', () => {
		const [line] = parseHeaderLines('X-A: a\rb', FIELD).lines;
		expect(line.value).toBe('a\rb');
		expect(hasLineBreak(line.value)).toBe(true);
	});
});

describe('hasLineBreak', () => {
	it.each([
		{ value: 'a\r\nb', expected: true },
		{ value: 'a\nb', expected: true },
		{ value: 'a\rb', expected: true },
		{ value: 'a\0b', expected: true },
		{ value: 'a\tb c', expected: false },
		{ value: 'caf\u00e9 \u{1F389}', expected: false },
		{ value: '', expected: false }
	])('is $expected for $value', ({ value, expected }) => {
		expect(hasLineBreak(value)).toBe(expected);
	});
});

describe('MANAGED_HEADERS', () => {
	it('holds Host and Content-Length in lower case', () => {
		expect(MANAGED_HEADERS.has('host')).toBe(true);
		expect(MANAGED_HEADERS.has('content-length')).toBe(true);
		expect(MANAGED_HEADERS.has('content-type')).toBe(false);
	});
});
