import { z } from 'zod';
import type { ServerContext } from '../platform/context';
import type { AuditEntry } from '../store/types';
import type { ResolvedCall } from './input';
import type { TestCallAnswer } from './run';
import { logger } from '../platform/logger';
import { currentRequestId } from '../platform/request-context';

/**
 * Each user's history of test calls per service: the answer as it was returned (secrets
 * already masked), so a call can be opened again. The newest {@link HISTORY_KEEP} per user and
 * service are kept.
 */

/** Calls kept per user and service. */
export const HISTORY_KEEP = 50;

/** `GET /api/test-calls?service=…&profileId=…`: the history of one service. */
export const TestCallHistoryQuerySchema = z.object({
	service: z
		.string({ error: 'Name the service: ?service=sendMessage.' })
		.min(1, { error: 'Name the service: ?service=sendMessage.' })
		.meta({ description: 'The service (`sendMessage`, …).' }),
	profileId: z
		.string()
		.optional()
		.meta({ description: 'The calls kept with this profile; without it, those of no profile.' })
});

/** A line of the history list. */
export interface HistorySummary {
	id: number;
	at: number;
	service: string;
	profileId: string | null;
	scenario: string | null;
	/** The first request's method and URL (masked), and how each request ended. */
	method: string | null;
	/** The X-Request-Id of the request that made the call (older calls have none). */
	requestId?: string | null;
	url: string | null;
	outcomes: { status?: number; error?: string; success?: boolean }[];
}

/** A history entry opened again. */
export interface HistoryEntry extends HistorySummary {
	answer: TestCallAnswer;
}

type Summary = Omit<HistorySummary, 'id' | 'at' | 'service' | 'profileId' | 'scenario'>;

function summarise(answer: TestCallAnswer): Summary {
	const first = answer.calls[0]?.request;
	return {
		requestId: currentRequestId(),
		method: first?.method ?? null,
		url: first?.url ?? null,
		outcomes: answer.calls.map((c) =>
			'error' in c
				? { error: c.error.code }
				: { status: c.response.status, success: c.interpretation.success }
		)
	};
}

/**
 * Keeps a call in the user's history with the audit entries of its requests, in one write;
 * returns its id. Should that write fail, the audit entries are still written on their own.
 * The older calls beyond {@link HISTORY_KEEP} are removed afterwards ({@link trimHistory}).
 */
export async function keepInHistory(
	ctx: ServerContext,
	userId: number,
	call: ResolvedCall,
	answer: TestCallAnswer,
	audits: Omit<AuditEntry, 'id'>[] = []
): Promise<number> {
	const add = ctx.store.testCalls.add(
		{
			userId,
			service: call.build.service,
			profileId: call.profileId,
			scenario: call.scenario,
			at: Date.now(),
			summary: JSON.stringify(summarise(answer)),
			record: JSON.stringify(answer)
		},
		audits
	);
	try {
		return await add;
	} catch (error) {
		await writeAudits(ctx, audits);
		throw error;
	}
}

/** Writes audit entries on their own (when they could not go with their history row). */
export async function writeAudits(
	ctx: ServerContext,
	audits: Omit<AuditEntry, 'id'>[]
): Promise<void> {
	for (const entry of audits) await ctx.store.audit.append(entry);
}

/**
 * Removes the user's calls of a service beyond the newest {@link HISTORY_KEEP}. Run after the
 * answer is sent: a failure is logged, and the next call's trim removes what this one left.
 */
export function trimHistory(ctx: ServerContext, userId: number, service: string): Promise<void> {
	return ctx.store.testCalls.trim(userId, service, HISTORY_KEEP).catch((error: unknown) => {
		logger().error({ err: error }, 'Trimming the test-call history failed.');
	});
}

/** A user's calls of a service (of one profile, or not of a profile), newest first. */
export async function listHistory(
	ctx: ServerContext,
	userId: number,
	service: string,
	profileId: string | null
): Promise<HistorySummary[]> {
	const rows = await ctx.store.testCalls.list(userId, service, profileId, HISTORY_KEEP);
	return rows.map((row) => ({
		id: row.id,
		at: row.at,
		service: row.service,
		profileId: row.profileId,
		scenario: row.scenario,
		...(JSON.parse(row.summary) as Summary)
	}));
}

/** One of the user's calls, with its whole answer. */
export async function historyEntry(
	ctx: ServerContext,
	userId: number,
	id: number
): Promise<HistoryEntry | undefined> {
	const row = await ctx.store.testCalls.get(id, userId);
	if (!row) return undefined;
	return {
		id: row.id,
		at: row.at,
		service: row.service,
		profileId: row.profileId,
		scenario: row.scenario,
		...(JSON.parse(row.summary) as Summary),
		answer: JSON.parse(row.record) as TestCallAnswer
	};
}
