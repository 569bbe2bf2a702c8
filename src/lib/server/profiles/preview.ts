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
	service: z.string().refine((id) => TEMPLATE_SERVICES.includes(id), {
		message: `Unknown service; use one of ${TEMPLATE_SERVICES.join(', ')}.`
	}),
	settings: ServiceSettingsSchema,
	values: z.record(z.string().min(1).max(200), ScenarioValueSchema).default({}),
	rawSubstitution: z.boolean().default(false),
	/** The profile's kept XML: its own account elements are `%account[name]%` placeholders. */
	preservedXml: z.array(PreservedXmlSchema).max(100_000).optional()
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
