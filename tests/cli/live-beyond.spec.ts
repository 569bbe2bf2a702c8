import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyOf, SERVICES } from '../../src/lib/core/catalogue/services';
import type { ProfileDocument } from '../../src/lib/core/profile';
import { digestProtected } from '../helpers/digest';
import { servicesDocument } from '../helpers/fixtures';
import { startUpstream, type Upstream } from '../helpers/upstream';
import { ensureBuilt, run, tempDir } from './helpers';

/**
 * `check --live` and snapshots of the services beyond the contract, against a real local server
 * on port 0: one request per configured service, judged as its test call judges the answer.
 */

let upstream: Upstream;
let work: { dir: string; remove: () => void };
const ENV = {
	OUTBOUND_ALLOW: '127.0.0.1',
	OUTBOUND_PORTS: '*',
	OUTBOUND_HEADERS_TIMEOUT_MS: '1000',
	OUTBOUND_TOTAL_TIMEOUT_MS: '4000'
};

/** Every template service beyond the contract, whoever added it. */
const BEYOND = SERVICES.filter((s) => s.source && s.kind === 'template');

beforeAll(async () => {
	[upstream] = await Promise.all([startUpstream(), ensureBuilt()]);
	work = tempDir();
});

afterAll(async () => {
	await upstream.stop();
	work.remove();
});

/**
 * A backup whose services (by id) each have a URL at the upstream, `/<id>`: a backup, not an
 * account XML, since some services' keys (initial provisioning's) are typed into the portal.
 */
function profile(name: string, ids: string[], more: Record<string, Record<string, string>> = {}) {
	const file = path.join(work.dir, `${name}.json`);
	const services = Object.fromEntries(
		ids.map((id) => [
			id,
			{
				[keyOf(
					SERVICES.find((s) => s.id === id)!,
					'url'
				)!]: `${upstream.url}/${id}`,
				...more[id]
			}
		])
	);
	const document = servicesDocument(services as ProfileDocument['services']);
	const backup = {
		format: 'provisioning-studio.profile-backup',
		version: 1,
		profile: { id: name, name, revision: 1 },
		exportedAt: '2026-12-01T00:00:00Z',
		secrets: 'included',
		document
	};
	writeFileSync(file, JSON.stringify(backup, null, '\t'));
	return file;
}

interface LiveRendering {
	service: string;
	live?: { status?: number; success?: boolean; summary?: string; error?: { code: string } }[];
}

const REPORTERS = ['accountRemovalReporter', 'pushNotificationReporter'];

describe('check --live beyond the contract', () => {
	it('sends one request to each configured service and judges each answer', async () => {
		const ids = BEYOND.map((s) => s.id);
		expect(ids).toEqual(
			expect.arrayContaining([
				'fetchMessages',
				'initialProvisioning',
				'webServiceContacts',
				...REPORTERS
			])
		);
		const before = upstream.requests.length;
		const result = await run(['check', '--live', profile('all', ids), '--reporter', 'json'], {
			env: ENV
		});
		const paths = upstream.requests.slice(before).map((r) => r.url.split('?')[0]);
		expect(paths.sort()).toEqual(ids.map((id) => `/${id}`).sort());
		const renderings: LiveRendering[] = JSON.parse(result.stdout).files[0].renderings;
		const live = renderings.flatMap((r) => (r.live ?? []).map((l) => [r.service, l.status]));
		expect(live.sort()).toEqual(ids.map((id) => [id, 200]).sort());
		const summary = (id: string) => renderings.find((r) => r.service === id)!.live![0].summary;
		expect(summary('accountRemovalReporter')).toBe(
			'The report is delivered. The provider should now delete the push tokens it stored for this selector: the account was signed out or removed, so no push may go to it.'
		);
		// The catalogue's sample of %pushId% is a push test's id.
		expect(summary('pushNotificationReporter')).toBe(
			'The report is delivered. The provider should now count push test “test-7f3a9c21” as delivered.'
		);
	});

	it('names initial provisioning’s portal key in an account XML, and sends nothing to it', async () => {
		const file = path.join(work.dir, 'portal-key.xml');
		writeFileSync(
			file,
			`<account>\n<InitialProvisioningUrl>${upstream.url}/initialProvisioning</InitialProvisioningUrl>\n</account>\n`
		);
		const before = upstream.requests.length;
		const result = await run(['check', '--live', file, '--reporter', 'json'], { env: ENV });
		expect(upstream.requests.length).toBe(before);
		const findings: { code: string; severity: string; message: string; line?: number }[] =
			JSON.parse(result.stdout).files[0].findings;
		expect(findings).toContainEqual(
			expect.objectContaining({
				code: 'portal_key_in_xml',
				severity: 'warning',
				message: expect.stringContaining(
					'<InitialProvisioningUrl> (line 2) is set in the portal, under "Provisioning Options (step 2)"'
				)
			})
		);
		// A key the catalogue knows as written is never taken for a misspelling of another.
		expect(findings.map((f) => f.code)).not.toContain('unknown_key');
	});

	it('answers a contacts Digest challenge once, as the app does, and names a refusal', async () => {
		const contacts = JSON.stringify({
			contacts: [
				{
					contactId: 'c1',
					displayName: 'Bob',
					contactEntries: [{ entryId: 'e1', type: 'tel', uri: 'tel:+14155550123' }]
				}
			]
		});
		const resource = {
			algorithm: 'SHA-256' as const,
			username: 'directory',
			password: 'Dir-Secret-42',
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: contacts
		};
		const credentials = (password: string) => ({
			webServiceContacts: { wsContactsAuthUsername: 'directory', wsContactsAuthPassword: password }
		});
		const file = profile('digest', ['webServiceContacts'], credentials('Dir-Secret-42'));
		const answer = digestProtected(resource);
		upstream.answerNext(answer);
		upstream.answerNext(answer);
		const before = upstream.requests.length;
		const result = await run(['check', '--live', file, '--reporter', 'json'], { env: ENV });
		const sent = upstream.requests.slice(before);
		expect(sent).toHaveLength(2);
		expect(sent[1].headers.authorization).toMatch(/^Digest username="directory"/);
		const [rendering] = JSON.parse(result.stdout).files[0].renderings as LiveRendering[];
		expect(rendering.live).toHaveLength(1);
		expect(rendering.live![0]).toMatchObject({ status: 200, success: true });
		expect(result.stdout).not.toContain('Dir-Secret-42');
		expect(result.code).toBe(0);

		const wrong = profile('digest-wrong', ['webServiceContacts'], credentials('not-it'));
		const refusing = digestProtected(resource);
		upstream.answerNext(refusing);
		upstream.answerNext(refusing);
		const text = await run(['check', '--live', wrong], { env: ENV });
		expect(text.code).toBe(1);
		expect(text.stdout).toContain(
			'The Digest answer was refused with a second 401: check wsContactsAuthUsername and wsContactsAuthPassword.'
		);
	});

	it('fails the check on a reporter’s 404, saying the app shows nothing, in text and JUnit', async () => {
		const file = profile('removal-404', ['accountRemovalReporter']);
		upstream.answerNext({ status: 404, body: 'Not Found' });
		const text = await run(['check', '--live', file], { env: ENV });
		expect(text.code).toBe(1);
		expect(text.stdout).toContain(
			'accountRemovalReporter with "Samples": 404 → HTTP 404: the report is not delivered, so the provider has nothing to do with it; the app shows nothing to the user.'
		);
		expect(text.stdout).toMatch(/warning +Live answer 404: HTTP 404 is not a success/);
		upstream.answerNext({ status: 404, body: 'Not Found' });
		const junit = await run(['check', '--live', file, '--reporter', 'junit'], { env: ENV });
		expect(junit.stdout).toMatch(
			/<testcase name="render accountRemovalReporter with &quot;Samples&quot;"[^>]*>\s*<failure message="The platform reads the answer as a failure \(HTTP 404\)[^"]*" type="live_failed">/
		);
	});

	it('ends a reporter that never answers with the timeout, a network failure', async () => {
		const file = profile('delivery-silent', ['pushNotificationReporter']);
		upstream.answerNext(() => {});
		const result = await run(['check', '--live', file, '--reporter', 'json'], { env: ENV });
		expect(result.code).toBe(4);
		const [rendering] = JSON.parse(result.stdout).files[0].renderings as LiveRendering[];
		expect(rendering.live![0].error).toMatchObject({ code: 'headers_timeout' });
	});

	it('writes and then matches a snapshot of each reporter’s request', async () => {
		const file = profile('snapshots', REPORTERS);
		const snapshots = path.join(work.dir, 'snapshots');
		const args = ['check', file, '--snapshots', snapshots];
		const written = await run([...args, '--update-snapshots'], { env: ENV });
		expect(written.stdout).toContain('snapshots: 2 written');
		const stored = readdirSync(snapshots, { recursive: true, encoding: 'utf8' });
		for (const id of REPORTERS) expect(stored.join('\n')).toContain(id);
		const again = await run(args, { env: ENV });
		expect(again.code).toBe(0);
		expect(again.stdout).toContain('snapshots: 2 match');
	});
});
