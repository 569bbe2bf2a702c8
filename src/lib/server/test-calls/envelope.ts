import { SECRET_MASK } from '$lib/core/profile/secrets';
import { maskSecretsIn, scrubSecrets, secretForms } from '$lib/core/request';
import { answerCredentials } from '$lib/core/response/provisioning-answer';
import { getService } from '$lib/core/catalogue';
import { firstCharacters, interpretResponse, type Interpretation } from '$lib/core/response';
import type { Values } from '$lib/core/request';
import type { HeaderField, Timings } from '../outbound';
import { bodyText } from '../sinks';

/**
 * The response envelope of a test call: what came back, as data the browser shows as text
 * (never as a page), and what the service's caller does with it, from the core's interpreter.
 */

/** A response as the API answers it. */
export interface ResponseEnvelope {
	status: number;
	statusText: string;
	headers: HeaderField[];
	/** The body as text, or base64 when it is not UTF-8 text (`bodyEncoding`). */
	body: string;
	bodyEncoding: 'text' | 'base64';
	/** The body was cut at the size limit (the interpretation saw the part that was kept). */
	truncated: boolean;
	size: { received: number; body: number };
	contentType: string | null;
	timings: Timings;
	/** The address connected to; null for the app's own sink. */
	address: { ip: string; port: number; family: 4 | 6 } | null;
	via: 'network' | 'sink';
	/** A redirect is shown, not followed. */
	redirect: { location: string } | null;
	/** The Content-Encoding could not be decoded to its end. */
	decodeError: string | null;
}

/** What a response was, before it is made an envelope. */
export interface ReceivedResponse {
	status: number;
	statusText: string;
	headers: HeaderField[];
	body: Uint8Array;
	received: number;
	truncated: boolean;
	decodeError: string | null;
	timings: Timings;
	address: ResponseEnvelope['address'];
	via: ResponseEnvelope['via'];
}

/**
 * The body with the UTF-8 bytes of every secret form replaced by the mask's, so a binary answer
 * (shown as base64) that echoes a password does not carry it either.
 */
function scrubBytes(body: Uint8Array, secrets: readonly string[]): Buffer {
	let out = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	for (const secret of secrets) {
		if (secret.length < 3) continue;
		const needle = Buffer.from(secret, 'utf8');
		const mask = Buffer.from(SECRET_MASK, 'utf8');
		const parts: Buffer[] = [];
		let at = 0;
		for (let i = out.indexOf(needle); i !== -1; i = out.indexOf(needle, at)) {
			parts.push(out.subarray(at, i), mask);
			at = i + needle.length;
		}
		if (parts.length) out = Buffer.concat([...parts, out.subarray(at)]);
	}
	return out;
}

function header(headers: HeaderField[], name: string): string | null {
	return headers.find((h) => h.name.toLowerCase() === name)?.value ?? null;
}

/** The call's values of the service's own variables (a reported push's keys), as text. */
function ownValues(service: string, values: Values): Record<string, string> {
	const own: Record<string, string> = {};
	for (const v of getService(service).variables) {
		const value = Object.hasOwn(values, v.name) ? values[v.name] : undefined;
		if (v.scope === 'service' && typeof value === 'string') own[v.name] = value;
	}
	return own;
}

/** The credentials an initial provisioning answer gives the account: masked like the call's. */
function answeredSecrets(service: string, body: Uint8Array): string[] {
	if (getService(service).responseBody !== 'provisioningAnswer') return [];
	return secretForms(answerCredentials(new TextDecoder().decode(body)));
}

/**
 * The envelope and the interpretation of a response. `secrets` are every form of the secrets
 * the call carried (`secretForms`): an upstream that echoes one back, as sent or decoded, gets it
 * masked in the status text, the headers, the body and the interpretation.
 */
export function envelope(
	service: string,
	response: ReceivedResponse,
	values: Values,
	carried: readonly string[]
): { response: ResponseEnvelope; interpretation: Interpretation } {
	const secrets = [...carried, ...answeredSecrets(service, response.body)];
	const decoded = bodyText(scrubBytes(response.body, secrets), response.truncated);
	// The caller reads the answer as it came (masking could break its JSON or XML); what the
	// interpretation quotes is masked below.
	const text = new TextDecoder().decode(response.body, { stream: response.truncated });
	const headers = maskSecretsIn(response.headers, secrets);
	const status = response.status;
	const location = header(headers, 'location');
	let interpretation = interpretResponse(
		service,
		{ status, headers, body: text },
		{
			username: typeof values.username === 'string' ? values.username : undefined,
			cloudId: typeof values.cloud_id === 'string' ? values.cloud_id : undefined,
			smartUri: typeof values.smartUri === 'string' ? values.smartUri : undefined,
			push: ownValues(service, values)
		}
	);
	// A body prefix the user is shown is cut from the masked body, so a secret cut at the limit
	// shows no part of itself.
	const limit = getService(service).limits.shownBodyChars;
	if (
		limit !== null &&
		interpretation.shownToUser !== null &&
		interpretation.shownToUser === firstCharacters(text, limit)
	) {
		const shownToUser = firstCharacters(scrubSecrets(text, secrets), limit);
		interpretation = { ...interpretation, shownToUser };
	}
	return {
		response: {
			status,
			statusText: scrubSecrets(response.statusText, secrets),
			headers,
			body: decoded.encoding === 'text' ? scrubSecrets(decoded.text, secrets) : decoded.text,
			bodyEncoding: decoded.encoding,
			truncated: response.truncated,
			size: { received: response.received, body: response.body.length },
			contentType: header(headers, 'content-type'),
			timings: response.timings,
			address: response.address,
			via: response.via,
			redirect: status >= 300 && status < 400 && location !== null ? { location } : null,
			decodeError: response.decodeError
		},
		// The interpretation quotes the body (the text a user is shown): masked like the body.
		interpretation: maskSecretsIn(interpretation, secrets)
	};
}
