import type { BuiltRequest } from './build';

/**
 * "Copy as cURL" from the very request object the preview shows and the test call sends.
 * Every argument is single-quoted for a POSIX shell, so no value can end the quote, expand a
 * variable or start a command.
 */

/** Quotes one argument for sh/bash/zsh: `'…'` with each `'` written `'\''`. */
export function shellQuote(value: string): string {
	return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The curl command line of a request. `--globoff` keeps `[]{}` in URLs literal, `--data-binary`
 * sends the body byte for byte (newlines included), and `--head` is used for HEAD, since
 * `-X HEAD` would wait for a body that never comes. A shell argument cannot hold NUL, and curl
 * reads `--data-binary @name` from the file `name`, so a body with a NUL or starting with `@` is
 * piped in from `printf '%b'` with octal escapes.
 */
export function toCurl(request: Pick<BuiltRequest, 'method' | 'url' | 'headers' | 'body'>): string {
	const parts = ['curl', '--globoff'];
	if (request.method === 'HEAD') parts.push('--head');
	else if (request.method !== 'GET' || request.body !== null) parts.push('-X', request.method);
	// A URL that starts with "-" would be read as an option; --url keeps it the URL.
	if (request.url.startsWith('-')) parts.push('--url');
	parts.push(shellQuote(request.url));
	for (const header of request.headers) {
		parts.push('-H', shellQuote(`${header.name}: ${header.value}`));
	}
	if (request.body === null) return parts.join(' ');
	if (!request.body.includes('\0') && !request.body.startsWith('@')) {
		return [...parts, '--data-binary', shellQuote(request.body)].join(' ');
	}
	const pipe = `printf '%b' ${shellQuote(octalEscaped(request.body))} | `;
	return pipe + [...parts, '--data-binary', '@-'].join(' ');
}

/** The body's UTF-8 bytes with every byte outside printable ASCII, and `\`, as `\0ooo`. */
function octalEscaped(value: string): string {
	let out = '';
	for (const byte of new TextEncoder().encode(value)) {
		const printable = byte >= 0x20 && byte < 0x7f && byte !== 0x5c;
		out += printable ? String.fromCharCode(byte) : `\\0${byte.toString(8).padStart(3, '0')}`;
	}
	return out;
}
