import { z } from '$lib/core/zod';

/** Answers of the health endpoints. */

const Backend = z.enum(['sqlite', 'postgres']);

/** How live records reach this instance (PostgreSQL only). */
const LiveUpdates = z
	.object({
		mode: z.enum(['notify', 'poll', 'connecting']).meta({
			description:
				'`notify`: `LISTEN`/`NOTIFY`, at once. `poll`: every second, because of `LIVE_UPDATES=poll` or because the start’s test notification never came (as behind a transaction-mode pooler). `connecting`: the listening connection is being opened or proved; streams poll meanwhile. Polling is no outage: still 200.'
		}),
		message: z.string().optional().meta({ description: 'With `poll`: which of the two.' })
	})
	.meta({ description: 'PostgreSQL only: how other instances’ records reach this one’s streams.' });

/** `GET /api/health`, 200 and 503. */
export const HealthSchema = z
	.object({
		ok: z.boolean(),
		database: z.object({
			backend: Backend,
			ok: z.boolean(),
			latencyMs: z.number().optional().meta({ description: 'How long the database took.' }),
			message: z.string().optional().meta({
				description:
					'With 503: no answer within 2 s (the database’s own error goes to the log only).'
			})
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
			stuck: z.boolean().meta({
				description:
					'The event loop was blocked over 5 s within the last half minute to minute (503); a loop blocked for good answers nothing, and the probe’s timeout catches it.'
			})
		})
	})
	.meta({ id: 'Liveness' });

/** `GET /api/health/ready`. */
export const ReadinessSchema = z
	.object({
		ok: z.boolean(),
		reason: z.enum(['stopping', 'database']).optional().meta({
			description:
				'With 503: `database` (an outage, or not migrated yet) or `stopping` (from the moment a stop begins).'
		}),
		message: z.string().optional(),
		database: z
			.object({ backend: Backend, ok: z.boolean(), latencyMs: z.number().optional() })
			.optional()
	})
	.meta({ id: 'Readiness' });
