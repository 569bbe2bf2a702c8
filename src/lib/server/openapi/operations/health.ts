import { z } from 'zod';
import { HealthSchema, LivenessSchema, ReadinessSchema } from '$lib/api-schemas/health';
import { jsonAnswer, RETRY_AFTER, type OperationSpec } from '../contract';

/** Health, liveness and readiness: no session, for load balancers and orchestrators. */
export const healthOperations: OperationSpec[] = [
	{
		operationId: 'getHealth',
		method: 'get',
		path: '/api/health',
		summary: 'Whether the server and its database answer',
		description:
			'200 when the database answers within two seconds, 503 when it does not (the database’s own error is logged, not shown). On PostgreSQL it also says how live records of other instances reach this one.',
		tag: 'Health',
		database: false,
		answers: {
			200: jsonAnswer('The server and its database answer.', HealthSchema),
			503: jsonAnswer('The database does not answer.', HealthSchema, RETRY_AFTER)
		}
	},
	{
		operationId: 'getLiveness',
		method: 'get',
		path: '/api/health/live',
		summary: 'Liveness: the process answers and its event loop is not stuck',
		description: 'Never asks the database: an outage of the database restarts no instance.',
		tag: 'Health',
		database: false,
		answers: {
			200: jsonAnswer('Alive.', LivenessSchema),
			503: jsonAnswer(
				'The event loop was blocked for too long within the last minute.',
				LivenessSchema
			)
		}
	},
	{
		operationId: 'getReadiness',
		method: 'get',
		path: '/api/health/ready',
		summary: 'Readiness: whether this instance should get traffic',
		description:
			'200 when the database answers within a second and its migrations are applied; 503 during an outage and from the moment a stop begins.',
		tag: 'Health',
		database: false,
		answers: {
			200: jsonAnswer('Ready.', ReadinessSchema),
			503: jsonAnswer('Stopping, or the database is not ready.', ReadinessSchema, RETRY_AFTER)
		}
	},
	{
		operationId: 'getOpenApiDocument',
		method: 'get',
		path: '/api/openapi.json',
		summary: 'This document',
		description:
			'The OpenAPI 3.1 document of the API, made once at start; answers 304 to an `If-None-Match` with its ETag.',
		tag: 'Contract',
		database: false,
		params: {
			header: z.object({
				'if-none-match': z
					.string()
					.optional()
					.meta({ description: 'An ETag from an earlier answer.' })
			})
		},
		answers: {
			200: {
				description: 'The document.',
				content: { 'application/json': z.looseObject({ openapi: z.literal('3.1.0') }) },
				headers: {
					ETag: {
						description: 'The document’s version.',
						required: true,
						schema: { type: 'string' }
					}
				}
			},
			304: { description: 'The document has not changed.' }
		}
	}
];
