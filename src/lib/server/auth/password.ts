import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { dictionary as Dictionary } from '@zxcvbn-ts/language-common';
import { createRequire } from 'node:module';

/**
 * Password hashing with scrypt at OWASP's parameters (N = 2^17, r = 8, p = 1), stored as a
 * PHC-style string so the parameters can grow: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`.
 *
 * Each computation takes 128 MiB and a good fraction of a second of one core, so they run
 * a few at a time: the others wait their turn, and a password check (the part strangers can
 * start, by signing in) is refused at once when too many already wait.
 */

/**
 * The cost (log2 of scrypt's N) new hashes are made with: OWASP's recommendation by default;
 * `PASSWORD_HASH_COST` may lower it for a test server (warned about at start) or raise it.
 */
export const PASSWORD_COST = { recommended: 17, min: 10, max: 18 };

const PARAMS = { ln: PASSWORD_COST.recommended, r: 8, p: 1 };
const KEY_LENGTH = 32;
/** scrypt takes 128 × N × r bytes: 256 MiB at the highest cost; a hash that needs more fails. */
const MAX_MEMORY = 2 * 128 * 2 ** PASSWORD_COST.max * 8;

/** Sets the cost of the hashes made from now on (checks read the cost from the stored hash). */
export function setPasswordCost(ln: number): void {
	if (!Number.isInteger(ln) || ln < PASSWORD_COST.min || ln > PASSWORD_COST.max) {
		throw new RangeError(`scrypt cost ${ln} is outside ${PASSWORD_COST.min}–${PASSWORD_COST.max}`);
	}
	PARAMS.ln = ln;
}

/** Shortest and longest password accepted. */
export const PASSWORD_LIMITS = { min: 12, max: 256 };

/** scrypt computations running at once, and password checks that may wait for a turn. */
export const PASSWORD_WORK = { atOnce: 2, waiting: 8 };

/** Thrown by {@link verifyPassword} when too many checks already wait: try again shortly. */
export class PasswordBusyError extends Error {
	/** Seconds after which a new attempt is likely to get a turn. */
	readonly retryAfter = 2;

	constructor() {
		super('Too many sign-in attempts are being checked right now: try again in a moment.');
		this.name = 'PasswordBusyError';
	}
}

let running = 0;
const queue: { resume: () => void; bounded: boolean }[] = [];

/** Waits for a turn to compute; a bounded wait fails when the queue of bounded waits is full. */
async function turn(bounded: boolean): Promise<void> {
	if (running < PASSWORD_WORK.atOnce) {
		running++;
		return;
	}
	if (bounded && queue.filter((q) => q.bounded).length >= PASSWORD_WORK.waiting) {
		throw new PasswordBusyError();
	}
	// The finishing computation hands its place over, so `running` stays counted.
	await new Promise<void>((resume) => queue.push({ resume, bounded }));
}

function done(): void {
	const next = queue.shift();
	if (next) next.resume();
	else running--;
}

async function derive(
	password: string,
	salt: Buffer,
	ln: number,
	r: number,
	p: number,
	bounded: boolean
): Promise<Buffer> {
	const options: ScryptOptions = { N: 2 ** ln, r, p, maxmem: MAX_MEMORY };
	await turn(bounded);
	try {
		return await new Promise((resolve, reject) => {
			scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
				error ? reject(error) : resolve(key)
			);
		});
	} finally {
		done();
	}
}

let common: Set<string> | undefined;

/**
 * The commonly used passwords (zxcvbn's list, built from leaked password sets), lower case. The
 * list is loaded the first time a password is chosen, not when the app starts.
 */
function commonPasswords(): Set<string> {
	if (!common) {
		const { dictionary } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as {
			dictionary: typeof Dictionary;
		};
		common = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
	}
	return common;
}

/**
 * Runs of characters that are easy to type or to guess: digits, the alphabet, and the rows and
 * columns of common keyboard layouts. A password inside one of them (forwards or backwards,
 * wrapping around) is trivial.
 */
const SEQUENCES = [
	'0123456789',
	'abcdefghijklmnopqrstuvwxyz',
	'1234567890qwertyuiopasdfghjklzxcvbnm',
	'1234567890azertyuiopqsdfghjklmwxcvbn',
	'1234567890qwertzuiopasdfghjklyxcvbnm',
	'1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p',
	'qazwsxedcrfvtgbyhnujmikolp',
	'!@#$%^&*()_+',
	'`1234567890-=',
	'qwertyuiop[]\\',
	"asdfghjkl;'",
	'zxcvbnm,./'
];

function inSequence(text: string): boolean {
	return SEQUENCES.some((run) => {
		const wrapped = run.repeat(Math.ceil(text.length / run.length) + 1);
		const backwards = [...wrapped].reverse().join('');
		return wrapped.includes(text) || backwards.includes(text);
	});
}

/** The password without the digits and punctuation people add at either end (`Password123!`). */
function core(text: string): string {
	return text.replace(/^[\p{N}\p{P}\p{S}\p{Z}]+|[\p{N}\p{P}\p{S}\p{Z}]+$/gu, '');
}

/** Fewest different characters a password must have. */
const MIN_DISTINCT = 5;

/**
 * A rule a new password broke: what the person choosing it is told (it may quote their own
 * password back), and the rule alone, never a part of the password, for the refusal of a
 * setting (`ADMIN_PASSWORD`), which lands in logs.
 */
export interface PasswordRefusal {
	message: string;
	rule: string;
}

/**
 * The first rule a new password breaks, or null when it is acceptable. Following NIST SP
 * 800-63B: a length of 12 to 256 characters, any characters, and no password that is commonly
 * used, repetitive or sequential, or made of the user's own e-mail address.
 */
export function passwordRefusal(password: string, email?: string): PasswordRefusal | null {
	if (password.length < PASSWORD_LIMITS.min) {
		const message = `The password needs at least ${PASSWORD_LIMITS.min} characters.`;
		return { message, rule: `must have at least ${PASSWORD_LIMITS.min} characters` };
	}
	if (password.length > PASSWORD_LIMITS.max) {
		const message = `The password may have at most ${PASSWORD_LIMITS.max} characters.`;
		return { message, rule: `must have at most ${PASSWORD_LIMITS.max} characters` };
	}
	const text = password.normalize('NFKC').toLowerCase();
	const list = commonPasswords();
	const stripped = core(text);
	if (list.has(text) || (stripped.length >= 4 && list.has(stripped))) {
		return {
			message: 'This password is on a list of commonly used passwords: choose another one.',
			rule: 'must not be a commonly used password'
		};
	}
	const repeated = /^(.+?)\1+$/su.exec(text);
	if (repeated) {
		return {
			message: `This password only repeats “${repeated[1]}”: choose one that is harder to guess.`,
			rule: 'must not repeat one part over and over'
		};
	}
	if (inSequence(text) || (stripped.length >= 4 && inSequence(stripped))) {
		return {
			message:
				'This password is a run of neighbouring keys or characters (like “qwerty” or “12345”): choose one that is harder to guess.',
			rule: 'must not be a run of neighbouring keys or characters'
		};
	}
	if (new Set(text).size < MIN_DISTINCT) {
		return {
			message: `This password uses fewer than ${MIN_DISTINCT} different characters: choose one that is harder to guess.`,
			rule: `must use at least ${MIN_DISTINCT} different characters`
		};
	}
	if (email) {
		const address = email.trim().normalize('NFKC').toLowerCase();
		const local = address.split('@')[0];
		const matches = (part: string) =>
			text === part || (core(part) !== '' && stripped === core(part));
		if ([address, local].some(matches)) {
			return {
				message: 'The password must not be your e-mail address.',
				rule: "must not be the account's e-mail address"
			};
		}
	}
	return null;
}

/** What is wrong with a new password, as its owner is told, or null when it is acceptable. */
export function passwordProblem(password: string, email?: string): string | null {
	return passwordRefusal(password, email)?.message ?? null;
}

/**
 * The password hash of an account made through single sign-on: no password matches it (it is no
 * hash), and the account is shown as signing in without a password.
 */
export const NO_PASSWORD = '!none';

/** Whether an account has a password to sign in with. */
export function hasPassword(stored: string): boolean {
	return stored !== NO_PASSWORD;
}

/** Hashes a password into a PHC-style string (waiting for a turn however long it takes). */
export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(16);
	const key = await derive(password, salt, PARAMS.ln, PARAMS.r, PARAMS.p, false);
	const params = `ln=${PARAMS.ln},r=${PARAMS.r},p=${PARAMS.p}`;
	return `$scrypt$${params}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/**
 * Checks a password against a stored hash in constant time; false for a malformed hash.
 * Throws {@link PasswordBusyError} when too many checks already wait for a turn.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
	const match = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
	if (!match) return false;
	const [, ln, r, p, salt, hash] = match;
	const expected = Buffer.from(hash, 'base64url');
	const key = await derive(password, Buffer.from(salt, 'base64url'), +ln, +r, +p, true);
	return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * Spends the time of a real check at the current parameters, so an unknown e-mail takes as
 * long as a wrong password. Throws {@link PasswordBusyError} like {@link verifyPassword}.
 */
export async function verifyNothing(password: string): Promise<false> {
	await derive(password, randomBytes(16), PARAMS.ln, PARAMS.r, PARAMS.p, true);
	return false;
}
