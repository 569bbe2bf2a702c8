import type { Issue } from '../issues';
import { childNamed } from '../xml/parse';
import { formatOf, parseBody, sniffFormat } from './body';
import type { InterpretContext } from './interpret-context';

/** External Authentication's success body: verified numbers, SIP URI and network id. */

/** E.164: a leading +, a country code not starting with 0, at most 15 digits. */
export const E164 = /^\+[1-9]\d{1,14}$/;

/** What the SSO server takes from a successful External Authentication body. */
export interface PhoneNumbers {
	numbers: string[];
	/** Numbers that are not E.164 with a leading +. */
	invalid: string[];
	uri: string;
	uriDefaulted: boolean;
	networkId: string;
	networkIdDefaulted: boolean;
	summary: string;
}

interface Fields {
	numbers: string[];
	uri?: string;
	networkId?: string;
}

function fromJson(value: unknown, issues: Issue[]): Fields | null {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
	const record = value as Record<string, unknown>;
	const fields: Fields = { numbers: [] };
	const list = Object.hasOwn(record, 'phoneNumbers') ? record.phoneNumbers : undefined;
	if (Array.isArray(list)) {
		fields.numbers = list.filter((n): n is string => typeof n === 'string');
		if (fields.numbers.length !== list.length) {
			issues.push({
				code: 'phone_number_not_string',
				severity: 'warning',
				message: 'phoneNumbers holds values that are not strings; they are left out.'
			});
		}
	} else if (list !== undefined) {
		issues.push({
			code: 'phone_numbers_not_list',
			severity: 'warning',
			message: 'phoneNumbers must be a list of strings; it is left out.'
		});
	}
	for (const key of ['uri', 'networkId'] as const) {
		const field = Object.hasOwn(record, key) ? record[key] : undefined;
		if (typeof field === 'string' && field !== '') fields[key] = field;
	}
	return fields;
}

/**
 * Reads the body (JSON by Content-Type, else XML, the default) and applies the defaults: the
 * input username for `uri`, the cloud id for `networkId`. Null when the body cannot be parsed
 * (the SSO server then ignores the response).
 */
export function readPhoneNumbers(
	body: string,
	contentType: string | null,
	context: InterpretContext,
	issues: Issue[]
): PhoneNumbers | null {
	let fields: Fields | null = { numbers: [] };
	if (body.trim() !== '') {
		const declared = formatOf(contentType);
		const format =
			declared === 'json'
				? 'json'
				: declared === 'xml' || declared === 'none'
					? 'xml'
					: sniffFormat(body, null);
		const parsed = format === 'json' || format === 'xml' ? parseBody(body, format) : null;
		if (!parsed || !parsed.ok) {
			issues.push({
				code: 'body_unparseable',
				severity: 'warning',
				message: `The body cannot be parsed as ${format === 'json' ? 'JSON' : 'XML'}${parsed && !parsed.ok ? `: ${parsed.reason}` : ''}.`
			});
			return null;
		}
		if (parsed.format === 'json') {
			fields = fromJson(parsed.value, issues);
		} else if (parsed.format === 'xml') {
			if (parsed.root.name !== 'response') {
				issues.push({
					code: 'xml_root_not_response',
					severity: 'warning',
					message: `The XML root element is ${parsed.root.name}; it must be response.`
				});
				return null;
			}
			const list = childNamed(parsed.root, 'phone-numbers');
			fields.numbers = (list?.children ?? [])
				.filter((c) => c.name === 'phone-number')
				.map((c) => c.text.trim());
			const uri = childNamed(parsed.root, 'uri')?.text.trim();
			const networkId = childNamed(parsed.root, 'networkId')?.text.trim();
			if (uri) fields.uri = uri;
			if (networkId) fields.networkId = networkId;
		}
		if (fields === null) {
			issues.push({
				code: 'body_unparseable',
				severity: 'warning',
				message: 'The JSON body is not an object.'
			});
			return null;
		}
	}
	const invalid = fields.numbers.filter((n) => !E164.test(n));
	for (const number of invalid) {
		issues.push({
			code: 'phone_number_not_e164',
			severity: 'warning',
			message: `“${number}” is not in E.164 format with a leading + (e.g. +14155550123).`
		});
	}
	const uri = fields.uri ?? context.username ?? '';
	const networkId = fields.networkId ?? context.cloudId ?? '';
	const count = fields.numbers.length;
	const numbers =
		count === 0
			? 'no verified numbers'
			: `${count} verified number${count > 1 ? 's' : ''} (${fields.numbers.join(', ')})`;
	return {
		numbers: fields.numbers,
		invalid,
		uri,
		uriDefaulted: fields.uri === undefined,
		networkId,
		networkIdDefaulted: fields.networkId === undefined,
		summary: `The SSO server records ${numbers} for the account; uri “${uri}”${fields.uri === undefined ? ' (default: the username)' : ''}, networkId “${networkId}”${fields.networkId === undefined ? ' (default: the cloud id)' : ''}.`
	};
}
