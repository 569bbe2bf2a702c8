import { openApi } from '$lib/server/openapi/document';
import type { PageServerLoad } from './$types';

/** The API reference, drawn from the OpenAPI document the server serves (no session needed). */
export const load: PageServerLoad = () => {
	const { document } = openApi();
	return { document: JSON.parse(JSON.stringify(document)) as ApiDocument };
};

/** The parts of an OpenAPI 3.1 document the reference page reads. */
export interface ApiDocument {
	info: { title: string; version: string; description?: string };
	tags: { name: string; description?: string }[];
	paths: Record<string, Record<string, unknown>>;
	components: {
		schemas: Record<string, unknown>;
		responses?: Record<string, unknown>;
		securitySchemes: Record<string, unknown>;
	};
}
