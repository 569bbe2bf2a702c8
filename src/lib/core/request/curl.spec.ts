import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BuiltRequest } from './build';
import { buildRequests } from './strict-build';
import { shellQuote, toCurl } from './curl';

type CurlRequest = Pick<BuiltRequest, 'method' | 'url' | 'headers' | 'body'>;

const dir = mkdtempSync(join(tmpdir(), 'curl-spec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs a command line in a real bash with `curl` replaced by a function that writes its
 * arguments (each followed by NUL) and whatever arrives on its standard input to files.
 */
function runInShell(command: string): { argv: Buffer; stdin: Buffer } {
	const argsFile = join(dir, 'args');
	const stdinFile = join(dir, 'stdin');
	const script = `curl() { printf '%s\\0' "$@" > "$ARGS_FILE"; cat > "$STDIN_FILE"; }\n${command}\n`;
	execFileSync('bash', ['-c', script], {
		env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ARGS_FILE: argsFile, STDIN_FILE: stdinFile },
		input: ''
	});
	return { argv: readFileSync(argsFile), stdin: readFileSync(stdinFile) };
}

function args(argv: Buffer): string[] {
	const parts = argv.toString('utf8').split('\0');
	parts.pop();
	return parts;
}

/** What curl does with these arguments (the options toCurl uses), as a request. */
function asCurlReads(argv: string[], stdin: Buffer): CurlRequest & { bodyBytes: Buffer | null } {
	let method: string | null = null;
	let head = false;
	let url = '';
	let bodyBytes: Buffer | null = null;
	const headers: { name: string; value: string }[] = [];
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--globoff') continue;
		if (arg === '--head') head = true;
		else if (arg === '-X') method = argv[++i];
		else if (arg === '--url') url = argv[++i];
		else if (arg === '-H') {
			const line = argv[++i];
			const colon = line.indexOf(':');
			headers.push({ name: line.slice(0, colon), value: line.slice(colon + 2) });
		} else if (arg === '--data-binary' || arg === '--data-raw') {
			const data = argv[++i];
			if (arg === '--data-binary' && data === '@-') bodyBytes = stdin;
			else if (arg === '--data-binary' && data.startsWith('@')) {
				throw new Error(`curl would read the body from the file ${data.slice(1)}`);
			} else bodyBytes = Buffer.from(data, 'utf8');
		} else if (arg.startsWith('-')) throw new Error(`unexpected option ${arg}`);
		else url = arg;
	}
	const body = bodyBytes === null ? null : bodyBytes.toString('utf8');
	const chosen = method ?? (head ? 'HEAD' : body !== null ? 'POST' : 'GET');
	return { method: chosen as CurlRequest['method'], url, headers, body, bodyBytes };
}

function expectedArgv(values: string[]): Buffer {
	return Buffer.concat(values.map((v) => Buffer.from(v + '\0', 'utf8')));
}

const TRICKY = [
	"it's",
	'say "hi"',
	'$(touch /tmp/pwned)',
	'`id`',
	'${HOME}',
	'$HOME',
	'line 1\nline 2\r\n',
	'wow!! !! !$ !-1',
	'party \u{1F389}\u{1F468}\u200D\u{1F469}',
	'back\\slash \\n \\0 \\x41',
	"'; rm -rf / #",
	'100% %s %b %n',
	'-X DELETE',
	'[a]{b,c}*?',
	'\t tab',
	'@/etc/passwd',
	'@-',
	''
];

describe('toCurl', () => {
	it.each(TRICKY)('passes %j byte for byte as URL, header and body arguments', (value) => {
		const request: CurlRequest = {
			method: 'POST',
			url: `https://p.example/s?v=${value}`,
			headers: [
				{ name: 'Content-Type', value: 'text/plain' },
				{ name: 'X-Value', value }
			],
			body: value
		};
		const { argv, stdin } = runInShell(toCurl(request));
		const read = asCurlReads(args(argv), stdin);
		expect(read.url).toBe(request.url);
		expect(read.headers).toEqual(request.headers);
		expect(read.method).toBe('POST');
		expect(read.bodyBytes?.equals(Buffer.from(value, 'utf8'))).toBe(true);
	});

	it('passes the exact argv for a plain POST', () => {
		const request: CurlRequest = {
			method: 'POST',
			url: "https://p.example/s?q=it's",
			headers: [{ name: 'Content-Type', value: 'application/json' }],
			body: '{"a":"$(id) `id` \'q\' !"}'
		};
		const { argv } = runInShell(toCurl(request));
		expect(
			argv.equals(
				expectedArgv([
					'--globoff',
					'-X',
					'POST',
					request.url,
					'-H',
					'Content-Type: application/json',
					'--data-binary',
					request.body ?? ''
				])
			)
		).toBe(true);
	});

	it('sends a body holding NUL bytes byte for byte through standard input', () => {
		const body = 'a\0b\u00e9\u{1F389}\\0\n\0';
		const { argv, stdin } = runInShell(
			toCurl({ method: 'PUT', url: 'https://p.example/m', headers: [], body })
		);
		const read = asCurlReads(args(argv), stdin);
		expect(read.method).toBe('PUT');
		expect(stdin.equals(Buffer.from(body, 'utf8'))).toBe(true);
		expect(args(argv)).toContain('@-');
	});

	it.each(['-o/tmp/x', '--config=/tmp/x', '-'])(
		'passes a URL starting with a dash (%j) as the URL, never as an option',
		(url) => {
			const { argv, stdin } = runInShell(toCurl({ method: 'GET', url, headers: [], body: null }));
			expect(asCurlReads(args(argv), stdin).url).toBe(url);
		}
	);

	it('uses --head for HEAD, not -X HEAD', () => {
		const command = toCurl({ method: 'HEAD', url: 'https://p.example/m', headers: [], body: null });
		const { argv } = runInShell(command);
		expect(args(argv)).toEqual(['--globoff', '--head', 'https://p.example/m']);
	});

	it('writes GET without -X and without a body', () => {
		const { argv } = runInShell(
			toCurl({ method: 'GET', url: 'https://p.example/s?a=[1]', headers: [], body: null })
		);
		expect(args(argv)).toEqual(['--globoff', 'https://p.example/s?a=[1]']);
	});

	it.each(['GET', 'HEAD', 'POST', 'PUT'] as const)('always passes --globoff (%s)', (method) => {
		const body = method === 'POST' || method === 'PUT' ? 'x' : null;
		const command = toCurl({ method, url: 'https://p.example/{a,b}', headers: [], body });
		expect(args(runInShell(command).argv)[0]).toBe('--globoff');
	});

	it('exports a built request as the same request, tricky values included', () => {
		const { requests } = buildRequests({
			service: 'mediaRefSend',
			settings: {
				genericMediaRefSendUrl: 'https://p.example/m/%sms_to%?d=%description%',
				genericMediaRefSendPostData: '{"d":"%description%","to":"%sms_to%"}',
				genericMediaRefSendContentType: 'application/json',
				genericMediaRefSendMethod: 'PUT',
				genericMediaRefSendCustomHeaders: "X-Desc: %description%\nX-Q: it's"
			},
			values: { sms_to: "+1'2", description: 'a $(id) `id` "q" \'s\' ! \u{1F389}' },
			rawSubstitution: true
		});
		const request = requests[0];
		const { argv, stdin } = runInShell(toCurl(request));
		const read = asCurlReads(args(argv), stdin);
		expect({ ...read, bodyBytes: undefined }).toEqual({
			method: request.method,
			url: request.url,
			headers: request.headers,
			body: request.body,
			bodyBytes: undefined
		});
	});
});

describe('shellQuote', () => {
	it.each(TRICKY)('quotes %j so that the shell gives it back unchanged', (value) => {
		const { argv } = runInShell(`curl ${shellQuote(value)}`);
		expect(argv.equals(expectedArgv([value]))).toBe(true);
	});
});
