// Plain JavaScript: besides the app, scripts/serve.js reads it, so the start script and the app
// write to one logger (one stream, one format), including the lines before the app is loaded.
import pino from 'pino';
import pretty from 'pino-pretty';

/**
 * The app's log: `pino`, one JSON object a line (`LOG_FORMAT=json`, the default when stdout is
 * not a terminal) or readable lines (`pretty`, the default on a terminal), at `LOG_LEVEL`
 * (`info` by default). Every line is made by the app from fields it chose; nothing writes a
 * request's headers or body, so cookies, `Authorization`, passwords, tokens and secret values
 * never reach it by construction. The paths below are a second net, for an error object that
 * carries one.
 */

const KEY = Symbol.for('provisioning-studio.logger');

/** Where secrets could hide in a logged object: replaced by the mask, never written. */
export const REDACTED_PATHS = [
	'password',
	'*.password',
	'token',
	'*.token',
	'secret',
	'*.secret',
	'cookie',
	'*.cookie',
	'authorization',
	'*.authorization',
	'headers.cookie',
	'headers.authorization',
	'*.headers.cookie',
	'*.headers.authorization'
];

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/**
 * The process's logger, made on first use from `LOG_FORMAT` and `LOG_LEVEL` (the start script
 * makes it before the app loads; the app then finds the same one).
 * @returns {import('pino').Logger}
 */
export function logger() {
	const shared = /** @type {Record<symbol, import('pino').Logger>} */ (globalThis);
	if (shared[KEY]) return shared[KEY];
	const env = process.env;
	const format = env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty' ? env.LOG_FORMAT : null;
	const level = LOG_LEVELS.includes(env.LOG_LEVEL ?? '') ? env.LOG_LEVEL : 'info';
	const options = {
		level,
		base: { service: 'provisioning-studio' },
		redact: { paths: REDACTED_PATHS, censor: '••••••••' },
		timestamp: pino.stdTimeFunctions.isoTime,
		formatters: { level: (/** @type {string} */ label) => ({ level: label }) }
	};
	const readable = format === 'pretty' || (format === null && process.stdout.isTTY === true);
	/** @param {1 | 2} fd */
	const stream = (fd) =>
		readable
			? pretty({
					destination: fd,
					sync: true,
					colorize: (fd === 1 ? process.stdout : process.stderr).isTTY === true,
					ignore: 'pid,hostname,service'
				})
			: pino.destination({ fd, sync: true });
	// What went wrong (warn and above) on stderr, the rest on stdout, each line once.
	shared[KEY] = pino(
		options,
		pino.multistream(
			[
				{ level: 'trace', stream: stream(1) },
				{ level: 'warn', stream: stream(2) }
			],
			{ dedupe: true }
		)
	);
	return shared[KEY];
}
