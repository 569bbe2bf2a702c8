import { z } from 'zod';
import type { Preview, PreviewRequest } from '$lib/api-schemas/profiles';
import { SERVICES } from '$lib/core/catalogue';
import { PreservedXmlSchema, ScenarioValueSchema, ServiceSettingsSchema } from '$lib/core/profile';
import { buildRequests, toCurl, type BuiltRequest } from '$lib/core/request';
import { declaredAccountKeys } from '$lib/core/xml';

/** The headless preview: the same request builder the editor and test calls use. */

const TEMPLATE_SERVICES = SERVICES.filter((s) => s.kind === 'template').map((s) => s.id);

/** `POST /api/preview` body. */
export const PreviewInputSchema = z.object({
	service: z
		.string()
		.refine((id) => TEMPLATE_SERVICES.includes(id), {
			message: `Unknown service; use one of ${TEMPLATE_SERVICES.join(', ')}.`
		})
		.meta({
			description: `A service the templates make requests for: ${TEMPLATE_SERVICES.map((id) => `\`${id}\``).join(', ')}.`
		}),
	settings: ServiceSettingsSchema.meta({
		description: 'The service’s settings, keyed by the contract’s configuration key names.'
	}),
	values: z.record(z.string().min(1).max(200), ScenarioValueSchema).default({}).meta({
		description:
			'Keyed by the placeholder between the percent signs (`sms_to`, `account[username]`). A list variable (`interestedParties`) takes `[{ username, device }]`; a per-recipient variable (`sms_to`) given as an array yields one request per element.'
	}),
	rawSubstitution: z.boolean().default(false),
	preservedXml: z.array(PreservedXmlSchema).max(100_000).optional().meta({
		description:
			'The profile’s kept XML: its account elements (`<apiUser>`) become known placeholders (`%account[apiUser]%`), as in the editor.'
	})
});

/** One previewed request: headers as a name → value map (repeated names joined by ", "). */
export type { PreviewRequest };

/** A built request as the API shows it (headers as a map, with its cURL command). */
export function previewRequest(request: BuiltRequest): PreviewRequest {
	const headers: Record<string, string> = {};
	for (const { name, value } of request.headers) {
		headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
	}
	return {
		method: request.method,
		url: request.url,
		headers,
		body: request.body,
		...(request.recipient !== undefined ? { recipient: request.recipient } : {}),
		curl: toCurl(request)
	};
}

/** Builds the preview of one service's settings with a scenario's values. */
export function preview(input: z.infer<typeof PreviewInputSchema>): Preview {
	const { preservedXml, ...build } = input;
	const result = buildRequests({ ...build, accountKeys: declaredAccountKeys(preservedXml ?? []) });
	return { requests: result.requests.map(previewRequest), issues: result.issues };
}
