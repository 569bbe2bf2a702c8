/**
 * Build errors that refuse a test call (and `check --live`) before anything is sent, with the
 * code answered: a header that cannot be sent as written, and a plain http: URL of a service the
 * catalogue makes https-only (the same issue the editor's diagnostics show, from the same
 * catalogue rule).
 */
export const REFUSING: ReadonlyMap<string, string> = new Map([
	['header_crlf', 'invalid_header'],
	['invalid_header', 'invalid_header'],
	['https_required', 'https_required']
]);
