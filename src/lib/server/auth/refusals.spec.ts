import { describe, expect, it } from 'vitest';
import { PasswordBusyError } from './password';
import { codeNotRight, noSuchUser, passwordBusy, tooMany } from './refusals';

describe('refusals', () => {
	it('asks for whole minutes, and says when to try again in seconds', () => {
		expect(tooMany('wrong codes', 61)).toEqual({
			ok: false,
			status: 429,
			code: 'rate_limited',
			message: 'Too many wrong codes. Try again in 2 minute(s).',
			retryAfter: 61
		});
	});

	it('passes on a busy password check with its wait', () => {
		const busy = new PasswordBusyError();
		expect(passwordBusy(busy)).toEqual({
			ok: false,
			status: 503,
			code: 'busy',
			message: busy.message,
			retryAfter: busy.retryAfter
		});
	});

	it('gives each caller its own object', () => {
		expect(noSuchUser()).toEqual({
			ok: false,
			status: 404,
			code: 'not_found',
			message: 'No such user.'
		});
		expect(noSuchUser()).not.toBe(noSuchUser());
		expect(codeNotRight()).toEqual({
			ok: false,
			status: 400,
			code: 'invalid_code',
			message: 'That code is not right (or was already used).'
		});
	});
});
