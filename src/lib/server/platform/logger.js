// Plain JavaScript: besides the app, scripts/serve.js reads it, so the start script and the app
// write to one logger (one stream, one format), including the lines before the app is loaded.
import { createRequire } from 'node:module';
import pino from 'pino';
import { bridge } from './bridge.js';

/**
 * The app's log: `pino`, one JSON object a line (`LOG_FORMAT=json`, the default when stdout is
 * not a terminal) or readable lines (`pretty`, the default on a terminal), at `LOG_LEVEL`
 * (`info` by default). Every line is made by the app from fields it chose; nothing writes a
 * request's headers or body, so cookies, `Authorization`, passwords, tokens and secret values
 * never reach it by construction. The paths below are a second net, for an error object that
 * carries one.
 */

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

/** The asynchronous destinations, written out by {@link flushLog}. */
const destinations = /** @type {import('pino').DestinationStream[]} */ ([]);

/**
 * @template {import('pino').DestinationStream} T
 * @param {T} stream
 * @returns {T}
 */
function track(stream) {
	destinations.push(stream);
	return stream;
}

/** Writes out every line not written yet (before the process exits). */
export function flushLog() {
	for (const stream of destinations) {
		try {
			/** @type {{ flushSync?: () => void }} */ (stream).flushSync?.();
		} catch {
			// not open yet, or already closed: nothing is waiting
		}
	}
}

/**
 * The process's logger, made on first use from `LOG_FORMAT` and `LOG_LEVEL` (the start script
 * makes it before the app loads; the app then finds the same one).
 * @returns {import('pino').Logger}
 */
export function logger() {
	const shared = bridge();
	if (shared.logger) return shared.logger;
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
	shared.logger = pino(options, readable ? prettyStreams() : jsonStream());
	// Request lines are made of fields the start script chose (an id, a route template, a
	// status, a duration, a user id, an address): nothing to redact, and the redaction's walk
	// of every line would be most of their cost. Same stream, same format.
	shared.requestLogger = shared.logger.child({}, { redact: [] });
	return shared.logger;
}

/** The logger of the start script's request lines (see {@link logger}). */
export function requestLogger() {
	logger();
	return /** @type {import('pino').Logger} */ (bridge().requestLogger);
}

/**
 * JSON lines, written asynchronously: lines that come while a write is under way go out
 * together in the next one (a busy server makes far fewer writes); `flushLog` writes what is
 * left before the process exits. What went wrong (warn and above) goes to stderr, the rest to
 * stdout, told apart by the level each line begins with.
 */
function jsonStream() {
	const out = track(pino.destination({ fd: 1, sync: false }));
	const err = track(pino.destination({ fd: 2, sync: false }));
	const quiet = ['{"level":"info"', '{"level":"debug"', '{"level":"trace"'];
	return {
		/** @param {string} line */
		write(line) {
			(quiet.some((start) => line.startsWith(start)) ? out : err).write(line);
		}
	};
}

/**
 * Readable lines on a terminal, warnings and errors on stderr, each line once. `pino-pretty` is
 * loaded only here: a server writing JSON (every deployment) never compiles it.
 */
function prettyStreams() {
	const pretty = /** @type {typeof import('pino-pretty')} */ (
		createRequire(import.meta.url)('pino-pretty')
	);
	/** @param {1 | 2} fd */
	const stream = (fd) =>
		pretty({
			destination: fd,
			sync: true,
			colorize: (fd === 1 ? process.stdout : process.stderr).isTTY === true,
			ignore: 'pid,hostname,service'
		});
	return pino.multistream(
		[
			{ level: 'trace', stream: stream(1) },
			{ level: 'warn', stream: stream(2) }
		],
		{ dedupe: true }
	);
}
