import { z } from '$lib/core/zod';

/** Answers of the health endpoints. */

const Backend = z.enum(['sqlite', 'postgres']);

/** How live records reach this instance (PostgreSQL only). */
const LiveUpdates = z.object({
	mode: z.enum(['notify', 'poll', 'connecting']),
	message: z.string().optional()
});

/** `GET /api/health`, 200 and 503. */
export const HealthSchema = z
	.object({
		ok: z.boolean(),
		database: z.object({
			backend: Backend,
			ok: z.boolean(),
			latencyMs: z.number().optional().meta({ description: 'How long the database took.' }),
			message: z.string().optional()
		}),
		liveUpdates: LiveUpdates.optional()
	})
	.meta({ id: 'Health' });

/** `GET /api/health/live`. */
export const LivenessSchema = z
	.object({
		ok: z.boolean(),
		uptimeSeconds: z.number().int(),
		eventLoop: z.object({
			p99Ms: z.number(),
			maxMs: z.number(),
			stuck: z.boolean().meta({ description: 'Blocked for too long within the last minute.' })
		})
	})
	.meta({ id: 'Liveness' });

/** `GET /api/health/ready`. */
export const ReadinessSchema = z
	.object({
		ok: z.boolean(),
		reason: z.enum(['stopping', 'database']).optional(),
		message: z.string().optional(),
		database: z
			.object({ backend: Backend, ok: z.boolean(), latencyMs: z.number().optional() })
			.optional()
	})
	.meta({ id: 'Readiness' });
