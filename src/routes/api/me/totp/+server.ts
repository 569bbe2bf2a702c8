import { json } from '@sveltejs/kit';
import type { TotpStatus } from '$lib/api-schemas/account';
import {
	activate,
	ActivateSchema,
	DisableSchema,
	disableOwn,
	startEnrolment
} from '$lib/server/auth/totp';
import { serverContext } from '$lib/server/platform/context';
import { apiError, clientIp, readJson, requireUser } from '$lib/server/http/body';
import { requireCredential } from '$lib/server/http/credential';
import type { RequestHandler } from './$types';

/** Whether the signed-in user has a second factor on, and how many recovery codes are left. */
export const GET: RequestHandler = async (event) => {
	const ctx = serverContext();
	const me = requireUser(event);
	const row = await ctx.store.totp.get(me.id);
	const enabled = row?.enabledAt != null;
	return json({
		enabled,
		recoveryCodesLeft: enabled ? await ctx.store.totp.recoveryCodesLeft(me.id) : 0
	} satisfies TotpStatus);
};

/** Starts setting up an authenticator app: a new secret and its otpauth:// address, not on yet. */
export const POST: RequestHandler = async (event) => {
	const outcome = await startEnrolment(serverContext(), requireUser(event), clientIp(event));
	return outcome.ok ? json(outcome.value) : apiError(outcome.status, outcome.code, outcome.message);
};

/** Turns the new secret on with a code of it; answers the recovery codes, this once. */
export const PUT: RequestHandler = async (event) => {
	const body = await readJson(event, ActivateSchema);
	if (!body.ok) return body.response;
	const outcome = await activate(
		serverContext(),
		requireUser(event),
		clientIp(event),
		body.data.code
	);
	return outcome.ok ? json(outcome.value) : apiError(outcome.status, outcome.code, outcome.message);
};

/** Turns the second factor off, with a code (or a recovery code) or the password. */
export const DELETE: RequestHandler = async (event) => {
	const body = await readJson(event, DisableSchema);
	if (!body.ok) return body.response;
	const meta = { ip: clientIp(event), credential: requireCredential(event) };
	const outcome = await disableOwn(serverContext(), requireUser(event), meta, body.data);
	if (outcome.ok) return new Response(null, { status: 204 });
	const response = apiError(outcome.status, outcome.code, outcome.message);
	if (outcome.retryAfter) response.headers.set('Retry-After', String(outcome.retryAfter));
	return response;
};
