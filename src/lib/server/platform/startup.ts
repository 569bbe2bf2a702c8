import { isDatabaseUnavailable } from '../store/errors';
import { logger } from './logger';

/** How long the app waits between attempts to finish starting while the database is gone. */
export const START_RETRY_MS = 2000;

/** What {@link startUp} is told, and how it waits (the tests shorten it). */
export interface StartUpOptions {
	retryMs?: number;
	log?: (message: string) => void;
	/** Told of a failure that is not the database's absence after the first attempt. */
	fail?: (error: unknown) => void;
}

/**
 * Runs the app's start-up work (migrations, the first admin, the purge of old sessions). When
 * the database does not answer, the app starts all the same (its requests answer 503, the health
 * check says why) and the work is tried again every `retryMs` in the background until the
 * database is back. Any other failure is thrown at once, as before: a bad configuration stops the
 * start; after the first attempt it goes to `fail` (by default: logged, and the process ends).
 */
export async function startUp(work: () => Promise<void>, options: StartUpOptions = {}) {
	const retryMs = options.retryMs ?? START_RETRY_MS;
	const log = options.log ?? ((message: string) => logger().warn(message));
	const fail =
		options.fail ??
		((error: unknown) => {
			logger().fatal(`Starting failed: ${error instanceof Error ? error.message : String(error)}`);
			process.exit(1);
		});
	try {
		await work();
		return;
	} catch (error) {
		if (!isDatabaseUnavailable(error)) throw error;
		log(
			`The database does not answer at start (${describe(error)}): the app answers 503 ` +
				`meanwhile and tries again every ${retryMs / 1000} s.`
		);
	}
	const retry = () =>
		work().then(
			() => log('The database answers: the app has started.'),
			(error: unknown) => {
				if (isDatabaseUnavailable(error)) setTimeout(retry, retryMs).unref();
				else fail(error);
			}
		);
	setTimeout(retry, retryMs).unref();
}

/** The error's message without the database's credentials (pg's messages carry none). */
function describe(error: unknown): string {
	const inner = (error as { errors?: unknown[] }).errors?.[0] ?? error;
	return inner instanceof Error ? inner.message : String(inner);
}
