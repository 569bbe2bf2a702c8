import type { z } from 'zod';
import { badRequest } from './body';

/**
 * Reads a request's query with a zod schema, as `readJson` reads a body: each parameter given
 * once is a string, one given several times a list of them; a query the schema refuses is
 * answered `400 invalid_input` with its issues.
 */
export function readQuery<S extends z.ZodType>(
	url: URL,
	schema: S
): { ok: true; data: z.infer<S> } | { ok: false; response: Response } {
	const query: Record<string, string | string[]> = {};
	for (const name of new Set(url.searchParams.keys())) {
		const values = url.searchParams.getAll(name);
		query[name] = values.length === 1 ? values[0] : values;
	}
	const parsed = schema.safeParse(query);
	if (parsed.success) return { ok: true, data: parsed.data };
	const issues = parsed.error.issues.map((i) => ({
		code: i.code,
		path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
		message: i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message
	}));
	return { ok: false, response: badRequest(issues) };
}
