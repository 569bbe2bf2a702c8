import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { z } from 'zod';
import { maskSecretsIn } from '$lib/core/request';
import { recordAudit, type Actor } from '../audit';
import { announce, onAnnounce } from '../platform/cluster';
import type { ServerContext } from '../platform/context';
import type { SinkRequestRow, SinkRow } from '../store/types';

/**
 * Echo sinks: addresses inside the app (`/sink/<key>/…`) that record every request they receive
 * and answer what their users chose, so a service can be tried before the provider has a
 * server. A sink is addressed by its secret key; its records are read by editors and admins.
 */

/** Requests kept per sink (older ones are dropped). */
export const SINK_KEEP = 100;

/** Bytes of a received body that are recorded. */
export const SINK_BODY_BYTES = 256 * 1024;

const NO_LINE_BREAK = /^[^\r\n\0]*$/;

/** The longest a sink may wait before answering. */
export const MAX_SINK_DELAY_MS = 30_000;

/** What a sink answers. */
export const SinkAnswerSchema = z.object({
	status: z.number().int().min(200).max(599),
	contentType: z
		.string()
		.trim()
		.max(200)
		.regex(NO_LINE_BREAK, 'The content type cannot hold a line break.'),
	body: z.string().max(100_000),
	/** How long the sink waits before answering, to try a slow server (timeouts, Cancel). */
	delayMs: z.number().int().min(0).max(MAX_SINK_DELAY_MS).default(0)
});
export type SinkAnswer = z.infer<typeof SinkAnswerSchema>;

/** The answer of a new sink: 200 with an empty JSON object, at once. */
export const DEFAULT_ANSWER: SinkAnswer = {
	status: 200,
	contentType: 'application/json',
	body: '{}',
	delayMs: 0
};

/** `POST /api/sinks` */
export const CreateSinkSchema = z.object({
	name: z.string().trim().min(1).max(100),
	answer: SinkAnswerSchema.optional()
});

/** `PUT /api/sinks/:key` */
export const UpdateSinkSchema = z
	.object({
		name: z.string().trim().min(1).max(100).optional(),
		answer: SinkAnswerSchema.optional()
	})
	.refine((v) => v.name !== undefined || v.answer !== undefined, {
		message: 'Send a new name or a new answer.'
	});

/** A sink as the API shows it. */
export interface SinkView {
	key: string;
	name: string;
	createdAt: number;
	/** The path to give a service (prefix it with the app's origin). */
	path: string;
	answer: SinkAnswer;
}

/** One received request, as recorded. */
export interface SinkRecord {
	method: string;
	/** The path after `/sink/<key>`, with the query (`/send?to=…`). */
	path: string;
	headers: { name: string; value: string }[];
	body: string;
	bodyEncoding: 'text' | 'base64';
	/** Bytes received (the recorded body may be shorter). */
	size: number;
	truncated: boolean;
	/** `network`: someone called the address; `test_call`: a test call of this app. */
	via: 'network' | 'test_call';
	ip: string | null;
}

/** A recorded request with its id and time. */
export interface SinkRequestView extends SinkRecord {
	id: number;
	at: number;
}

/** A request arriving at a sink. */
export interface IncomingSinkRequest {
	method: string;
	path: string;
	headers: { name: string; value: string }[];
	body: Uint8Array;
	via: SinkRecord['via'];
	ip: string | null;
	/**
	 * The forms of the secrets a test call carried: recorded as the mask, so a sink never keeps a
	 * stored secret in clear (the request itself carried them, as an upstream's would).
	 */
	secrets?: readonly string[];
}

/** Keys are 128 random bits, base64url. */
export const SINK_KEY = /^[A-Za-z0-9_-]{22}$/;

const events = new EventEmitter();
events.setMaxListeners(0);

function view(row: SinkRow): SinkView {
	return {
		key: row.key,
		name: row.name,
		createdAt: row.createdAt,
		path: `/sink/${row.key}/`,
		answer: SinkAnswerSchema.parse(JSON.parse(row.answer))
	};
}

function requestView(row: SinkRequestRow): SinkRequestView {
	return { id: row.id, at: row.at, ...(JSON.parse(row.record) as SinkRecord) };
}

/** Creates a sink with a new secret key. */
export async function createSink(
	ctx: ServerContext,
	actor: Actor,
	input: z.infer<typeof CreateSinkSchema>
): Promise<SinkView> {
	const row = await ctx.store.sinks.create({
		key: randomBytes(16).toString('base64url'),
		name: input.name,
		createdBy: actor.id,
		createdAt: Date.now(),
		answer: JSON.stringify(input.answer ?? DEFAULT_ANSWER)
	});
	await recordAudit(ctx.store, actor, 'sink.created', row.key.slice(0, 6), { name: row.name });
	return view(row);
}

/** Every sink, newest first. */
export async function listSinks(ctx: ServerContext): Promise<SinkView[]> {
	return (await ctx.store.sinks.list()).map(view);
}

/** One sink, or undefined. */
export async function getSink(ctx: ServerContext, key: string): Promise<SinkView | undefined> {
	if (!SINK_KEY.test(key)) return undefined;
	const row = await ctx.store.sinks.get(key);
	return row ? view(row) : undefined;
}

/** Renames a sink or changes its answer; undefined when there is no such sink. */
export async function updateSink(
	ctx: ServerContext,
	key: string,
	changes: z.infer<typeof UpdateSinkSchema>
): Promise<SinkView | undefined> {
	if (!SINK_KEY.test(key)) return undefined;
	const updated = await ctx.store.sinks.update(key, {
		name: changes.name,
		answer: changes.answer ? JSON.stringify(changes.answer) : undefined
	});
	return updated ? getSink(ctx, key) : undefined;
}

/** Deletes a sink and its records. */
export async function deleteSink(ctx: ServerContext, actor: Actor, key: string): Promise<boolean> {
	if (!SINK_KEY.test(key) || !(await ctx.store.sinks.delete(key))) return false;
	await recordAudit(ctx.store, actor, 'sink.deleted', key.slice(0, 6));
	return true;
}

/** The requests a sink received after `afterId`, newest first. */
export async function sinkRequests(
	ctx: ServerContext,
	key: string,
	afterId = 0
): Promise<SinkRequestView[]> {
	return (await ctx.store.sinks.requests(key, afterId, SINK_KEEP)).map(requestView);
}

/** Forgets every request a sink received. */
export async function clearSinkRequests(ctx: ServerContext, key: string): Promise<void> {
	await ctx.store.sinks.clearRequests(key);
}

/** Calls `listener` with each request `key` receives from now on; returns the unsubscribe. */
export function watchSink(key: string, listener: (request: SinkRequestView) => void): () => void {
	events.on(key, listener);
	return () => events.off(key, listener);
}

/**
 * Calls `poke` when another instance of the app (on PostgreSQL) may have recorded requests of
 * `key`; returns the unsubscribe, or undefined when there is one instance.
 */
export function sinkChanges(key: string, poke: () => void): (() => void) | undefined {
	return onAnnounce(`sink:${key}`, poke);
}

/** Header values a sink never records: the app's own session cookie and API tokens. */
function recordedValue(name: string, value: string): string {
	const lower = name.toLowerCase();
	if (lower === 'cookie') return '(not recorded)';
	if (lower === 'authorization' && /^Bearer\s+pst_/i.test(value)) return '(not recorded)';
	return value;
}

/** The body as text when it is UTF-8 without NUL, else base64. */
export function bodyText(
	bytes: Uint8Array,
	cut: boolean
): { text: string; encoding: 'text' | 'base64' } {
	try {
		const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: cut });
		if (!text.includes('\0')) return { text, encoding: 'text' };
	} catch {
		// not UTF-8: base64 below
	}
	return { text: Buffer.from(bytes).toString('base64'), encoding: 'base64' };
}

/**
 * Records a request a sink received and returns the sink's answer, or undefined when there is no
 * such sink.
 */
export async function receiveAtSink(
	ctx: ServerContext,
	key: string,
	incoming: IncomingSinkRequest
): Promise<SinkAnswer | undefined> {
	const sink = await getSink(ctx, key);
	if (!sink) return undefined;
	const truncated = incoming.body.length > SINK_BODY_BYTES;
	const body = bodyText(incoming.body.subarray(0, SINK_BODY_BYTES), truncated);
	const record: SinkRecord = maskSecretsIn(
		{
			method: incoming.method,
			path: incoming.path,
			headers: incoming.headers.map((h) => ({
				name: h.name,
				value: recordedValue(h.name, h.value)
			})),
			body: body.text,
			bodyEncoding: body.encoding,
			size: incoming.body.length,
			truncated,
			via: incoming.via,
			ip: incoming.ip
		},
		incoming.secrets ?? []
	);
	const row = await ctx.store.sinks.addRequest(key, Date.now(), JSON.stringify(record), SINK_KEEP);
	events.emit(key, requestView(row));
	announce(`sink:${key}`);
	return sink.answer;
}

/** The response a sink gives: the chosen answer, never run as a page of this app. */
export function sinkResponse(answer: SinkAnswer, method: string): Response {
	const headers = new Headers({
		'content-security-policy': "sandbox; default-src 'none'",
		'x-content-type-options': 'nosniff',
		'cache-control': 'no-store'
	});
	if (answer.contentType !== '') headers.set('content-type', answer.contentType);
	const body = sinkAnswersWithBody(method, answer.status) ? answer.body : null;
	return new Response(body, { status: answer.status, headers });
}

/** A sink's answer carries its body except to HEAD and with 204 or 304 (over HTTP as inside). */
export function sinkAnswersWithBody(method: string, status: number): boolean {
	return method !== 'HEAD' && status !== 204 && status !== 304;
}
