import type { GatewayTraceEntry } from '../push/gateway';

/**
 * The pushes a sandbox answered, element by element, as a phone sees them: the token each went
 * to, its attributes, and the status the gateway gave it (a 404 tells the provider to drop the
 * token). Read from a sandbox record's body as received and its trace.
 */

/** One element of a request a sandbox answered. */
export interface ObservedPush {
	/** The sandbox record's id and time. */
	recordId: number;
	at: number;
	token: string;
	/** The push object as sent (attributes the contract names, as received). */
	push: Record<string, unknown>;
	/** The status the gateway answered for it (200 accepted, 404 unregistered…). */
	status: number;
}

/** The parts of a sandbox record a phone reads. */
export interface PushRecordLike {
	id: number;
	at: number;
	endpoint: 'send' | 'multisend';
	body: string;
	bodyEncoding: 'text' | 'base64';
	trace: GatewayTraceEntry[];
}

function objectAt(value: unknown): Record<string, unknown> | null {
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: null;
}

/** The elements of a record that carried a token (a body that is not JSON gives none). */
export function observedPushes(record: PushRecordLike): ObservedPush[] {
	if (record.bodyEncoding !== 'text') return [];
	let parsed: unknown;
	try {
		parsed = JSON.parse(record.body);
	} catch {
		return [];
	}
	const elements =
		record.endpoint === 'send' ? [parsed] : Array.isArray(parsed) ? parsed : [parsed];
	const out: ObservedPush[] = [];
	for (const entry of record.trace) {
		if (entry.index === null) continue;
		const push = objectAt(elements[entry.index]);
		const token = push && typeof push.DeviceToken === 'string' ? push.DeviceToken : null;
		if (!push || token === null) continue;
		out.push({ recordId: record.id, at: record.at, token, push, status: entry.status });
	}
	return out;
}
