import type { Issue } from '../issues';

/**
 * Custom header lines (`<Name>:<value>`, one per line) and the checks a header must pass before
 * it can be sent.
 */

/** A header line of the custom headers setting, with the offsets of its value template. */
export interface HeaderLine {
	name: string;
	value: string;
	valueFrom: number;
	lineFrom: number;
	lineTo: number;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Headers the HTTP client sets itself; a template cannot set them. */
export const MANAGED_HEADERS = new Set([
	'host',
	'content-length',
	'transfer-encoding',
	'connection',
	'keep-alive',
	'upgrade',
	'te',
	'trailer',
	'expect',
	'proxy-connection'
]);

/** True when a header value holds CR, LF or NUL, which would split or end the header. */
export function hasLineBreak(value: string): boolean {
	return /[\r\n\0]/.test(value);
}

/** Parses the custom headers setting; blank lines are skipped, bad lines are issues. */
export function parseHeaderLines(
	source: string,
	field: string | undefined
): { lines: HeaderLine[]; issues: Issue[] } {
	const lines: HeaderLine[] = [];
	const issues: Issue[] = [];
	let offset = 0;
	for (const raw of source.split('\n')) {
		const lineFrom = offset;
		const lineTo = offset + raw.length;
		offset = lineTo + 1;
		const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
		if (line.trim() === '') continue;
		const colon = line.indexOf(':');
		const name = (colon === -1 ? line : line.slice(0, colon)).trim();
		if (colon === -1 || !TOKEN.test(name)) {
			issues.push({
				code: 'invalid_header',
				severity: 'error',
				message:
					colon === -1
						? `"${line.trim()}" is not a header line: write <Name>:<value>.`
						: `"${name}" is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only).`,
				field,
				from: lineFrom,
				to: lineTo
			});
			continue;
		}
		if (MANAGED_HEADERS.has(name.toLowerCase())) {
			issues.push({
				code: 'header_not_allowed',
				severity: 'warning',
				message: `${name} is set by the HTTP client itself; this line is not sent.`,
				field,
				from: lineFrom,
				to: lineTo
			});
			continue;
		}
		let valueFrom = lineFrom + colon + 1;
		while (line[valueFrom - lineFrom] === ' ' || line[valueFrom - lineFrom] === '\t') valueFrom++;
		const value = line.slice(valueFrom - lineFrom).replace(/[ \t]+$/, '');
		lines.push({ name, value, valueFrom, lineFrom, lineTo });
	}
	return { lines, issues };
}
