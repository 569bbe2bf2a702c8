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
	 * Wrong second-factor codes of one account, from any address: with its password known, the
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
 * Counts a second-factor code of an account before it is checked (at sign-in, or to turn the
 * second factor off). Answers 0 when it may be checked, else the seconds to wait.
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
