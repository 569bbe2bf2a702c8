import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { checkedValues } from '../platform/environment';
import { logger } from '../platform/logger';
import { metrics } from '../platform/metrics.js';
import {
	OutboundError,
	parsePolicy,
	readOutboundConfig,
	sendOutbound,
	type OutboundPolicy
} from '../outbound';
import type { AuditStreamStatus } from '$lib/api-schemas/account';
import type { OutboundLimits } from '../outbound/send';
import type { AuditEntry, Store } from '../store/types';

/**
 * The audit stream: every audit entry is sent to the operator's webhook (`AUDIT_WEBHOOK_URL`) as
 * a Standard Webhooks message, signed with `AUDIT_WEBHOOK_SECRET`. Entries reach the database's
 * outbox in their own transaction (see the store's `auditOutbox`); this worker claims the oldest,
 * sends them one at a time in order, removes each once the receiver answered 2xx, and otherwise
 * tries again later, waiting longer each time. A restart loses nothing (the outbox is in the
 * database), and with several instances on PostgreSQL each entry is claimed by one of them.
 * Delivery is at least once: a receiver dedupes by `webhook-id`, stable per entry.
 */

/** The stream's configuration, from the environment; null when it is off. */
export interface AuditStreamConfig {
	url: URL;
	/** `whsec_…`, checked by the schema of variables. */
	secret: string;
	/** The first wait after a failure; it doubles with every attempt, up to `retryMaxMs`. */
	retryMs: number;
	retryMaxMs: number;
	/** How often the outbox is read when nothing told the worker of a new entry. */
	pollMs: number;
	/** How long a claim holds; after that another instance takes the entries over. */
	leaseMs: number;
}

const NAMES = [
	'AUDIT_WEBHOOK_URL',
	'AUDIT_WEBHOOK_SECRET',
	'AUDIT_STREAM_RETRY_MS',
	'AUDIT_STREAM_RETRY_MAX_MS',
	'AUDIT_STREAM_POLL_MS',
	'AUDIT_STREAM_LEASE_MS'
] as const;

/**
 * Reads `AUDIT_WEBHOOK_*` (and the internal `AUDIT_STREAM_*`), each checked by its rule in the
 * one schema of variables; throws a `ConfigurationError` naming a wrong one, or one set without
 * the other. Null when neither is set: the stream is off.
 */
export function readAuditStreamConfig(
	env: NodeJS.ProcessEnv = process.env
): AuditStreamConfig | null {
	const v = checkedValues(env, NAMES);
	if (!v.AUDIT_WEBHOOK_URL || !v.AUDIT_WEBHOOK_SECRET) return null;
	const number = (name: (typeof NAMES)[number], fallback: number) =>
		v[name] === undefined ? fallback : Number(v[name]);
	return {
		url: new URL(v.AUDIT_WEBHOOK_URL),
		secret: v.AUDIT_WEBHOOK_SECRET,
		retryMs: number('AUDIT_STREAM_RETRY_MS', 1000),
		retryMaxMs: number('AUDIT_STREAM_RETRY_MAX_MS', 5 * 60_000),
		pollMs: number('AUDIT_STREAM_POLL_MS', 1000),
		leaseMs: number('AUDIT_STREAM_LEASE_MS', 60_000)
	};
}

/**
 * The wait before attempt `attempt + 1`, after `attempt` failed ones (1 or more): the first wait
 * doubled for every attempt before, at most `maxMs`, of which a random part (up to half) is left
 * out so that instances and receivers coming back together do not all try at the same moment.
 * Never below half the capped wait. `random` gives a number in [0, 1).
 */
export function retryDelay(
	attempt: number,
	limits: { baseMs: number; maxMs: number },
	random: () => number = Math.random
): number {
	const exponent = Math.min(Math.max(attempt, 1) - 1, 52);
	const capped = Math.min(limits.maxMs, limits.baseMs * 2 ** exponent);
	return Math.round(capped / 2 + (capped / 2) * random());
}

/** The stable id of an entry's message: a receiver that got it twice keeps one. */
export function messageId(entry: Pick<AuditEntry, 'id'>): string {
	return `audit_${entry.id}`;
}

/**
 * The message's body: the entry as the audit API answers it, in Standard Webhooks' envelope
 * (`type`, `timestamp` of the event, `data`). Entries never hold bodies, passwords, tokens or
 * secret values; nothing is added to them here.
 */
export function messageBody(entry: AuditEntry): string {
	return JSON.stringify({
		type: 'audit.entry',
		timestamp: new Date(entry.at).toISOString(),
		data: {
			id: entry.id,
			at: entry.at,
			actorId: entry.actorId,
			actor: entry.actor,
			action: entry.action,
			target: entry.target,
			ip: entry.ip,
			details: entry.details
		}
	});
}

/**
 * What the audit page and `GET /api/audit/stream` show of the stream: whether it is configured,
 * the receiver's host (and port when not the scheme's, never its path or query), and the
 * outbox's state. Its shape is the API's (`AuditStreamStatusSchema`).
 */
export type { AuditStreamStatus };

/** Entries claimed at once: a batch is held by one instance, and sent in order. */
const BATCH = 20;

/**
 * A delivery is not started this close to the end of its claim's lease: it could run past it,
 * and another instance take the entry over while it is still being sent.
 */
const LEASE_MARGIN_MS = 1000;

/** How long a stop waits for the delivery under way before it cancels it (sent again later). */
const STOP_GRACE_MS = 5000;

/** The receiver as messages name it: its origin, never the path or query (they may hold a token). */
function shown(url: URL): string {
	return url.origin;
}

/**
 * The policy of the stream's calls: the receiver is the operator's own, so its host is allowed
 * whatever its addresses (private and loopback included; a cloud metadata address stays refused
 * for a name), on its port. Everything else of the outbound module applies: the connection goes
 * to the address that was checked, and its time and size limits hold.
 */
function receiverPolicy(url: URL): OutboundPolicy {
	const port = url.port || (url.protocol === 'https:' ? '443' : '80');
	return parsePolicy(url.hostname, port);
}

/** The outcome of one delivery. */
type Outcome = { ok: true } | { ok: false; error: string; cancelled: boolean };

/** The stream's worker in this instance. */
export class AuditStream {
	readonly owner = randomUUID();
	readonly #store: Store;
	readonly #config: AuditStreamConfig;
	readonly #limits: OutboundLimits;
	readonly #policy: OutboundPolicy;
	readonly #webhook: Webhook;
	/** The claim's lease: never shorter than a delivery may take, or none would ever start. */
	readonly #leaseMs: number;
	#running: Promise<void> | null = null;
	#stopping = false;
	#wake: (() => void) | null = null;
	#woken = false;
	/** Cancels the delivery under way (a stop that waited long enough). */
	#inFlight: AbortController | null = null;
	#lastProblem: string | null = null;

	constructor(store: Store, config: AuditStreamConfig, limits = readOutboundConfig().limits) {
		this.#store = store;
		this.#config = config;
		this.#limits = limits;
		this.#policy = receiverPolicy(config.url);
		this.#webhook = new Webhook(config.secret);
		this.#leaseMs = Math.max(config.leaseMs, limits.totalMs + 5 * LEASE_MARGIN_MS);
	}

	/** The receiver as the page shows it. */
	get target(): string {
		return this.#config.url.host;
	}

	/** Starts the worker (once). */
	start(): void {
		this.#running ??= this.#run();
	}

	/** Tells the worker an entry was queued: it looks at once instead of at its next poll. */
	wake(): void {
		this.#woken = true;
		this.#wake?.();
	}

	/**
	 * Stops the worker: no new claim; the delivery under way may finish for a few seconds, then
	 * it is cancelled and its entry sent again later; the entries this instance held are given
	 * back, due at once, for the next start or another instance. Resolves once it has stopped.
	 */
	async stop(): Promise<void> {
		this.#stopping = true;
		this.#wake?.();
		if (!this.#running) return;
		let timer: NodeJS.Timeout | undefined;
		const late = new Promise<void>((resolve) => {
			timer = setTimeout(() => {
				this.#inFlight?.abort();
				resolve();
			}, STOP_GRACE_MS);
		});
		await Promise.race([this.#running, late]);
		clearTimeout(timer);
		await this.#running;
	}

	async #run(): Promise<void> {
		// On SQLite this process is the only one: claims left by the one before it (a crash) are
		// its own to send now, not after their lease.
		if (this.#store.backend === 'sqlite') {
			await this.#store.auditOutbox.release(null, Date.now()).catch(() => 0);
		}
		while (!this.#stopping) {
			let worked = false;
			try {
				worked = await this.#batch();
				this.#lastProblem = null;
			} catch (error) {
				// The database does not answer: the next round tries again. Said once per problem.
				const message = error instanceof Error ? error.message : String(error);
				if (message !== this.#lastProblem) {
					logger().warn(
						{ component: 'audit-stream' },
						`The audit stream cannot read its outbox: ${message}`
					);
					this.#lastProblem = message;
				}
			}
			if (!worked) await this.#pause(this.#config.pollMs);
		}
		await this.#store.auditOutbox.release(this.owner, Date.now()).catch(() => 0);
	}

	/** Waits `ms`, or less when woken (a new entry, a stop). */
	async #pause(ms: number): Promise<void> {
		if (this.#woken || this.#stopping) {
			this.#woken = false;
			return;
		}
		await new Promise<void>((resolve) => {
			const timer = setTimeout(resolve, ms);
			this.#wake = () => {
				clearTimeout(timer);
				resolve();
			};
		});
		this.#wake = null;
		this.#woken = false;
	}

	/** Claims due entries and sends them in order; false when there was nothing to send. */
	async #batch(): Promise<boolean> {
		const outbox = this.#store.auditOutbox;
		const claimedAt = Date.now();
		const claimed = await outbox.claim(this.owner, claimedAt, this.#leaseMs, BATCH);
		if (!claimed.length) {
			metrics().auditStreamBacklog.set((await outbox.state()).backlog);
			return false;
		}
		const leaseEnds = claimedAt + this.#leaseMs;
		for (let i = 0; i < claimed.length; i++) {
			// Stopping, or too close to the lease's end: the rest goes back, due at once.
			if (this.#stopping || Date.now() + this.#limits.totalMs + LEASE_MARGIN_MS > leaseEnds) {
				await outbox.release(this.owner, Date.now());
				break;
			}
			const { entry, attempts } = claimed[i];
			const outcome = await this.#deliver(entry);
			if (outcome.ok) {
				await outbox.delivered(entry.id, Date.now());
				continue;
			}
			if (outcome.cancelled) {
				await outbox.release(this.owner, Date.now());
				break;
			}
			// This entry and the ones claimed after it wait for its next attempt, in order.
			const delay = retryDelay(attempts + 1, {
				baseMs: this.#config.retryMs,
				maxMs: this.#config.retryMaxMs
			});
			const now = Date.now();
			await outbox.failed(
				claimed.slice(i).map((c) => c.entry.id),
				outcome.error,
				now,
				now + delay
			);
			logger().warn(
				{ component: 'audit-stream', auditId: entry.id, attempt: attempts + 1, retryInMs: delay },
				`The audit webhook did not take entry ${entry.id}: ${outcome.error}`
			);
			break;
		}
		metrics().auditStreamBacklog.set((await outbox.state()).backlog);
		return true;
	}

	/** Sends one entry's message; the outcome and its time are counted. */
	async #deliver(entry: AuditEntry): Promise<Outcome> {
		const id = messageId(entry);
		const body = messageBody(entry);
		// Signed as it is sent: a receiver refuses a timestamp minutes old, and a retry may come
		// much later than the first attempt.
		const sentAt = new Date();
		const headers = [
			{ name: 'content-type', value: 'application/json' },
			{ name: 'user-agent', value: 'provisioning-studio-audit-stream' },
			{ name: 'webhook-id', value: id },
			{ name: 'webhook-timestamp', value: String(Math.floor(sentAt.getTime() / 1000)) },
			{ name: 'webhook-signature', value: this.#webhook.sign(id, sentAt, body) }
		];
		const controller = new AbortController();
		this.#inFlight = controller;
		const started = performance.now();
		let outcome: Outcome;
		try {
			const answer = await sendOutbound(
				{
					method: 'POST',
					url: this.#config.url.href,
					shownUrl: shown(this.#config.url),
					headers,
					body
				},
				{ policy: this.#policy, limits: this.#limits, signal: controller.signal }
			);
			if (answer.status >= 200 && answer.status < 300) outcome = { ok: true };
			else {
				const redirect = answer.status >= 300 && answer.status < 400;
				outcome = {
					ok: false,
					cancelled: false,
					error: `HTTP ${answer.status}${redirect ? ' (redirects are not followed)' : ''}`
				};
			}
		} catch (error) {
			const failure = OutboundError.from(error, { method: 'POST', url: shown(this.#config.url) });
			outcome = { ok: false, cancelled: failure.code === 'cancelled', error: failure.message };
		} finally {
			this.#inFlight = null;
		}
		if (!(!outcome.ok && outcome.cancelled)) {
			const result = outcome.ok ? 'success' : 'failure';
			metrics().auditStreamDeliveries.inc({ result });
			metrics()
				.auditStreamDuration.labels(result)
				.observe((performance.now() - started) / 1000);
		}
		return outcome;
	}
}

/** The stream's state for the audit page and its API: configured or not, and the outbox's. */
export async function auditStreamStatus(
	store: Store,
	stream: AuditStream | null
): Promise<AuditStreamStatus> {
	const state = await store.auditOutbox.state();
	return { configured: stream !== null, target: stream?.target ?? null, ...state };
}
