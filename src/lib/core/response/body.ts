import { mediaTypeEssence } from '../template/encode';
import type { XmlElement } from '../xml/element';
import { childNamed, parseXml } from '../xml/parse';

/** Reading response bodies the way the callers do: by Content-Type, never by guessing HTML. */

/** The body's format by its Content-Type (`none` when there is none). */
export type BodyFormat = 'json' | 'xml' | 'form' | 'text' | 'none';

/** The format a Content-Type announces. */
export function formatOf(contentType: string | null | undefined): BodyFormat {
	const essence = mediaTypeEssence(contentType);
	if (essence === null) return 'none';
	if (essence === 'application/json' || essence.endsWith('+json')) return 'json';
	if (essence === 'application/xml' || essence === 'text/xml' || essence.endsWith('+xml')) {
		return 'xml';
	}
	if (essence === 'application/x-www-form-urlencoded') return 'form';
	return 'text';
}

/** A parsed body: JSON value, XML root, or form pairs; `ok: false` when it cannot be parsed. */
export type ParsedBody =
	| { ok: true; format: 'json'; value: unknown }
	| { ok: true; format: 'xml'; root: XmlElement }
	| { ok: true; format: 'form'; pairs: [string, string][] }
	| { ok: false; reason: string };

/** Parses a body in the given format. */
export function parseBody(body: string, format: 'json' | 'xml' | 'form'): ParsedBody {
	if (format === 'json') {
		try {
			return { ok: true, format, value: JSON.parse(body) };
		} catch (error) {
			return { ok: false, reason: error instanceof Error ? error.message : 'invalid JSON' };
		}
	}
	if (format === 'xml') {
		const parsed = parseXml(body);
		return parsed.ok
			? { ok: true, format, root: parsed.root }
			: { ok: false, reason: parsed.issue.message };
	}
	return { ok: true, format, pairs: [...new URLSearchParams(body)] };
}

/** The format to read a body in: the Content-Type's, else sniffed from the first character. */
export function sniffFormat(
	body: string,
	contentType: string | null
): 'json' | 'xml' | 'form' | null {
	const format = formatOf(contentType);
	if (format === 'json' || format === 'xml' || format === 'form') return format;
	const first = body.trimStart()[0];
	if (first === '{' || first === '[') return 'json';
	if (first === '<') return 'xml';
	return null;
}

/** A field of a parsed body by name: top-level JSON key, or the root or a child element. */
export function fieldOf(parsed: ParsedBody, name: string): string | undefined {
	if (!parsed.ok) return undefined;
	if (parsed.format === 'json') {
		const value = parsed.value;
		if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
		if (!Object.hasOwn(value, name)) return undefined;
		const field = (value as Record<string, unknown>)[name];
		return typeof field === 'string' || typeof field === 'number' ? String(field) : undefined;
	}
	if (parsed.format === 'xml') {
		if (parsed.root.name === name) return parsed.root.text.trim();
		return childNamed(parsed.root, name)?.text.trim();
	}
	return parsed.pairs.find(([key]) => key === name)?.[1];
}

/** The `message` field of a body, read by its Content-Type (or sniffed), if any. */
export function messageOf(body: string, contentType: string | null): string | undefined {
	const format = sniffFormat(body, contentType);
	if (format === null || body.trim() === '') return undefined;
	return fieldOf(parseBody(body, format), 'message');
}

/** The first `count` characters (code points, so no emoji is cut in half) of a text. */
export function firstCharacters(text: string, count: number): string {
	let out = '';
	let n = 0;
	for (const ch of text) {
		if (n++ === count) break;
		out += ch;
	}
	return out;
}
