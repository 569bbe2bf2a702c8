import { recordAudit } from '../audit';
import type { TestCallAnswerBody } from '$lib/api-schemas/calls';
import type { AuthUser } from '../auth/auth-user';
import type { ServerContext } from '../platform/context';
import { errorBody } from '../http/body';
import { keepInHistory, trimHistory, writeAudits } from './history';
import { CallInputError, resolveCall, type TestCallInput } from './input';
import { runTestCall, TooManyCallsError, type AuditSink } from './run';
import { metrics } from '../platform/metrics.js';

/**
 * `POST /api/test-calls` once its body is read: sends the request(s) the preview shows and
 * answers each response with its interpretation. The kit's route and the same endpoint served
 * before the kit (`direct-api.ts`) both answer with this. The requests' audit entries are
 * written with the history row, in one write before the answer; the history is trimmed after it.
 */

/** An answer's status and JSON body. */
export interface JsonAnswer {
	status: number;
	body: unknown;
}

/** Who calls, from where: the user, their address, and the origin the request came to. */
export interface Caller {
	user: AuthUser;
	ip: string;
	/** This app's origin as the request reached it (its sinks are called inside the app). */
	origin: string;
}

function error(status: number, code: string, message: string): JsonAnswer {
	return { status, body: errorBody(code, message) };
}

/** Runs a test call and keeps it in the caller's history. */
export async function answerTestCall(
	ctx: ServerContext,
	caller: Caller,
	input: TestCallInput
): Promise<JsonAnswer> {
	const { user } = caller;
	const actor = { id: user.id, email: user.email, ip: caller.ip };
	const audits: AuditSink = [];
	let kept = false;
	const started = performance.now();
	const measure = metrics();
	const took = (outcome: string) =>
		measure.testCallDuration.observe({ outcome }, (performance.now() - started) / 1000);
	try {
		const call = await resolveCall(ctx, input);
		const origins = [caller.origin, ctx.config.origin].filter((o): o is string => !!o);
		const answer = await runTestCall(ctx, actor, call, origins, input.callId, audits);
		const outcomes = answer.calls.map((c) =>
			'error' in c ? 'error' : c.interpretation.success ? 'success' : 'failure'
		);
		for (const outcome of outcomes) measure.testCalls.inc({ outcome });
		took(outcomes.find((o) => o !== 'success') ?? (outcomes.length ? 'success' : 'refused'));
		kept = true;
		const id = await keepInHistory(ctx, user.id, call, answer, audits);
		// After the answer is written: the trim's write does not hold it up.
		setImmediate(() => void trimHistory(ctx, user.id, call.build.service));
		const body = { id, calls: answer.calls, issues: answer.issues } satisfies TestCallAnswerBody;
		return { status: 200, body };
	} catch (failure) {
		// The requests that were sent before a failure are audited all the same.
		if (!kept) await writeAudits(ctx, audits);
		// A refused call is audited too: who tried to send what, and why it was refused.
		const refused = (code: string) => {
			measure.testCalls.inc({ outcome: 'refused' });
			took('refused');
			return recordAudit(ctx.store, actor, 'test_call', input.service, { refused: code });
		};
		if (failure instanceof TooManyCallsError) {
			await refused('too_many_calls');
			return error(429, 'too_many_calls', failure.message);
		}
		if (failure instanceof CallInputError) {
			await refused(failure.code);
			return error(failure.status, failure.code, failure.message);
		}
		throw failure;
	}
}
