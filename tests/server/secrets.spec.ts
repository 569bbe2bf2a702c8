import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, profileDocument, serverWithAdmin } from '../helpers/fixtures';
import { Client, freePort, stopAllServers, type TestServer } from '../helpers/server';
import { startUpstream, type Upstream } from '../helpers/upstream';

/**
 * No secret in any message: a property test. A random secret is put in every position a
 * template allows (host, user info, path, query, inside %sha1(…)%, a header, JSON, XML, form and
 * text bodies) and the call is run down every path of the outbound module: answers (2xx, 4xx
 * with the secret in the message shown to the user, a redirect, a body over the size limit, the
 * app's own sink) and failures (headers, body and overall time-outs, a cancel, a refused
 * connection, a TLS failure, DNS and policy refusals). The upstream echoes the secret back in
 * every form it can come in (as sent, percent-decoded, form-decoded, JSON- and XML-escaped), in
 * the body, the headers and the status text. No form may appear in the answer, the history, the
 * audit log or the server's output.
 */

const MASK = '\u2022'.repeat(8);
const KEY = 'account[cloud_password]';

const ENV = {
	OUTBOUND_ALLOW: '127.0.0.1/32',
	OUTBOUND_PORTS: '1024-65535',
	OUTBOUND_CONNECT_TIMEOUT_MS: '1000',
	OUTBOUND_HEADERS_TIMEOUT_MS: '600',
	OUTBOUND_BODY_TIMEOUT_MS: '600',
	OUTBOUND_TOTAL_TIMEOUT_MS: '1800',
	OUTBOUND_MAX_BODY_BYTES: '65536',
	OUTBOUND_MAX_RAW_BYTES: '131072',
	OUTBOUND_MAX_IN_FLIGHT: '32'
};

interface Call {
	request: { url: string };
	response?: {
		status: number;
		truncated: boolean;
		redirect: { location: string } | null;
		via: string;
	};
	interpretation?: { shownToUser: string | null };
	error?: { code: string; message: string };
}

interface CallAnswer {
	id?: number;
	calls?: Call[];
	error?: { code: string; message: string };
}

let server: TestServer;
let admin: Client;
/** Answers by the first path segment (the mode), echoing {@link current}. */
let upstream: Upstream;
/** An HTTPS upstream whose certificate the server does not trust. */
let untrusted: Upstream;
let closedPort: number;
let sinkKey: string;
/** The secret of the run in progress. */
let current = '';

function xmlEscaped(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&apos;');
}

/**
 * The forms in which a secret may come back: as sent and decoded, escaped for JSON and XML, and
 * its SHA-1 (what `%sha1(…)%` sends in its place).
 */
function forms(secret: string): string[] {
	const percent = encodeURIComponent(secret);
	const strict = percent.replace(
		/[!'()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
	);
	return [
		...new Set([
			secret,
			percent,
			strict,
			percent.replace(/%20/g, '+'),
			new URLSearchParams([['', secret]]).toString().slice(1),
			JSON.stringify(secret).slice(1, -1),
			xmlEscaped(secret),
			createHash('sha1').update(secret).digest('hex')
		])
	];
}

/** A header or status text may carry only visible ASCII: the forms that can travel there. */
function headerForms(secret: string): string[] {
	return forms(secret).filter((f) => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(f));
}

/** What the upstream sends back: every form of the secret, and the request as it arrived. */
function echoBody(req: IncomingMessage | null, body: string): string {
	return JSON.stringify({
		message: `Wrong password ${current}`,
		forms: forms(current),
		xml: `<echo pw="${xmlEscaped(current)}">${xmlEscaped(current)}</echo>`,
		received: req ? { url: req.url, headers: req.headers, body } : null,
		decoded: req ? { url: safeDecode(req.url ?? ''), body: safeDecode(body) } : null
	});
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text.replace(/\+/g, ' '));
	} catch {
		return text;
	}
}

function echoHeaders(): Record<string, string> {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	headerForms(current).forEach((form, i) => (headers[`x-echo-${i}`] = form));
	return headers;
}

function answer(req: IncomingMessage, res: ServerResponse): void {
	const mode = (req.url ?? '/').split(/[/?]/)[1];
	// The upstream has read and recorded the body before it asks for the answer.
	const body = upstream.requests.at(-1)?.body ?? '';
	const reason = `Denied ${headerForms(current).join(' ')}`;
	switch (mode) {
		case 'ok':
			res.writeHead(200, reason, echoHeaders());
			res.end(echoBody(req, body));
			return;
		case 'fail':
			res.writeHead(400, reason, echoHeaders());
			res.end(echoBody(req, body));
			return;
		case 'redirect':
			res.writeHead(302, reason, {
				...echoHeaders(),
				location: `/next?pw=${encodeURIComponent(current)}&raw=${headerForms(current).join('&')}`
			});
			res.end(echoBody(req, body));
			return;
		case 'large':
			res.writeHead(200, reason, echoHeaders());
			res.end(echoBody(req, body) + 'x'.repeat(200_000) + echoBody(req, body));
			return;
		case 'stall':
			// Headers, a part of the body, then nothing: the body time-out.
			res.writeHead(200, reason, echoHeaders());
			res.write(echoBody(req, body));
			return;
		case 'dribble': {
			// A byte now and then, never the end: the overall time-out.
			res.writeHead(200, reason, echoHeaders());
			res.write(echoBody(req, body));
			const timer = setInterval(() => res.write(' '), 100);
			res.on('close', () => clearInterval(timer));
			return;
		}
		default:
			// `hang` and `cancel`: no answer at all.
			return;
	}
}

/** Where a secret can be put in a template (Media Reference Send has every kind of spot). */
interface Placement {
	name: string;
	settings(base: string): Record<string, string>;
	/**
	 * `yes`: the request reaches its target with this secret; `no`: it is stopped before (a
	 * refusal, a DNS failure); `either`: it depends on the target (no outcome is asserted).
	 */
	reaches(secret: string): 'yes' | 'no' | 'either';
}

const spot = `%${KEY}%`;
const always = () => 'yes' as const;
const never = () => 'no' as const;
const PLACEMENTS: Placement[] = [
	{
		name: 'host',
		settings: () => ({ genericMediaRefSendUrl: `http://${spot}.example.invalid:8080/x` }),
		reaches: never
	},
	{
		name: 'host, blocked port',
		settings: () => ({ genericMediaRefSendUrl: `http://${spot}.example.invalid:22/` }),
		reaches: never
	},
	{
		name: 'user info',
		settings: (base) => ({
			genericMediaRefSendUrl: base.replace('://', `://user:${spot}@`)
		}),
		reaches: never
	},
	{
		name: 'path',
		settings: (base) => ({ genericMediaRefSendUrl: `${base}/p/${spot}` }),
		reaches: always
	},
	{
		name: 'query',
		settings: (base) => ({ genericMediaRefSendUrl: `${base}?pw=${spot}&n=1` }),
		reaches: always
	},
	{
		name: 'sha1',
		settings: (base) => ({ genericMediaRefSendUrl: `${base}?h=%sha1(${spot})%` }),
		reaches: always
	},
	{
		name: 'header',
		settings: (base) => ({
			genericMediaRefSendUrl: base,
			genericMediaRefSendCustomHeaders: `X-Secret: ${spot}\nX-Other: 1`
		}),
		// Header values are bytes: a secret beyond Latin-1 cannot go over the network there.
		reaches: (secret) => (/^[\x20-\xff]*$/.test(secret) ? 'yes' : 'either')
	},
	{
		name: 'JSON body',
		settings: (base) => ({
			genericMediaRefSendUrl: base,
			genericMediaRefSendPostData: `{"pw":"${spot}"}`,
			genericMediaRefSendContentType: 'application/json'
		}),
		reaches: always
	},
	{
		name: 'XML body',
		settings: (base) => ({
			genericMediaRefSendUrl: base,
			genericMediaRefSendPostData: `<auth pw="${spot}"><pw>${spot}</pw></auth>`,
			genericMediaRefSendContentType: 'application/xml'
		}),
		reaches: always
	},
	{
		name: 'form body',
		settings: (base) => ({
			genericMediaRefSendUrl: base,
			genericMediaRefSendPostData: `user=a&pw=${spot}`,
			genericMediaRefSendContentType: 'application/x-www-form-urlencoded'
		}),
		reaches: always
	},
	{
		name: 'text body',
		settings: (base) => ({
			genericMediaRefSendUrl: base,
			genericMediaRefSendPostData: `password ${spot} end`,
			genericMediaRefSendContentType: 'text/plain'
		}),
		reaches: always
	}
];

/** The paths through the outbound module, and what a call that reaches its target ends with. */
interface Path {
	name: string;
	/** The URL a placement builds on; `id` is the call's own (the upstream sees it in the path). */
	base(id: string): string;
	expect(call: Call): void;
	cancel?: boolean;
}

const PATHS: Path[] = [
	{
		name: 'a 200 echoing the secret',
		base: () => `${upstream.url}/ok`,
		expect: (c) => expect(c.response?.status).toBe(200)
	},
	{
		name: 'a 400 whose message is shown to the user',
		base: () => `${upstream.url}/fail`,
		expect: (c) => {
			expect(c.response?.status).toBe(400);
			expect(c.interpretation?.shownToUser).toContain(`Wrong password ${MASK}`);
		}
	},
	{
		name: 'a redirect',
		base: () => `${upstream.url}/redirect`,
		expect: (c) => expect(c.response?.redirect?.location).toContain(`pw=${MASK}`)
	},
	{
		name: 'a body over the size limit',
		base: () => `${upstream.url}/large`,
		expect: (c) => expect(c.response?.truncated).toBe(true)
	},
	{
		name: 'the app’s own sink',
		base: () => `${server.url}/sink/${sinkKey}/auth`,
		expect: (c) => expect(c.response).toMatchObject({ status: 400, via: 'sink' })
	},
	{
		name: 'a headers time-out',
		base: () => `${upstream.url}/hang`,
		expect: (c) => expect(c.error?.code).toBe('headers_timeout')
	},
	{
		name: 'a body time-out',
		base: () => `${upstream.url}/stall`,
		expect: (c) => expect(c.error?.code).toBe('body_timeout')
	},
	{
		name: 'the overall time-out',
		base: () => `${upstream.url}/dribble`,
		expect: (c) => expect(c.error?.code).toBe('timeout')
	},
	{
		name: 'a cancel',
		base: (id) => `${upstream.url}/cancel/${id}`,
		expect: (c) => expect(c.error?.code).toBe('cancelled'),
		cancel: true
	},
	{
		name: 'a refused connection',
		base: () => `http://127.0.0.1:${closedPort}/x`,
		expect: (c) => expect(c.error?.code).toBe('connect_refused')
	},
	{
		name: 'a TLS failure',
		base: () => `${untrusted.url}/x`,
		expect: (c) => expect(c.error?.code).toBe('tls_failed')
	}
];

/** Codes of calls stopped before they reach anything (a secret in the host or user info). */
const STOPPED = ['invalid_url', 'dns_failed', 'dns_timeout', 'blocked_port', 'blocked_userinfo'];

/** Secrets: host-name-like ones (so a host holding one resolves or is refused by policy), and any. */
const secretArbitrary = fc
	.oneof(
		fc.string({
			unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-'),
			minLength: 8,
			maxLength: 16
		}),
		fc.string({
			unit: fc.constantFrom(
				...'abcXYZ0189 !"#$&\'()*+,-./:;<=>?@[\\]^_`{|}~%é€漢'.split('').concat(['🔑'])
			),
			minLength: 8,
			maxLength: 16
		})
	)
	.filter((s) => new Set(s).size >= 5 && (s.match(/[A-Za-z0-9]/g) ?? []).length >= 2);

/** Every string in a JSON value, and the text as received. */
function strings(value: unknown, into: string[] = []): string[] {
	if (typeof value === 'string') into.push(value);
	else if (Array.isArray(value)) for (const item of value) strings(item, into);
	else if (value !== null && typeof value === 'object') {
		for (const [key, item] of Object.entries(value)) {
			into.push(key);
			strings(item, into);
		}
	}
	return into;
}

function expectNoSecret(where: string, texts: string[], secret: string): void {
	const leaked = forms(secret).flatMap((form) =>
		texts.filter((text) => text.includes(form)).map((text) => ({ form, in: text.slice(0, 2000) }))
	);
	expect(leaked, `${where} holds the secret ${JSON.stringify(secret)}`).toEqual([]);
}

async function runOne(path: Path, placement: Placement, secret: string): Promise<void> {
	const callId = crypto.randomUUID();
	let settled = false;
	const pending = admin
		.json<CallAnswer>('/api/test-calls', {
			method: 'POST',
			json: {
				service: 'mediaRefSend',
				settings: placement.settings(path.base(callId)),
				values: { [KEY]: secret },
				callId
			}
		})
		.finally(() => (settled = true));
	const where = `${path.name}, secret in the ${placement.name}`;
	const reaches = placement.reaches(secret);
	if (path.cancel) {
		// Cancelled while the upstream holds the request, as a user cancels a hanging call.
		for (let i = 0; i < 200 && reaches !== 'no' && !settled; i++) {
			if (upstream.requests.some((r) => r.url.includes(callId))) break;
			await new Promise((r) => setTimeout(r, 10));
		}
		if (reaches === 'yes') {
			expect(
				upstream.requests.some((r) => r.url.includes(callId)),
				where
			).toBe(true);
		}
		for (let i = 0; i < 200 && !settled; i++) {
			const cancel = await admin.fetch(`/api/test-calls/running/${callId}`, { method: 'DELETE' });
			expectNoSecret('the cancel answer', [await cancel.text()], secret);
			if (cancel.status === 204) break;
			await new Promise((r) => setTimeout(r, 10));
		}
	}
	const answer = await pending;
	expect(answer.status, `${where}: ${answer.text}`).toBe(200);
	expectNoSecret(`The answer (${where})`, [answer.text, ...strings(answer.body)], secret);
	const call = answer.body.calls![0];
	if (reaches === 'yes') path.expect(call);
	if (reaches === 'no') {
		// A cancel may come before the name failed to resolve.
		const stopped = path.cancel ? [...STOPPED, 'cancelled'] : STOPPED;
		expect(stopped, `${where}: ${JSON.stringify(call.error)}`).toContain(call.error?.code);
	}

	const entry = await admin.json(`/api/test-calls/${answer.body.id}`);
	expect(entry.status).toBe(200);
	expectNoSecret(`The history entry (${where})`, [entry.text, ...strings(entry.body)], secret);
}

beforeAll(async () => {
	({ server, admin } = await serverWithAdmin(ENV));
	upstream = await startUpstream({ otherwise: answer });
	untrusted = await startUpstream({ tls: true });
	closedPort = await freePort();
	const sink = await admin.json<{ sink: { key: string } }>('/api/sinks', {
		method: 'POST',
		json: { name: 'Echo' }
	});
	sinkKey = sink.body.sink.key;
});

afterAll(async () => {
	await upstream.stop();
	await untrusted.stop();
	await stopAllServers();
});

describe('a secret in any spot of a template', () => {
	it.each(PATHS)(
		'never shows in a message, history, audit, sink record or log: $name',
		async (path) => {
			await fc.assert(
				fc.asyncProperty(secretArbitrary, async (secret) => {
					current = secret;
					await admin.json(`/api/sinks/${sinkKey}`, {
						method: 'PUT',
						json: {
							answer: { status: 400, contentType: 'application/json', body: echoBody(null, '') }
						}
					});
					const before = upstream.requests.length;
					await Promise.all(PLACEMENTS.map((placement) => runOne(path, placement, secret)));

					// The secret was really sent (so that masking, not a lost value, is what is tested).
					if (path.base('').startsWith(upstream.url)) {
						const received = JSON.stringify(upstream.requests.slice(before));
						expect(forms(secret).some((form) => received.includes(form))).toBe(true);
					}
					const history = await admin.json('/api/test-calls?service=mediaRefSend');
					expectNoSecret('The history list', [history.text, ...strings(history.body)], secret);
					// The sink's answer is set up with the secret in it; what it recorded must not hold it.
					const recorded = await admin.json<{ requests: unknown[] }>(`/api/sinks/${sinkKey}`);
					expect(recorded.status).toBe(200);
					const requests = JSON.stringify(recorded.body.requests);
					expectNoSecret('The sink’s recorded requests', [requests], secret);
					const audit = await admin.json('/api/audit?action=test_call&limit=1000');
					expect(audit.body.entries!.length).toBeGreaterThan(0);
					expectNoSecret('The audit log', [audit.text, ...strings(audit.body)], secret);
					expectNoSecret('The server output', [server.stdout(), server.stderr()], secret);
				}),
				{ numRuns: 3 }
			);
		}
	);
});

describe('a stored secret typed into a host', () => {
	it('is refused with the origin named by its mask, in the answer and the audit log', async () => {
		const stored = 'Stored-Host-Secret-1';
		const document = profileDocument({ [KEY]: stored });
		document.services.mediaRefSend = {
			genericMediaRefSendUrl: `http://${spot}.example.invalid:22/`
		};
		const id = await createProfile(admin, 'Secret in a host', document);
		const answer = await admin.json<CallAnswer>('/api/test-calls', {
			method: 'POST',
			json: { profileId: id, service: 'mediaRefSend', scenario: 'Text message' }
		});
		expect(answer.status).toBe(400);
		expect(answer.body.error).toMatchObject({ code: 'secret_origin' });
		expect(answer.body.error!.message).toContain(`http://${MASK}.example.invalid:22`);
		expectNoSecret('The refusal', [answer.text], stored);
		const audit = await admin.json('/api/audit?limit=1000');
		expectNoSecret('The audit log', [audit.text, ...strings(audit.body)], stored);
	});
});
