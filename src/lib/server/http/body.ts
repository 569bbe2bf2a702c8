import { json, type RequestEvent } from '@sveltejs/kit';
import type { z } from 'zod';
import { invalidUtf8 } from '$lib/core/format/bytes';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../store/errors';

/** JSON endpoint helpers: typed bodies, and errors in one shape. */

/** One problem with a request, as the API reports it. */
export interface ApiIssue {
	code: string;
	path: (string | number)[];
	message: string;
}

const TOO_LARGE = 'The body is larger than the server accepts.';

/** A 400 answer listing what is wrong with the input. */
export function badRequest(issues: ApiIssue[]): Response {
	return json(badRequestBody(issues), { status: 400 });
}

/** The body of an error answer with a stable code. */
export function errorBody(code: string, message: string) {
	return { error: { code, message } };
}

/** An error answer with a stable code. */
export function apiError(
	status: number,
	code: string,
	message: string,
	extra: object = {}
): Response {
	return json({ ...errorBody(code, message), ...extra }, { status });
}

/** The API's answer while the database does not answer: the next request tries it again. */
export const API_OUTAGE = {
	status: 503,
	body: errorBody('database_unavailable', DATABASE_UNAVAILABLE_MESSAGE),
	headers: { 'Retry-After': '5' }
} as const;

/** What is wrong with a request body, or its value once read and validated. */
export type ParsedBody<T> = { ok: true; data: T } | { ok: false; issues: ApiIssue[] };

/**
 * Reads a JSON body's bytes and validates them: the kit's endpoints through {@link readJson},
 * the test-call endpoint served before the kit (`direct-api.ts`) directly.
 */
export function parseJsonBody<S extends z.ZodType>(
	bytes: Uint8Array,
	schema: S
): ParsedBody<z.infer<S>> {
	const refused = (message: string) => ({
		ok: false as const,
		issues: [{ code: 'invalid_json', path: [], message }]
	});
	let body: unknown;
	try {
		// JSON is UTF-8: bytes that are not are refused, never read as replacement characters.
		let text: string;
		try {
			text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
		} catch {
			return refused(`The body is not valid UTF-8: ${invalidUtf8(bytes) ?? 'a byte sequence'}.`);
		}
		body = JSON.parse(text);
	} catch {
		return refused('The body is not valid JSON.');
	}
	const parsed = schema.safeParse(body);
	if (parsed.success) return { ok: true, data: parsed.data };
	const issues = parsed.error.issues.map((i) => ({
		code: i.code,
		path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
		message: i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message
	}));
	return { ok: false, issues };
}

/** The body of a 400 answer listing what is wrong with the input. */
export function badRequestBody(issues: ApiIssue[]) {
	return {
		error: { code: 'invalid_input', message: issues[0]?.message ?? 'Invalid input.' },
		issues
	};
}

/** Reads a JSON body and validates it; a Response to return when it is not acceptable. */
export async function readJson<S extends z.ZodType>(
	event: RequestEvent,
	schema: S
): Promise<{ ok: true; data: z.infer<S> } | { ok: false; response: Response }> {
	let bytes: Uint8Array;
	try {
		bytes = new Uint8Array(await event.request.arrayBuffer());
	} catch (error) {
		// A body sent without its length that grew past the limit: the adapter stops reading it.
		if ((error as { status?: number }).status === 413) {
			return { ok: false, response: apiError(413, 'payload_too_large', TOO_LARGE) };
		}
		return {
			ok: false,
			response: badRequest([
				{ code: 'invalid_json', path: [], message: 'The body is not valid JSON.' }
			])
		};
	}
	const parsed = parseJsonBody(bytes, schema);
	return parsed.ok ? parsed : { ok: false, response: badRequest(parsed.issues) };
}

/** The client's address, for audit and rate limits. */
export function clientIp(event: RequestEvent): string {
	try {
		return event.getClientAddress();
	} catch {
		return 'unknown';
	}
}

/** The signed-in user; the hooks guarantee one on every non-public route. */
export function requireUser(event: RequestEvent) {
	const user = event.locals.user;
	if (!user) throw new Error('No user on a route that requires one: check the access table.');
	return user;
}

/**
 * Characters a file name must never carry: controls, format characters (the bidirectional
 * overrides and isolates that make `x\u202Egnp.exe` read as `xexe.png`, zero-width characters),
 * lone surrogates, private-use characters and line or paragraph separators.
 */
const UNSAFE_IN_NAMES = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/gu;

/**
 * A `Content-Disposition: attachment` value naming the file `name` + `suffix`: an ASCII
 * `filename` (letters, digits, `.`, `_`, `-`; `fallback` when the name has none) and the full
 * name as RFC 5987 `filename*`, both without control or format characters. Every download the
 * app sends is named here.
 */
export function contentDisposition(name: string, suffix = '', fallback = 'download'): string {
	const clean = name.replace(UNSAFE_IN_NAMES, '').trim();
	const ascii = clean.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || fallback;
	const full = (clean || fallback) + suffix.replace(UNSAFE_IN_NAMES, '');
	const plain = (ascii + suffix).replace(/[^A-Za-z0-9._-]+/g, '-');
	return `attachment; filename="${plain}"; filename*=UTF-8''${encodeRfc5987(full)}`;
}

/** Percent-encodes a value for RFC 5987 (`encodeURIComponent` leaves `'()*` as they are). */
function encodeRfc5987(value: string): string {
	return encodeURIComponent(value).replace(
		/['()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
	);
}

/**
 * Headers of a file download: its type and an attachment name made of the profile's name and
 * `suffix` (see {@link contentDisposition}).
 */
export function downloadHeaders(name: string, suffix: string, type: string): HeadersInit {
	return {
		'content-type': type,
		'content-disposition': contentDisposition(name, suffix, 'profile')
	};
}
