import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { sharedLimiter } from '../platform/cluster';

/**
 * Login rate limits: attempts count per e-mail + address (5 per 15 minutes) and per address
 * (50 per hour). An attempt is counted before its password is checked, so attempts sent in
 * parallel cannot all be checked before the first failure is counted; a success (or an attempt
 * that was never checked) gives its points back, and a success clears the e-mail + address
 * counter. With several instances of the app on PostgreSQL the counters are shared (see
 * `sharedLimiter`).
 */

/** The limits, for the documentation and the tests. */
export const LOGIN_LIMITS = {
	perUserAndIp: { points: 5, seconds: 15 * 60 },
	perIp: { points: 50, seconds: 60 * 60 },
	/**
	 * Wrong codes at sign-in for one account, from any address: with its password known, the
	 * million codes of a step must not be walked from many addresses at once.
	 */
	secondFactorPerUser: { points: 10, seconds: 15 * 60 }
};

let limiters:
	| {
			perUserAndIp: RateLimiterAbstract;
			perIp: RateLimiterAbstract;
			secondFactorPerUser: RateLimiterAbstract;
	  }
	| undefined;

/** The limiters, made at first use (when the configuration says where they count). */
function login() {
	limiters ??= {
		perUserAndIp: sharedLimiter({
			keyPrefix: 'login_user_ip',
			points: LOGIN_LIMITS.perUserAndIp.points,
			duration: LOGIN_LIMITS.perUserAndIp.seconds
		}),
		perIp: sharedLimiter({
			keyPrefix: 'login_ip',
			points: LOGIN_LIMITS.perIp.points,
			duration: LOGIN_LIMITS.perIp.seconds
		}),
		secondFactorPerUser: sharedLimiter({
			keyPrefix: 'second_factor_user',
			points: LOGIN_LIMITS.secondFactorPerUser.points,
			duration: LOGIN_LIMITS.secondFactorPerUser.seconds
		})
	};
	return limiters;
}

function key(email: string, ip: string): string {
	return `${email.trim().toLowerCase()}|${ip}`;
}

function refused(error: unknown): RateLimiterRes {
	if (!(error instanceof RateLimiterRes)) throw error;
	return error;
}

/**
 * Counts an attempt before its password is checked. Answers 0 when the attempt may go on, else
 * the seconds to wait before the next one is allowed (and then nothing stays counted that was
 * not already).
 */
export async function loginAttempt(email: string, ip: string): Promise<number> {
	const { perUserAndIp, perIp } = login();
	const k = key(email, ip);
	const [a, b] = await Promise.all([
		perUserAndIp.consume(k).then(() => null, refused),
		perIp.consume(ip).then(() => null, refused)
	]);
	if (!a && !b) return 0;
	// Only the limiter that refused keeps the point; give back the other's.
	if (!a) await perUserAndIp.reward(k);
	if (!b) await perIp.reward(ip);
	return Math.max(1, Math.ceil(Math.max(a?.msBeforeNext ?? 0, b?.msBeforeNext ?? 0) / 1000));
}

/** Gives back an attempt's points: it was never checked (the server was too busy). */
export async function loginNotChecked(email: string, ip: string): Promise<void> {
	const { perUserAndIp, perIp } = login();
	await Promise.all([perUserAndIp.reward(key(email, ip)), perIp.reward(ip)]);
}

/** After a successful login: the address's point comes back, the e-mail + address counter clears. */
export async function loginSucceeded(email: string, ip: string): Promise<void> {
	const { perUserAndIp, perIp } = login();
	await Promise.all([perUserAndIp.delete(key(email, ip)), perIp.reward(ip)]);
}

/**
 * Counts a wrong-code candidate at sign-in before it is checked: 0 when it may be checked, else
 * the seconds to wait. Only sign-in counts here, so no signed-in caller can spend it.
 */
export async function secondFactorAttempt(userId: number): Promise<number> {
	const refusal = await login()
		.secondFactorPerUser.consume(String(userId))
		.then(() => null, refused);
	return refusal ? Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) : 0;
}

/** After a right code: the account's count of wrong ones clears. */
export async function secondFactorSucceeded(userId: number): Promise<void> {
	await login().secondFactorPerUser.delete(String(userId));
}

// ---------------------------------------------------------------- guesses of signed-in callers

/**
 * Guesses a signed-in caller makes at its own account's current password or code (changing the
 * password, turning the second factor off) count per credential, the hash of its session's or
 * token's secret: a leaked token spends only its own, never sign-in's or the owner's session's.
 * Any credential can make API tokens, so the account's tokens also share a ceiling; sessions are
 * made only by signing in, which its own limits bound, and are never held back by it.
 */
export const GUESS_LIMITS = {
	perCredential: { points: 10, seconds: 15 * 60 },
	perUserTokens: { points: 30, seconds: 15 * 60 }
};

/** A signed-in caller: its account, how it came, and its credential's hash. */
export interface Caller {
	userId: number;
	via: 'session' | 'token';
	credential: string;
}

let guessLimiters:
	{ perCredential: RateLimiterAbstract; perUserTokens: RateLimiterAbstract } | undefined;

function guesses() {
	guessLimiters ??= {
		perCredential: sharedLimiter({
			keyPrefix: 'guess_credential',
			points: GUESS_LIMITS.perCredential.points,
			duration: GUESS_LIMITS.perCredential.seconds
		}),
		perUserTokens: sharedLimiter({
			keyPrefix: 'guess_user_tokens',
			points: GUESS_LIMITS.perUserTokens.points,
			duration: GUESS_LIMITS.perUserTokens.seconds
		})
	};
	return guessLimiters;
}

/** The counters a caller's guess goes to, each with its key. */
function guessCounters(caller: Caller): [RateLimiterAbstract, string][] {
	const { perCredential, perUserTokens } = guesses();
	const counters: [RateLimiterAbstract, string][] = [
		[perCredential, `${caller.userId}|${caller.credential}`]
	];
	if (caller.via === 'token') counters.push([perUserTokens, String(caller.userId)]);
	return counters;
}

/**
 * Counts a signed-in caller's guess before it is checked: 0 when it may be checked, else the
 * seconds to wait (and then nothing stays counted that was not already).
 */
export async function guessAttempt(caller: Caller): Promise<number> {
	const counters = guessCounters(caller);
	const refusals = await Promise.all(
		counters.map(([limiter, k]) => limiter.consume(k).then(() => null, refused))
	);
	if (refusals.every((r) => r === null)) return 0;
	// Only a counter that refused keeps the point.
	await Promise.all(counters.map(([limiter, k], i) => (refusals[i] ? null : limiter.reward(k))));
	const ms = Math.max(...refusals.map((r) => r?.msBeforeNext ?? 0));
	return Math.max(1, Math.ceil(ms / 1000));
}

/** Gives back a guess's points: it was never checked (the server was too busy). */
export async function guessNotChecked(caller: Caller): Promise<void> {
	await Promise.all(guessCounters(caller).map(([limiter, k]) => limiter.reward(k)));
}

/**
 * After a right guess: the credential's count clears, and the account's ceiling gets this
 * guess's point back (the wrong ones stay counted there).
 */
export async function guessSucceeded(caller: Caller): Promise<void> {
	const [[perCredential, k], ...rest] = guessCounters(caller);
	await Promise.all([
		perCredential.delete(k),
		...rest.map(([limiter, key]) => limiter.reward(key))
	]);
}

// ---------------------------------------------------------------- single sign-on

/**
 * Single sign-on from one client address: starts and callbacks count per address, each asked
 * before any work (a callback before the provider is asked for tokens); a sign-in that succeeds
 * gives both back, so an office behind one address is held back only by sign-ins that fail.
 * Refusals of one kind from one address are counted in a window as well, so that a burst of
 * them is audited a few times, not once each.
 */
export const SSO_LIMITS = {
	startPerIp: { points: 20, seconds: 10 * 60 },
	callbackPerIp: { points: 20, seconds: 10 * 60 },
	/** The window in which identical refusals are counted together. */
	refusalWindow: { seconds: 10 * 60 }
};

let ssoLimiters:
	| { start: RateLimiterAbstract; callback: RateLimiterAbstract; refusals: RateLimiterAbstract }
	| undefined;

function sso() {
	ssoLimiters ??= {
		start: sharedLimiter({
			keyPrefix: 'sso_start_ip',
			points: SSO_LIMITS.startPerIp.points,
			duration: SSO_LIMITS.startPerIp.seconds
		}),
		callback: sharedLimiter({
			keyPrefix: 'sso_callback_ip',
			points: SSO_LIMITS.callbackPerIp.points,
			duration: SSO_LIMITS.callbackPerIp.seconds
		}),
		// Only counts: no number of refusals is ever turned away.
		refusals: sharedLimiter({
			keyPrefix: 'sso_refusal',
			points: 2 ** 30,
			duration: SSO_LIMITS.refusalWindow.seconds
		})
	};
	return ssoLimiters;
}

/** Counts a start or a callback from an address: 0 when it may go on, else seconds to wait. */
export async function ssoAttempt(step: 'start' | 'callback', ip: string): Promise<number> {
	const refusal = await sso()
		[step].consume(ip)
		.then(() => null, refused);
	return refusal ? Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) : 0;
}

/** After a sign-in that succeeded: its start's and its callback's points come back. */
export async function ssoSucceeded(ip: string): Promise<void> {
	const { start, callback } = sso();
	await Promise.all([start.reward(ip), callback.reward(ip)]);
}

/** Counts a refusal of one kind (`key`): how many of that kind there were in its window. */
export async function ssoRefusalCount(key: string): Promise<number> {
	return (await sso().refusals.consume(key)).consumedPoints;
}
