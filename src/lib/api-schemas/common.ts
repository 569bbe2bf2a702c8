import { z } from '$lib/core/zod';

/**
 * The shapes every part of the JSON API shares: the one error shape, and the small values many
 * answers hold. The server's operations (`$lib/server/openapi`) describe their answers with these,
 * the OpenAPI document is made from them, and the command-line program reads answers through
 * them — one shape in the code, the document and the client.
 */

/** One problem with a request: a field of the body (`path`), or a place in a text it carried. */
export const ProblemSchema = z
	.object({
		code: z.string().meta({ description: 'A stable code for the kind of problem.' }),
		message: z.string().meta({ description: 'What is wrong, for a person.' }),
		path: z
			.array(z.union([z.string(), z.number()]))
			.optional()
			.meta({ description: 'Where in the JSON body, as property names and indexes.' }),
		severity: z.enum(['error', 'warning', 'info']).optional(),
		field: z.string().optional().meta({ description: 'The configuration key it concerns.' }),
		line: z.number().int().optional(),
		column: z.number().int().optional(),
		from: z.number().int().optional(),
		to: z.number().int().optional(),
		fix: z
			.object({ label: z.string(), from: z.number(), to: z.number(), insert: z.string() })
			.optional()
	})
	.meta({ id: 'Problem', description: 'One problem with a request or the text it carried.' });

/** The error answer: a stable code, a message for a person, and for bad input what is wrong. */
export const ErrorSchema = z
	.object({
		error: z.object({
			code: z.string().meta({
				description: 'A stable code (`invalid_input`, `not_found`, `conflict`, …).',
				example: 'not_found'
			}),
			message: z.string().meta({ description: 'What happened, for a person.' })
		}),
		issues: z
			.array(ProblemSchema)
			.optional()
			.meta({ description: 'With `invalid_input` and other 400s: each problem found.' })
	})
	.meta({
		id: 'Error',
		description: 'Every error of the API has this shape; some add fields of their own.'
	});

export type ApiErrorBody = z.infer<typeof ErrorSchema>;

/** A time as milliseconds since 1970 (UTC). */
export const Millis = z.number().int().meta({ description: 'Milliseconds since 1970-01-01 UTC.' });

/** A role of the app. */
export const RoleSchema = z.enum(['viewer', 'editor', 'admin']).meta({ id: 'Role' });

/** One problem the core found in a template, an XML text or a backup. */
export const IssueSchema = z
	.object({
		code: z.string().meta({ description: 'A stable code for the kind of problem.' }),
		severity: z.enum(['error', 'warning', 'info']),
		message: z.string().meta({ description: 'What is wrong, for a person.' }),
		field: z.string().optional().meta({ description: 'The configuration key it concerns.' }),
		from: z.number().int().optional().meta({ description: 'Offset in that field’s text.' }),
		to: z.number().int().optional(),
		fix: z
			.object({ label: z.string(), from: z.number(), to: z.number(), insert: z.string() })
			.optional()
			.meta({ description: 'A replacement where the fix is clear.' })
	})
	.meta({ id: 'Issue', description: 'One problem found, with its place where it has one.' });
