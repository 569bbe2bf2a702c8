// Plain JavaScript: besides the app, scripts/serve.js reads it (it times every request and serves
// GET /metrics), so the start script and the app count into one registry.
import client from 'prom-client';
import { bridge } from './bridge.js';

/**
 * The app's metrics in Prometheus' text format (`GET /metrics`, behind `METRICS_TOKEN`): Node's
 * and the process's own, every request's duration by method, route template and status, and
 * what the app does (test calls, sandbox pushes, sign-ins, database queries and connections,
 * open event streams, the audit stream's deliveries and backlog). Labels are templates and fixed words, never an id, a path or a value a
 * user typed, so the number of series stays bounded.
 */

/** Seconds: from a millisecond to a minute (test calls wait on other servers). */
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * prom-client's default metrics, less the three gauges it also gives under a `_total` name (a
 * suffix for counters only: `promtool check metrics` rejects them); the same counts stay under
 * `nodejs_active_handles`, `nodejs_active_requests` and `nodejs_active_resources`.
 * @param {client.Registry} registry
 */
function defaultMetrics(registry) {
	client.collectDefaultMetrics({ register: registry });
	for (const name of ['handles', 'requests', 'resources']) {
		registry.removeSingleMetric(`nodejs_active_${name}_total`);
	}
}

/** @param {client.Registry} registry */
function make(registry) {
	defaultMetrics(registry);
	return {
		registry,
		httpDuration: new client.Histogram({
			name: 'http_request_duration_seconds',
			help: 'Time to answer an HTTP request, by method, route template and status.',
			labelNames: ['method', 'route', 'status'],
			buckets: BUCKETS,
			registers: [registry]
		}),
		testCalls: new client.Counter({
			name: 'provisioning_test_calls_total',
			help: 'Requests sent by test calls, by how the platform reads the answer (success, failure), or error (no answer), or refused (not sent).',
			labelNames: ['outcome'],
			registers: [registry]
		}),
		testCallDuration: new client.Histogram({
			name: 'provisioning_test_call_duration_seconds',
			help: 'Time of a whole test call (every request it sends), by its outcome.',
			labelNames: ['outcome'],
			buckets: BUCKETS,
			registers: [registry]
		}),
		sandboxPushes: new client.Counter({
			name: 'provisioning_sandbox_pushes_total',
			help: "Pushes the sandbox gateways answered, by verdict (the contract's answer).",
			labelNames: ['verdict'],
			registers: [registry]
		}),
		signIns: new client.Counter({
			name: 'provisioning_sign_ins_total',
			help: 'Sign-ins, by method and result.',
			labelNames: ['method', 'result'],
			registers: [registry]
		}),
		queryDuration: new client.Histogram({
			name: 'provisioning_database_query_duration_seconds',
			help: 'Time of a database query, by backend.',
			labelNames: ['backend'],
			buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
			registers: [registry]
		}),
		/** Read when scraped: set by the app (`watchGauge`). */
		poolConnections: new client.Gauge({
			name: 'provisioning_database_pool_connections',
			help: "PostgreSQL pool's connections, by state (idle, busy, waiting clients).",
			labelNames: ['state'],
			registers: [registry]
		}),
		eventStreams: new client.Gauge({
			name: 'provisioning_event_streams_open',
			help: 'Server-sent event streams open now.',
			registers: [registry]
		}),
		auditStreamDeliveries: new client.Counter({
			name: 'provisioning_audit_stream_deliveries_total',
			help: 'Audit entries sent to the audit webhook, by result (success: a 2xx answer; failure: any other answer or none, retried later).',
			labelNames: ['result'],
			registers: [registry]
		}),
		auditStreamDuration: new client.Histogram({
			name: 'provisioning_audit_stream_delivery_duration_seconds',
			help: 'Time of one delivery to the audit webhook, by result.',
			labelNames: ['result'],
			buckets: BUCKETS,
			registers: [registry]
		}),
		/** Set by the stream's worker as it reads the outbox. */
		auditStreamBacklog: new client.Gauge({
			name: 'provisioning_audit_stream_backlog',
			help: 'Audit entries waiting in the outbox to be sent to the audit webhook (the outbox is shared: every instance reports the same count).',
			registers: [registry]
		})
	};
}

/** @typedef {ReturnType<typeof make>} Metrics */

/**
 * The process's metrics, made on first use (the start script makes them before the app loads;
 * the app then finds the same ones).
 * @returns {Metrics}
 */
export function metrics() {
	const shared = bridge();
	shared.metrics ??= make(new client.Registry());
	return shared.metrics;
}
