import type { PasswordBusyError } from './password';

/**
 * The refusals that sign-in, second factors and accounts answer alike, written once so that the
 * same refusal has the same status, code and words wherever it comes from.
 */

/** A refused action, as its route answers it. */
export interface Refusal<Status extends number = number, Code extends string = string> {
	ok: false;
	status: Status;
	code: Code;
	message: string;
	/** Seconds to wait before trying again (with 429 and 503). */
	retryAfter?: number;
}

/** Too many `what` ("wrong codes"): try again once `wait` seconds have passed. */
export function tooMany(what: string, wait: number): Refusal<429, 'rate_limited'> {
	return {
		ok: false,
		status: 429,
		code: 'rate_limited',
		message: `Too many ${what}. Try again in ${Math.ceil(wait / 60)} minute(s).`,
		retryAfter: wait
	};
}

/** The password could not be checked now: too many checks are waiting. */
export function passwordBusy(error: PasswordBusyError): Refusal<503, 'busy'> {
	return {
		ok: false,
		status: 503,
		code: 'busy',
		message: error.message,
		retryAfter: error.retryAfter
	};
}

/** The account asked for is not there. */
export function noSuchUser(): Refusal<404, 'not_found'> {
	return { ok: false, status: 404, code: 'not_found', message: 'No such user.' };
}

/** A code of the user's app or a recovery code that is wrong or used, outside sign-in. */
export function codeNotRight(): Refusal<400, 'invalid_code'> {
	return {
		ok: false,
		status: 400,
		code: 'invalid_code',
		message: 'That code is not right (or was already used).'
	};
}
