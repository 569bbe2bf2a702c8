import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './errors';

describe('isDatabaseUnavailable', () => {
	const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

	it('recognises a refused, broken or timed-out connection, and a server shutting down', () => {
		expect(isDatabaseUnavailable(coded('ECONNREFUSED'))).toBe(true);
		expect(isDatabaseUnavailable(coded('57P01', 'terminating connection'))).toBe(true);
		expect(isDatabaseUnavailable(coded('57P03', 'the database system is starting up'))).toBe(true);
		expect(isDatabaseUnavailable(coded('08006'))).toBe(true);
		expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
		expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
		expect(isDatabaseUnavailable(new AggregateError([coded('ECONNREFUSED')]))).toBe(true);
		expect(isDatabaseUnavailable(new Error('wrapped', { cause: coded('ECONNRESET') }))).toBe(true);
	});

	it('leaves other errors alone: a refused query, a constraint, a bug', () => {
		expect(isDatabaseUnavailable(coded('23505', 'duplicate key value'))).toBe(false);
		expect(isDatabaseUnavailable(coded('SQLITE_CONSTRAINT_UNIQUE'))).toBe(false);
		expect(isDatabaseUnavailable(coded('P0001', 'the audit log is append-only'))).toBe(false);
		expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
		expect(isDatabaseUnavailable(undefined)).toBe(false);
		expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
	});
});
