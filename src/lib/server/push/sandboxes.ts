import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { z } from 'zod';
import {
	gatewayRespond,
	PUSH_ATTRIBUTE_NAMES,
	PushTargetSchema,
	type GatewayTraceEntry,
	type PushEndpoint,
	type PushIssue,
	type PushRequest,
	type PushTarget,
	type TokenLookup
} from '$lib/core/push';
import { recordAudit, type Actor } from '../audit';
import { announce, onAnnounce, sharedLimiter } from '../platform/cluster';
import type { ServerContext } from '../platform/context';
import { bodyText } from '../sinks';
import type { SandboxPushRow, SandboxRow } from '../store/types';
import { metrics } from '../platform/metrics.js';

/**
 * Push sandboxes: push gateways inside the app that a provider's own server calls at
 * `<origin>/sandbox/<key>/pnm2/send` and `/pnm2/multisend`. The secret key in the address is the
 * credential. Each sandbox answers as the contract's Errors table says (the core's
 * `gatewayRespond`), simulates an upstream push service its users configure, and records every
 * request it answered so the device view can show it.
 */

/** Pushes (answered requests) kept per sandbox; older ones are dropped. */
export const SANDBOX_KEEP = 500;

/** The largest request body a sandbox reads (1 MiB: a 1,000-element multisend fits easily). */
export const SANDBOX_BODY_LIMIT = 1024 * 1024;

/** Bytes of a request body, and of the answer, that a record keeps. */
export const SANDBOX_RECORD_BYTES = 64 * 1024;

/** Elements of a multisend whose answer and push a record details (the rest are counted). */
export const SANDBOX_RECORD_ELEMENTS = 100;

/** Requests per second a new sandbox accepts before it answers 429. */
export const DEFAULT_RATE_LIMIT = 20_000;

/** Keys are 192 random bits, base64url. */
export const SANDBOX_KEY = /^[A-Za-z0-9_-]{32}$/;

const appId = z.string().trim().min(1).max(200);
const deviceToken = z.string().trim().min(1).max(4096);

/** The simulated upstream push service of a sandbox, every field optional (`PATCH`). */
const SettingsFields = {
	appIds: z.array(appId).max(200).meta({
		description:
			'Application ids registered at the push service; an `AppId` not listed is status 404. Empty: every id is registered.'
	}),
	unregisteredTokens: z.array(deviceToken).max(2000).meta({
		description: 'Device tokens no longer registered: status 404, "stop sending to this token".'
	}),
	upstreamError: z
		.boolean()
		.meta({ description: 'The upstream service answers an error: status 500 in an HTTP 200.' }),
	gatewayFault: z.boolean().meta({
		description: 'A fault inside the gateway: HTTP 500 for every request that reaches upstream.'
	}),
	platforms: z
		.record(deviceToken, PushTargetSchema)
		.refine((value) => Object.keys(value).length <= 2000, 'At most 2000 device tokens.')
		.meta({
			description:
				'`{ "<DeviceToken>": platform }`: the platform of each device; the Badge rule and the device view follow it.'
		}),
	defaultPlatform: PushTargetSchema.meta({
		description: 'The platform of a device token not listed in `platforms`.'
	}),
	rateLimit: z.number().int().min(1).max(1_000_000).meta({
		description:
			'Requests per second, counted over every instance, above which the sandbox answers 429 with Retry-After (20,000 for a new sandbox).'
	})
};

/** The simulated upstream push service of a sandbox. */
export const SandboxSettingsSchema = z.strictObject(SettingsFields);
export type SandboxSettings = z.infer<typeof SandboxSettingsSchema>;

/** The settings of a new sandbox: everything accepted, platform unknown. */
export const DEFAULT_SETTINGS: SandboxSettings = {
	appIds: [],
	unregisteredTokens: [],
	upstreamError: false,
	gatewayFault: false,
	platforms: {},
	defaultPlatform: 'unknown',
	rateLimit: DEFAULT_RATE_LIMIT
};

const name = z.string().trim().min(1).max(100);

/** `POST /api/sandboxes` */
export const CreateSandboxSchema = z.strictObject({
	name,
	...z.object(SettingsFields).partial().shape
});

/** `PATCH /api/sandboxes/<id>`: a new name and any of the settings. */
export const UpdateSandboxSchema = z
	.strictObject({ name: name.optional(), ...z.object(SettingsFields).partial().shape })
	.refine((v) => Object.keys(v).length > 0, { message: 'Send a name or a setting to change.' });

/** `GET /api/sandboxes/<id>/pushes?after=<id>`: only the pushes after that one. */
export const SandboxPushesQuerySchema = z.object({
	after: z.coerce
		.number({ error: 'a push id (a whole number, 0 or more).' })
		.int({ error: 'a push id (a whole number, 0 or more).' })
		.min(0, { error: 'a push id (a whole number, 0 or more).' })
		.max(Number.MAX_SAFE_INTEGER, { error: 'a push id (a whole number, 0 or more).' })
		.default(0)
		.meta({ description: 'A push id: only the pushes recorded after it.' })
});

/** A sandbox as the API shows it. */
export interface SandboxView {
	id: string;
	name: string;
	/** `<origin>/sandbox/<key>`: the provider's `{push_url}`. */
	pushUrl: string;
	ownerId: number | null;
	createdAt: number;
	updatedAt: number;
	settings: SandboxSettings;
}

/** An accepted push as recorded: its place in the request, the object, the device's platform. */
export interface RecordedPush {
	index: number;
	request: PushRequest;
	target: PushTarget;
	issues: PushIssue[];
}

/** One request a sandbox answered, as recorded. */
export interface SandboxPushRecord {
	endpoint: PushEndpoint;
	method: string;
	contentType: string | null;
	/** The body as received (text, or base64 when it is not UTF-8), at most 64 KiB. */
	body: string;
	bodyEncoding: 'text' | 'base64';
	/** Bytes received. */
	size: number;
	truncated: boolean;
	httpStatus: number;
	/** The JSON answer as sent, at most 64 KiB. */
	response: string;
	responseTruncated: boolean;
	/** The Errors-table row of the request (`index` null) or of each element, in order. */
	trace: GatewayTraceEntry[];
	/** The pushes accepted upstream. */
	pushes: RecordedPush[];
	/** Elements answered (a multisend's list length; 1 for a single push; 0 when refused whole). */
	elements: number;
	/** Elements beyond the first 100 have their status in `response` only. */
	elementsOmitted: number;
	ip: string | null;
}

/** A recorded request with its id and time. */
export interface SandboxPushView extends SandboxPushRecord {
	id: number;
	at: number;
}

const events = new EventEmitter();
events.setMaxListeners(0);

interface Cached {
	row: SandboxRow;
	settings: SandboxSettings;
}

/** Sandboxes by key hash, so a busy sandbox does not parse its settings on every request. */
const byHash = new Map<string, Cached>();

function hashKey(key: string): string {
	return createHash('sha256').update(key).digest('hex');
}

function newKey(): string {
	return randomBytes(24).toString('base64url');
}

function settingsOf(row: SandboxRow): SandboxSettings {
	return {
		...DEFAULT_SETTINGS,
		...SandboxSettingsSchema.partial().parse(JSON.parse(row.settings))
	};
}

function view(row: SandboxRow, origin: string): SandboxView {
	return {
		id: row.id,
		name: row.name,
		pushUrl: `${origin}/sandbox/${row.key}`,
		ownerId: row.ownerId,
		createdAt: row.createdAt,
		updatedAt: row.updatedAt,
		settings: settingsOf(row)
	};
}

function pushView(row: SandboxPushRow): SandboxPushView {
	return { id: row.id, at: row.at, ...(JSON.parse(row.record) as SandboxPushRecord) };
}

/** Creates a sandbox with a new secret key. */
export async function createSandbox(
	ctx: ServerContext,
	actor: Actor,
	input: z.infer<typeof CreateSandboxSchema>,
	origin: string
): Promise<SandboxView> {
	const { name: sandboxName, ...settings } = input;
	const key = newKey();
	const now = Date.now();
	const row = await ctx.store.sandboxes.create({
		id: randomBytes(9).toString('base64url'),
		key,
		keyHash: hashKey(key),
		name: sandboxName,
		ownerId: actor.id,
		createdAt: now,
		updatedAt: now,
		settings: JSON.stringify({ ...DEFAULT_SETTINGS, ...settings })
	});
	await recordAudit(ctx.store, actor, 'sandbox.created', row.id, { name: row.name });
	return view(row, origin);
}

/** Every sandbox, newest first. */
export async function listSandboxes(ctx: ServerContext, origin: string): Promise<SandboxView[]> {
	return (await ctx.store.sandboxes.list()).map((row) => view(row, origin));
}

/** One sandbox, or undefined. */
export async function getSandbox(
	ctx: ServerContext,
	id: string,
	origin: string
): Promise<SandboxView | undefined> {
	const row = await ctx.store.sandboxes.get(id);
	return row ? view(row, origin) : undefined;
}

/** Renames a sandbox or changes its settings; undefined when there is no such sandbox. */
export async function updateSandbox(
	ctx: ServerContext,
	id: string,
	changes: z.infer<typeof UpdateSandboxSchema>,
	origin: string
): Promise<SandboxView | undefined> {
	const row = await ctx.store.sandboxes.get(id);
	if (!row) return undefined;
	const { name: newName, ...settings } = changes;
	const merged = { ...settingsOf(row), ...settings };
	await ctx.store.sandboxes.update(
		id,
		{ name: newName, settings: JSON.stringify(merged) },
		Date.now()
	);
	byHash.delete(row.keyHash);
	return getSandbox(ctx, id, origin);
}

/** Gives a sandbox a new key: the old address answers 404 from then on. */
export async function rotateSandboxKey(
	ctx: ServerContext,
	actor: Actor,
	id: string,
	origin: string
): Promise<SandboxView | undefined> {
	const row = await ctx.store.sandboxes.get(id);
	if (!row) return undefined;
	const key = newKey();
	await ctx.store.sandboxes.update(id, { key, keyHash: hashKey(key) }, Date.now());
	byHash.delete(row.keyHash);
	await recordAudit(ctx.store, actor, 'sandbox.rotated', id, { name: row.name });
	return getSandbox(ctx, id, origin);
}

/** Deletes a sandbox and the pushes it recorded. */
export async function deleteSandbox(
	ctx: ServerContext,
	actor: Actor,
	id: string
): Promise<boolean> {
	const row = await ctx.store.sandboxes.get(id);
	if (!row || !(await ctx.store.sandboxes.delete(id))) return false;
	byHash.delete(row.keyHash);
	await recordAudit(ctx.store, actor, 'sandbox.deleted', id, { name: row.name });
	return true;
}

/** The pushes a sandbox recorded after `afterId`, newest first. */
export async function sandboxPushes(
	ctx: ServerContext,
	id: string,
	afterId = 0
): Promise<SandboxPushView[]> {
	return (await ctx.store.sandboxes.pushes(id, afterId, SANDBOX_KEEP)).map(pushView);
}

/** Calls `listener` with each push sandbox `id` records from now on; returns the unsubscribe. */
export function watchSandbox(id: string, listener: (push: SandboxPushView) => void): () => void {
	events.on(id, listener);
	return () => events.off(id, listener);
}

/**
 * Calls `poke` when another instance of the app (on PostgreSQL) may have recorded pushes of
 * sandbox `id`; returns the unsubscribe, or undefined when there is one instance.
 */
export function sandboxChanges(id: string, poke: () => void): (() => void) | undefined {
	return onAnnounce(`sandbox:${id}`, poke);
}

/**
 * The sandbox whose key this is, or undefined. The key is looked up by its SHA-256 and then
 * compared in constant time, so neither step tells an attacker how much of a guess was right.
 */
async function sandboxByKey(ctx: ServerContext, key: string): Promise<Cached | undefined> {
	if (!SANDBOX_KEY.test(key)) return undefined;
	const keyHash = hashKey(key);
	let found = byHash.get(keyHash);
	if (!found) {
		const row = await ctx.store.sandboxes.byKeyHash(keyHash);
		if (!row) return undefined;
		found = { row, settings: settingsOf(row) };
		if (byHash.size > 1000) byHash.clear();
		byHash.set(keyHash, found);
	}
	const a = Buffer.from(found.row.key);
	const b = Buffer.from(key);
	return a.length === b.length && timingSafeEqual(a, b) ? found : undefined;
}

/** One limiter per rate, shared by the instances of the app on PostgreSQL. */
const limiters = new Map<number, RateLimiterAbstract>();

/** Seconds to wait when the sandbox is over its rate limit, else 0 (and the request counts). */
async function overRateLimit(id: string, perSecond: number): Promise<number> {
	let limiter = limiters.get(perSecond);
	if (!limiter) {
		limiter = sharedLimiter({
			keyPrefix: `sandbox_${perSecond}`,
			points: perSecond,
			duration: 1
		});
		limiters.set(perSecond, limiter);
	}
	try {
		await limiter.consume(id);
		return 0;
	} catch (error) {
		if (error instanceof RateLimiterRes) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
		throw error;
	}
}

/** What the simulated upstream says about an application id and token. */
function upstream(settings: SandboxSettings): (appId: string, token: string) => TokenLookup {
	const apps = new Set(settings.appIds);
	const unregistered = new Set(settings.unregisteredTokens);
	return (app, token) => {
		if (settings.gatewayFault) throw new Error('simulated gateway fault');
		if (apps.size > 0 && !apps.has(app)) return 'unknown-app';
		if (unregistered.has(token)) return 'unregistered';
		if (settings.upstreamError) return 'upstream-error';
		return 'ok';
	};
}

function targetFor(settings: SandboxSettings): (token: string) => PushTarget {
	return (token) =>
		Object.hasOwn(settings.platforms, token) ? settings.platforms[token] : settings.defaultPlatform;
}

/** A request arriving at a sandbox address. */
export interface IncomingPush {
	key: string;
	/** The path after `/sandbox/<key>`: `/pnm2/send`, `/pnm2/multisend` or anything else. */
	path: string;
	method: string;
	contentType: string | null;
	contentLength: string | null;
	/** The body: a web stream, or a reader that gives at most `limit` bytes (else undefined). */
	body: ReadableStream<Uint8Array> | BodyReader | null;
	ip: string | null;
}

/** Reads a whole body of at most `limit` bytes; undefined when it is longer. */
export type BodyReader = (limit: number) => Promise<Uint8Array | undefined>;

/** A sandbox's answer: always JSON, never cached. */
export interface GatewayAnswer {
	status: number;
	headers: Record<string, string>;
	body: string;
}

function gatewayJson(status: number, response: string, headers: Record<string, string> = {}) {
	return jsonAnswer(status, JSON.stringify({ status, response }), headers);
}

function jsonAnswer(status: number, body: string, headers: Record<string, string> = {}) {
	return {
		status,
		headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
		body
	};
}

const ENDPOINTS: Record<string, PushEndpoint> = {
	'/pnm2/send': 'send',
	'/pnm2/multisend': 'multisend'
};

/** Reads at most `limit` bytes; undefined when the body is longer. */
async function readLimited(
	body: ReadableStream<Uint8Array> | BodyReader | null,
	limit: number
): Promise<Uint8Array | undefined> {
	if (!body) return new Uint8Array(0);
	if (typeof body === 'function') return body(limit);
	const chunks: Uint8Array[] = [];
	let size = 0;
	const reader = body.getReader();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > limit) {
			await reader.cancel().catch(() => {});
			return undefined;
		}
		chunks.push(value);
	}
	return Buffer.concat(chunks);
}

function cut(text: string): { text: string; truncated: boolean } {
	if (Buffer.byteLength(text) <= SANDBOX_RECORD_BYTES) return { text, truncated: false };
	return { text: Buffer.from(text).subarray(0, SANDBOX_RECORD_BYTES).toString(), truncated: true };
}

interface Pending {
	sandboxId: string;
	at: number;
	record: SandboxPushRecord;
}

/**
 * The record as JSON. An accepted push keeps attributes the contract does not name, and one of
 * them may nest too deep to write (JSON.parse reads any depth, JSON.stringify recurses): then
 * the record keeps only the attributes the contract names (the body as received still has all).
 */
function recordText(pending: Pending): string {
	try {
		return JSON.stringify(pending.record);
	} catch {
		const named = (request: PushRequest) =>
			Object.fromEntries(
				Object.entries(request).filter(
					([name]) => name === 'verb' || PUSH_ATTRIBUTE_NAMES.includes(name)
				)
			) as PushRequest;
		pending.record = {
			...pending.record,
			pushes: pending.record.pushes.map((p) => ({ ...p, request: named(p.request) }))
		};
		return JSON.stringify(pending.record);
	}
}

let pending: Pending[] = [];
let flushing: Promise<void> | null = null;

/**
 * Records a push before its answer is sent. Pushes that arrive in the same turn of the event
 * loop are written in one transaction (under load, one per turn instead of one per request),
 * then announced to the sandbox's watchers.
 */
function recordPush(ctx: ServerContext, sandboxId: string, record: SandboxPushRecord) {
	pending.push({ sandboxId, at: Date.now(), record });
	flushing ??= new Promise<void>((resolve, reject) => {
		setImmediate(() => {
			const batch = pending;
			pending = [];
			flushing = null;
			let rows;
			try {
				rows = batch.map((p) => ({ ...p, record: recordText(p) }));
			} catch (error) {
				reject(error as Error);
				return;
			}
			ctx.store.sandboxes.addPushes(rows, SANDBOX_KEEP).then((ids) => {
				batch.forEach((p, i) => {
					const id = ids[i];
					if (id !== null && events.listenerCount(p.sandboxId) > 0) {
						events.emit(p.sandboxId, { id, at: p.at, ...p.record });
					}
				});
				for (const sandboxId of new Set(batch.map((p) => p.sandboxId))) {
					announce(`sandbox:${sandboxId}`);
				}
				resolve();
			}, reject);
		});
	});
	return flushing;
}

/**
 * Answers a request to a sandbox address. A wrong key or an unknown path is 404 and nothing is
 * recorded; over the rate limit is 429 with Retry-After, over the body limit 413 (neither is
 * recorded: the gateway never saw them). Everything else is answered by the core gateway,
 * recorded, and announced to the sandbox's watchers.
 */
export async function answerPush(
	ctx: ServerContext,
	incoming: IncomingPush
): Promise<GatewayAnswer> {
	const pushes = metrics().sandboxPushes;
	const sandbox = await sandboxByKey(ctx, incoming.key);
	const endpoint = Object.hasOwn(ENDPOINTS, incoming.path) ? ENDPOINTS[incoming.path] : undefined;
	if (!sandbox) {
		pushes.inc({ verdict: 'no_such_sandbox' });
		return gatewayJson(404, 'No such push gateway: check the key in the address.');
	}
	if (!endpoint) {
		pushes.inc({ verdict: 'no_such_endpoint' });
		return gatewayJson(404, 'No such endpoint: send to /pnm2/send or /pnm2/multisend.');
	}
	const { row, settings } = sandbox;
	const wait = await overRateLimit(row.id, settings.rateLimit);
	if (wait > 0) {
		pushes.inc({ verdict: 'rate_limited' });
		return gatewayJson(
			429,
			`Too many requests: this sandbox accepts ${settings.rateLimit} per second. Try again in ${wait} s.`,
			{ 'retry-after': String(wait) }
		);
	}
	const tooLarge = () => {
		pushes.inc({ verdict: 'too_large' });
		return gatewayJson(
			413,
			`The body is larger than the sandbox's limit of ${SANDBOX_BODY_LIMIT} bytes.`,
			{
				connection: 'close'
			}
		);
	};
	if (Number(incoming.contentLength ?? 0) > SANDBOX_BODY_LIMIT) return tooLarge();
	const bytes = await readLimited(incoming.body, SANDBOX_BODY_LIMIT);
	if (!bytes) return tooLarge();
	const text = new TextDecoder().decode(bytes);
	const reply = gatewayRespond(
		{ endpoint, method: incoming.method, contentType: incoming.contentType, body: text },
		{ lookupToken: upstream(settings), targetFor: targetFor(settings) }
	);
	const answer = JSON.stringify(reply.body);
	const recordedBody = bodyText(
		bytes.subarray(0, SANDBOX_RECORD_BYTES),
		bytes.length > SANDBOX_RECORD_BYTES
	);
	const response = cut(answer);
	const platform = targetFor(settings);
	const elements = reply.trace.filter((t) => t.index !== null).length;
	const record: SandboxPushRecord = {
		endpoint,
		method: incoming.method,
		contentType: incoming.contentType,
		body: recordedBody.text,
		bodyEncoding: recordedBody.encoding,
		size: bytes.length,
		truncated: bytes.length > SANDBOX_RECORD_BYTES,
		httpStatus: reply.httpStatus,
		response: response.text,
		responseTruncated: response.truncated,
		trace: reply.trace.slice(0, SANDBOX_RECORD_ELEMENTS),
		pushes: reply.pushes
			.filter((p) => p.index < SANDBOX_RECORD_ELEMENTS)
			.map((p) => ({ ...p, target: platform(p.request.DeviceToken) })),
		elements,
		elementsOmitted: Math.max(0, elements - SANDBOX_RECORD_ELEMENTS),
		ip: incoming.ip
	};
	await recordPush(ctx, row.id, record);
	// By the contract's row that decided each answer (one per element of a multisend).
	for (const entry of reply.trace) pushes.inc({ verdict: entry.outcome });
	return jsonAnswer(reply.httpStatus, answer);
}

/** `answerPush` as a web `Response`. */
export async function receivePush(ctx: ServerContext, incoming: IncomingPush): Promise<Response> {
	const answer = await answerPush(ctx, incoming);
	return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/**
 * Sends a request to sandbox `id` inside the app, as if it had arrived at its address: answered,
 * recorded and announced like any other. Undefined when there is no such sandbox.
 */
export async function sendToSandbox(
	ctx: ServerContext,
	id: string,
	request: { path: string; method: string; contentType: string | null; body: string },
	ip: string | null
): Promise<{ response: Response; settings: SandboxSettings } | undefined> {
	const row = await ctx.store.sandboxes.get(id);
	if (!row) return undefined;
	const bytes = new TextEncoder().encode(request.body);
	const response = await receivePush(ctx, {
		key: row.key,
		path: request.path,
		method: request.method,
		contentType: request.contentType,
		contentLength: String(bytes.length),
		body: new Blob([bytes]).stream(),
		ip
	});
	return { response, settings: settingsOf(row) };
}

/** A sandbox's platform of a device token, as its device view shows it. */
export function sandboxPlatform(settings: SandboxSettings, deviceToken: string): PushTarget {
	return targetFor(settings)(deviceToken);
}
