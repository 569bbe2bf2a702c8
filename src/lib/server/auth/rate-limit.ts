import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Login rate limits: failed attempts count per e-mail + address (5 per 15 minutes) and per
 * address (50 per hour). A success clears the e-mail + address counter.
 */

const perUserAndIp = new RateLimiterMemory({
	keyPrefix: 'login_user_ip',
	points: 5,
	duration: 15 * 60
});
const perIp = new RateLimiterMemory({ keyPrefix: 'login_ip', points: 50, duration: 60 * 60 });

function key(email: string, ip: string): string {
	return `${email.trim().toLowerCase()}|${ip}`;
}

/** Seconds to wait before the next attempt is allowed, or 0 when one is allowed now. */
export async function loginBlockedFor(email: string, ip: string): Promise<number> {
	const [a, b] = await Promise.all([perUserAndIp.get(key(email, ip)), perIp.get(ip)]);
	const blocked = [
		a && a.remainingPoints <= 0 ? a.msBeforeNext : 0,
		b && b.remainingPoints <= 0 ? b.msBeforeNext : 0
	];
	return Math.ceil(Math.max(...blocked) / 1000);
}

/** Counts a failed attempt. */
export async function loginFailed(email: string, ip: string): Promise<void> {
	await Promise.all([
		perUserAndIp.consume(key(email, ip)).catch((e) => ignoreLimit(e)),
		perIp.consume(ip).catch((e) => ignoreLimit(e))
	]);
}

/** Clears the e-mail + address counter after a successful login. */
export async function loginSucceeded(email: string, ip: string): Promise<void> {
	await perUserAndIp.delete(key(email, ip));
}

function ignoreLimit(error: unknown): void {
	if (!(error instanceof RateLimiterRes)) throw error;
}
