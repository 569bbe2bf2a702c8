/**
 * Kept unchanged from the first, straightforward implementation, as the oracle of
 * `src/lib/core/template/equivalence.spec.ts`: the fast tokenizer, encoder and expander must
 * give byte-identical results. Tests only.
 */

import { XML_INVALID } from '$lib/core/xml/chars';

/**
 * Contextual encodings of substituted values. Where a placeholder sits decides how its value is
 * written, so a value never breaks the URL, form, JSON or XML around it.
 */

/** How a value is written into its spot. */
export type Encoding = 'url' | 'form' | 'json' | 'xml' | 'raw';

/** A human label for each encoding, as the preview shows it. */
export const ENCODING_LABELS: Record<Encoding, string> = {
	url: 'percent-encoded (URI component)',
	form: 'form-encoded',
	json: 'JSON string escaped',
	xml: 'XML escaped',
	raw: 'raw (not encoded)'
};

/** The media type without parameters, lower-cased; null for an empty value. */
export function mediaTypeEssence(contentType: string | null | undefined): string | null {
	if (!contentType) return null;
	const essence = contentType.split(';')[0].trim().toLowerCase();
	return essence === '' ? null : essence;
}

/** The encoding a body of this content type gives its values (DESIGN §2 table). */
export function encodingForContentType(contentType: string | null | undefined): Encoding {
	const essence = mediaTypeEssence(contentType);
	if (essence === null) return 'raw';
	if (essence === 'application/x-www-form-urlencoded') return 'form';
	if (essence === 'application/json' || essence.endsWith('+json')) return 'json';
	if (essence === 'application/xml' || essence === 'text/xml' || essence.endsWith('+xml')) {
		return 'xml';
	}
	return 'raw';
}

/** Unpaired surrogates cannot be written as UTF-8; they become U+FFFD, as a browser does. */
function wellFormed(value: string): string {
	return value.toWellFormed();
}

const FORM_EXTRA = /[!'()~]/g;

const XML_INVALID_TEST = new RegExp(XML_INVALID.source);

const XML_ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&apos;',
	'\r': '&#13;',
	'\n': '&#10;',
	'\t': '&#9;'
};

/** True when the value holds characters XML 1.0 cannot carry (they are sent as U+FFFD). */
export function hasXmlInvalidChars(value: string): boolean {
	return XML_INVALID_TEST.test(value);
}

/** Writes a value for its spot. Never throws, whatever the value. */
export function encodeValue(value: string, encoding: Encoding): string {
	switch (encoding) {
		case 'url':
			// An HTTP client percent-encodes ' in a query itself: encoding it here keeps the URL
			// sent identical to the URL shown.
			return encodeURIComponent(wellFormed(value)).replace(/'/g, '%27');
		case 'form':
			return encodeURIComponent(wellFormed(value))
				.replace(/%20/g, '+')
				.replace(FORM_EXTRA, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
		case 'json':
			return JSON.stringify(value).slice(1, -1);
		case 'xml':
			return value.replace(XML_INVALID, '\uFFFD').replace(/[&<>"'\r\n\t]/g, (c) => XML_ESCAPES[c]);
		case 'raw':
			return value;
	}
}
