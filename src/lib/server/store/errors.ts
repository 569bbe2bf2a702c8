/**
 * Telling a database that is gone (stopped, restarting, unreachable) from other failures: such
 * a request is answered 503 with a clear message, and succeeds again once the database is back.
 */

/** Node's codes of a connection that could not be made or broke. */
const NETWORK_CODES = new Set([
	'ECONNREFUSED',
	'ECONNRESET',
	'EPIPE',
	'ETIMEDOUT',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENOTFOUND',
	'EAI_AGAIN'
]);

/** What the app says while its database does not answer. */
export const DATABASE_UNAVAILABLE_MESSAGE =
	'The database does not answer at the moment. Nothing was changed; try again shortly.';

/** Whether an error means the database could not be reached (rather than refused the query). */
export function isDatabaseUnavailable(error: unknown): boolean {
	for (let e = error, depth = 0; e && depth < 5; depth++) {
		if (typeof e !== 'object') return false;
		const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
		if (typeof code === 'string') {
			if (NETWORK_CODES.has(code)) return true;
			// PostgreSQL: connection exceptions (08…), shutting down or starting up (57P01–57P03).
			if (/^08...$/.test(code) || /^57P0[123]$/.test(code)) return true;
		}
		if (
			typeof message === 'string' &&
			/^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(
				message
			)
		) {
			return true;
		}
		// AggregateError (a host with several addresses) and wrapped errors.
		const inner = (e as { errors?: unknown[] }).errors?.[0];
		e = cause ?? inner;
	}
	return false;
}
