import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Interpretation } from '../../src/lib/core/response';
import { digestParams, digestProtected } from '../helpers/digest';
import { createProfile, profileDocument, serverWithAdmin } from '../helpers/fixtures';
import { stopAllServers, type Client } from '../helpers/server';
import { startUpstream, type Upstream } from '../helpers/upstream';

/**
 * Web Service Contacts test calls through the built server to real local upstreams: the
 * contacts JSON, a 304 to If-Modified-Since, HTTP Digest challenges the upstream checks for
 * real (MD5 and SHA-256), a wrong password, challenges the app cannot answer, and bad answers.
 */

const MASK = '\u2022'.repeat(8);
const PASSWORD = 'Digest-Pass-7f3a';
const LAST_MODIFIED = 'Wed, 21 Oct 2015 07:28:00 GMT';
const entry = (entryId: string, type: string, uri: string) => ({ entryId, type, uri });
const CONTACTS = JSON.stringify({
	contacts: [
		{
			contactId: 'c1',
			displayName: 'Alice Example',
			contactEntries: [
				entry('e1', 'tel', 'tel:+15551231234'),
				entry('e2', 'email', 'a@example.com')
			]
		},
		{
			contactId: 'c2',
			fname: 'Bob',
			contactEntries: [entry('e1', 'url', 'https://b.example.com/')]
		}
	]
});

let admin: Client;
let upstream: Upstream;
/** Where a challenge's `domain` points: it must never be called. */
let elsewhere: Upstream;

beforeAll(async () => {
	[upstream, elsewhere] = await Promise.all([startUpstream(), startUpstream()]);
	({ admin } = await serverWithAdmin({
		OUTBOUND_ALLOW: '127.0.0.1/32',
		OUTBOUND_PORTS: '1024-65535'
	}));
});

afterAll(async () => {
	await stopAllServers();
	await Promise.all([upstream.stop(), elsewhere.stop()]);
});

interface Call {
	request: { method: string; url: string; headers: Record<string, string>; curl: string };
	response?: {
		status: number;
		truncated: boolean;
		headers: { name: string; value: string }[];
		body: string;
	};
	interpretation?: Interpretation;
	error?: { code: string };
}

type Answer = Parameters<Upstream['answerNext']>[0];

const url = () => `${upstream.url}/contacts?user=alice`;

async function contacts(
	answers: Answer[],
	settings: Record<string, string> = {},
	values: Record<string, string> = {}
) {
	for (const answer of answers) upstream.answerNext(answer);
	const before = upstream.requests.length;
	const result = await admin.json<{ calls: Call[] }>('/api/test-calls', {
		method: 'POST',
		json: {
			service: 'webServiceContacts',
			settings: { wsContactsUrl: url(), ...settings },
			values
		}
	});
	expect(result.status).toBe(200);
	return { calls: result.body.calls, text: result.text, received: upstream.requests.slice(before) };
}

const json = (body: string, headers: Record<string, string> = {}): Answer => ({
	status: 200,
	headers: { 'content-type': 'application/json', ...headers },
	body
});

/** A Digest server's two answers: the challenge, then the check of the app's answer. */
function digestServer(algorithm: 'MD5' | 'SHA-256', password = PASSWORD): Answer[] {
	const answer = digestProtected({
		algorithm,
		username: 'alice',
		password,
		status: 200,
		headers: { 'content-type': 'application/json', 'last-modified': LAST_MODIFIED },
		body: CONTACTS,
		domain: `${elsewhere.url}/`
	});
	return [answer, answer];
}

const AUTH = { wsContactsAuthUsername: 'alice', wsContactsAuthPassword: PASSWORD };

describe('Web Service Contacts test calls', () => {
	it('reads the contacts JSON: the contacts and entries the app shows, and Last-Modified', async () => {
		const { calls, received } = await contacts([
			json(CONTACTS, { 'last-modified': LAST_MODIFIED })
		]);
		expect(received).toEqual([
			expect.objectContaining({ method: 'GET', url: '/contacts?user=alice' })
		]);
		expect(received[0].headers['if-modified-since']).toBeUndefined();
		expect(calls).toHaveLength(1);
		expect(calls[0].interpretation).toMatchObject({
			success: true,
			action: {
				kind: 'contacts',
				result: { outcome: 'replaced', contacts: 2, entries: 3, lastModified: LAST_MODIFIED }
			},
			summary: 'The app replaces its web service contacts with the answer’s 2 contacts (3 entries).'
		});
		expect(calls[0].interpretation!.issues.map((i) => i.message)).toContain(
			`The next refresh asks If-Modified-Since: ${LAST_MODIFIED}; answer 304 Not Modified when nothing changed since.`
		);
	});

	it('sends If-Modified-Since from the last Last-Modified, and reads 304 as nothing changed', async () => {
		const notModified: Answer = (req, res) => {
			res.writeHead(req.headers['if-modified-since'] === LAST_MODIFIED ? 304 : 200);
			res.end();
		};
		const { calls, received } = await contacts([notModified], {}, { lastModified: LAST_MODIFIED });
		expect(received[0].headers['if-modified-since']).toBe(LAST_MODIFIED);
		expect(calls[0].request.headers['If-Modified-Since']).toBe(LAST_MODIFIED);
		expect(calls[0].response?.status).toBe(304);
		expect(calls[0].interpretation).toMatchObject({
			success: true,
			action: { kind: 'contacts', result: { outcome: 'unchanged' } },
			summary: 'Not Modified: the app keeps the contacts it has, unchanged.'
		});
	});

	it.each(['MD5', 'SHA-256'] as const)(
		'answers a %s Digest challenge once, to the same URL, with the hash masked',
		async (algorithm) => {
			const { calls, received, text } = await contacts(digestServer(algorithm), AUTH);
			expect(received.map((r) => r.url)).toEqual(['/contacts?user=alice', '/contacts?user=alice']);
			expect(received[0].headers.authorization).toBeUndefined();
			const sent = digestParams(received[1].headers.authorization);
			expect(sent).toMatchObject({ username: 'alice', algorithm, qop: 'auth', nc: '00000001' });
			expect(calls.map((c) => c.response?.status)).toEqual([401, 200]);
			expect(calls[0].interpretation!.issues).toContainEqual(
				expect.objectContaining({ code: 'digest_answered', severity: 'info' })
			);
			expect(calls[1].interpretation).toMatchObject({
				success: true,
				action: { kind: 'contacts', result: { outcome: 'replaced', contacts: 2 } }
			});
			// The shown header keeps what helps (user, realm, algorithm) and masks the hash.
			const shown = calls[1].request.headers.Authorization;
			expect(shown).toMatch(new RegExp(`^Digest username="alice", realm="contacts@example.com"`));
			expect(shown).toContain(`response="${MASK}"`);
			expect(text).not.toContain(sent.response);
			expect(text).not.toContain(PASSWORD);
			// The challenge's domain names another server: it is never called.
			expect(elsewhere.connections()).toBe(0);
		}
	);

	it('gives the verdict on a wrong password after one answer, never a third request', async () => {
		const { calls, received, text } = await contacts(digestServer('MD5', 'another-password'), AUTH);
		expect(received).toHaveLength(2);
		expect(calls.map((c) => c.response?.status)).toEqual([401, 401]);
		expect(calls[1].interpretation).toMatchObject({
			success: false,
			summary: expect.stringMatching(
				/^The Digest answer was refused with a second 401: check wsContactsAuthUsername and wsContactsAuthPassword\./
			)
		});
		expect(text).not.toContain(PASSWORD);
	});

	it.each([
		[
			'an unknown algorithm',
			'Digest realm="r", nonce="n1", algorithm=SHA-512-256',
			'digest_algorithm_unsupported'
		],
		['auth-int only', 'Digest realm="r", nonce="n1", qop="auth-int"', 'digest_qop_unsupported'],
		['no nonce', 'Digest realm="r", qop="auth"', 'digest_no_nonce'],
		['Basic only', 'Basic realm="r"', 'digest_no_challenge']
	])(
		'says why a challenge with %s cannot be answered, and sends nothing more',
		async (_, challenge, code) => {
			const { calls, received } = await contacts(
				[{ status: 401, headers: { 'www-authenticate': challenge } }],
				AUTH
			);
			expect(received).toHaveLength(1);
			expect(calls).toHaveLength(1);
			expect(calls[0].interpretation).toMatchObject({
				success: false,
				summary: expect.stringMatching(/^The app cannot answer the 401's challenge: /)
			});
			expect(calls[0].interpretation!.issues).toContainEqual(
				expect.objectContaining({ code, severity: 'error' })
			);
		}
	);

	it('does not answer a challenge when no user name is set', async () => {
		const { calls, received } = await contacts([digestServer('MD5')[0]]);
		expect(received).toHaveLength(1);
		expect(calls[0].interpretation!.summary).toMatch(/^HTTP 401 is not a success/);
	});

	it.each([
		[
			'an HTML page',
			{
				status: 200,
				headers: { 'content-type': 'text/html' },
				body: '<!doctype html><title>Sign in</title>'
			},
			'answer_html',
			/HTML page/
		],
		[
			'JSON that does not parse',
			json('{"contacts": [\n  {"contactId": "c1",}\n]}'),
			'answer_invalid_json',
			/line 2, column/
		],
		[
			'an entry of an unknown type',
			json(
				'{"contacts": [{"contactId": "c1", "displayName": "A", "contactEntries": [{"entryId": "e", "type": "fax", "uri": "+1"}]}]}'
			),
			'entry_type_unknown',
			/\$\.contacts\[0\]\.contactEntries\[0\]\.type/
		]
	])('names what is wrong with %s, and where', async (_, answer, code, where) => {
		const { calls } = await contacts([answer]);
		const issue = calls[0].interpretation!.issues.find((i) => i.code === code);
		expect(issue?.severity).toBe('error');
		expect(issue?.message).toMatch(where);
	});

	it('reads a megabyte of contacts with a bounded list of issues', async () => {
		const many = Array.from({ length: 8_000 }, (_, i) => ({
			contactId: i % 2 ? `c${i}` : 'same',
			displayName: `Contact ${i}`,
			contactEntries: [{ entryId: 'e1', type: 'tel', uri: `+1555${i}` }]
		}));
		const body = JSON.stringify({ contacts: many });
		expect(body.length).toBeGreaterThan(500_000);
		expect(body.length).toBeLessThan(1024 * 1024);
		const { calls } = await contacts([json(body)]);
		expect(calls[0].interpretation!.action).toMatchObject({
			kind: 'contacts',
			result: { contacts: 8_000, entries: 8_000 }
		});
		expect(calls[0].interpretation!.issues.length).toBeLessThanOrEqual(25);
	});

	it('cuts an answer over the size limit and says the cut list cannot be read', async () => {
		const body = JSON.stringify({
			contacts: [{ contactId: 'c1', displayName: 'x'.repeat(1_200_000) }]
		});
		const { calls } = await contacts([json(body)]);
		expect(calls[0].response?.truncated).toBe(true);
		expect(calls[0].interpretation).toMatchObject({
			success: false,
			action: { kind: 'contacts', result: { outcome: 'kept' } }
		});
		expect(calls[0].interpretation!.issues).toContainEqual(
			expect.objectContaining({ code: 'answer_invalid_json', severity: 'error' })
		);
	});
});

describe('a stored Digest password', () => {
	const saved = () => {
		const document = profileDocument();
		document.services.webServiceContacts = { wsContactsUrl: url(), ...AUTH };
		return document;
	};

	it('is shown as the mask and left out of the XML export', async () => {
		const id = await createProfile(admin, 'Contacts with Digest', saved());
		const shown = await admin.json<{ profile: { document: ReturnType<typeof saved> } }>(
			`/api/profiles/${id}`
		);
		expect(shown.body.profile.document.services.webServiceContacts).toMatchObject({
			wsContactsAuthUsername: 'alice',
			wsContactsAuthPassword: MASK
		});
		expect(shown.text).not.toContain(PASSWORD);
		const exported = await admin.fetch(`/api/profiles/${id}/export.xml`);
		const xml = await exported.text();
		expect(xml).toContain('<wsContactsAuthUsername>alice</wsContactsAuthUsername>');
		expect(xml).not.toContain('wsContactsAuthPassword');
	});

	it('answers the challenge from the saved profile, and never for a URL changed since', async () => {
		const id = await createProfile(admin, 'Contacts tried from the profile', saved());
		for (const answer of digestServer('SHA-256')) upstream.answerNext(answer);
		const fromProfile = await admin.json<{ calls: Call[] }>('/api/test-calls', {
			method: 'POST',
			json: { profileId: id, service: 'webServiceContacts', scenario: 'Text message' }
		});
		expect(fromProfile.body.calls.map((c) => c.response?.status)).toEqual([401, 200]);
		const moved = await admin.json<{ error: { code: string } }>('/api/test-calls', {
			method: 'POST',
			json: {
				service: 'webServiceContacts',
				settings: {
					wsContactsUrl: `${elsewhere.url}/contacts`,
					wsContactsAuthUsername: 'alice',
					wsContactsAuthPassword: MASK
				},
				values: {},
				secretsFrom: { profileId: id }
			}
		});
		expect(moved.status).toBe(400);
		expect(moved.body.error.code).toBe('secret_origin');
		expect(elsewhere.connections()).toBe(0);
	});
});
