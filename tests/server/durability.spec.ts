import { afterAll, describe, expect, it } from 'vitest';
import type { ProfileDocument } from '../../src/lib/core/profile';
import {
	ADMIN,
	ADMIN_ENV,
	createProfile,
	profileDocument,
	serverWithAdmin,
	sleep
} from '../helpers/fixtures';
import { Client, startServer, stopAllServers } from '../helpers/server';

/**
 * A crash (SIGKILL) in the middle of a burst of saves loses no answered save: every revision
 * acknowledged with 200 before the kill is there after a restart, with exactly the document
 * that was sent.
 */

const WRITERS = 4;
/** Bounds of the burst: saves per writer, and time. */
const MAX_SAVES_PER_WRITER = 300;
const MAX_BURST_MS = 8000;
/** Acknowledged saves to wait for before the kill may come (so the test tests something). */
const MIN_ACKED = 8;

const MASK = '\u2022'.repeat(8);

interface Acked {
	profileId: string;
	revision: number;
	sent: ProfileDocument;
}

afterAll(stopAllServers);

function documentFor(writer: number, n: number): ProfileDocument {
	return profileDocument({
		sms_body: `writer ${writer} save ${n} ${'x'.repeat(n % 50)}`,
		'account[password]': `secret-${writer}-${n}`
	});
}

/** What the API answers for a document it was sent: the secret as the mask. */
function asAnswered(document: ProfileDocument): ProfileDocument {
	const [scenario] = document.scenarios;
	return {
		...document,
		scenarios: [{ ...scenario, values: { ...scenario.values, 'account[password]': MASK } }]
	};
}

describe('durability', () => {
	it('keeps every acknowledged save after a SIGKILL in the middle of a burst', async () => {
		const { server, admin } = await serverWithAdmin();
		const ids = await Promise.all(
			Array.from({ length: WRITERS }, (_, i) => createProfile(admin, `Burst ${i}`))
		);

		const acked: Acked[] = [];
		let killed = false;
		const deadline = Date.now() + MAX_BURST_MS;

		async function writer(index: number): Promise<void> {
			const profileId = ids[index];
			let base = 1;
			for (let n = 1; n <= MAX_SAVES_PER_WRITER && !killed && Date.now() < deadline; n++) {
				const sent = documentFor(index, n);
				let answer;
				try {
					answer = await admin.json(`/api/profiles/${profileId}`, {
						method: 'PUT',
						json: { baseRevision: base, document: sent }
					});
				} catch {
					return; // the connection died with the server
				}
				if (answer.status !== 200) return;
				base = answer.body.profile!.revision;
				acked.push({ profileId, revision: base, sent });
			}
		}

		async function killer(): Promise<void> {
			while (acked.length < MIN_ACKED && Date.now() < deadline) await sleep(5);
			await sleep(Math.random() * 150);
			killed = true;
			await server.kill();
		}

		await Promise.all([killer(), ...ids.map((_, i) => writer(i))]);
		const ackedBeforeKill = [...acked];
		expect(ackedBeforeKill.length).toBeGreaterThanOrEqual(MIN_ACKED);

		const restarted = await startServer({ dataDir: server.dataDir, env: ADMIN_ENV });
		expect(restarted.stdout()).not.toMatch(/setup\?token=|Created the first admin/);
		const client = new Client(restarted);
		expect((await client.login(ADMIN.email, ADMIN.password)).status).toBe(200);

		for (const { profileId, revision, sent } of ackedBeforeKill) {
			const answer = await client.json(`/api/profiles/${profileId}/revisions/${revision}`);
			expect(answer.status, `${profileId} revision ${revision}`).toBe(200);
			expect(answer.body.profile?.document).toEqual(asAnswered(sent));
		}
		for (const profileId of ids) {
			const last = Math.max(
				1,
				...ackedBeforeKill.filter((a) => a.profileId === profileId).map((a) => a.revision)
			);
			const head = await client.json(`/api/profiles/${profileId}`);
			expect(head.body.profile?.headRevision).toBeGreaterThanOrEqual(last);
			const revisions = await client.json(`/api/profiles/${profileId}/revisions`);
			const numbers = revisions.body.revisions?.map((r) => r.revision) ?? [];
			expect(numbers).toEqual(
				Array.from({ length: head.body.profile!.headRevision }, (_, i) => numbers.length - i)
			);
		}
	});
});
