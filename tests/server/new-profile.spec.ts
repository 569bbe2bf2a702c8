import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, createUser, serverWithAdmin, type TestUser } from '../helpers/fixtures';
import { stopAllServers, type Client } from '../helpers/server';

/**
 * A new profile from XML or a backup through the profiles page's actions, on the real server:
 * a review writes nothing, applying creates the profile with the reviewed document as revision
 * 1 (audited with where it came from), refusals write nothing, and viewers are refused.
 */

let admin: Client;
let editor: TestUser;
let viewer: TestUser;

const XML =
	'<account><genericSmsSendUrl>https://sms.example.com/?to=%sms_to%</genericSmsSendUrl></account>';

beforeAll(async () => {
	({ admin } = await serverWithAdmin());
	[editor, viewer] = await Promise.all([
		createUser(admin, 'editor', 'editor@example.test'),
		createUser(admin, 'viewer', 'viewer@example.test')
	]);
});

afterAll(stopAllServers);

/** Posts the page's form as its script does, and reads the action's answer. */
async function action(client: Client, name: 'create' | 'apply', fields: Record<string, string>) {
	const answer = await client.json(`/profiles?/${name}`, {
		method: 'POST',
		body: new URLSearchParams(fields).toString(),
		headers: {
			'content-type': 'application/x-www-form-urlencoded',
			'x-sveltekit-action': 'true'
		}
	});
	return {
		status: answer.status,
		result: JSON.parse(answer.text) as {
			type: string;
			status?: number;
			location?: string;
			data?: string;
		}
	};
}

async function named(name: string) {
	const answer = await admin.json('/api/profiles');
	return answer.body.profiles!.filter((p) => p.name === name);
}

describe('a new profile from XML or a backup', () => {
	it('is reviewed without writing, and created with the reviewed document when applied', async () => {
		const fields = { name: 'From XML', source: 'xml', text: XML };
		const reviewed = await action(editor.client, 'create', fields);
		expect(reviewed.result.type).toBe('success');
		expect(reviewed.result.data).toContain('services.sendMessage.genericSmsSendUrl');
		expect(await named('From XML')).toEqual([]);

		const applied = await action(editor.client, 'apply', fields);
		expect(applied.result).toMatchObject({ type: 'redirect', status: 303 });
		const id = /^\/profiles\/([^?]+)\?created=xml$/.exec(applied.result.location!)![1];
		const profile = await admin.json(`/api/profiles/${id}`);
		expect(profile.body.profile!.headRevision).toBe(1);
		expect(profile.body.profile!.document.services.sendMessage).toEqual({
			genericSmsSendUrl: 'https://sms.example.com/?to=%sms_to%'
		});
		expect(profile.body.profile!.message).toBe('Imported XML');
		const log = await admin.json('/api/audit?action=profile.created');
		expect(log.body.entries).toContainEqual(
			expect.objectContaining({ target: id, details: expect.objectContaining({ from: 'xml' }) })
		);
	});

	it('is created from a backup of another profile', async () => {
		const source = await createProfile(admin, 'Backed up');
		const backup = await (await admin.fetch(`/api/profiles/${source}/backup`)).text();
		const fields = { name: 'From a backup', source: 'backup', text: backup };
		expect((await action(editor.client, 'create', fields)).result.type).toBe('success');
		const applied = await action(editor.client, 'apply', fields);
		expect(applied.result.location).toMatch(/\?created=backup$/);
		const [created] = await named('From a backup');
		const profile = await admin.json(`/api/profiles/${created.id}`);
		expect(profile.body.profile!.document.services.sendMessage?.genericSmsSendUrl).toBe(
			'https://sms.example.com/send?to=%sms_to%'
		);
	});

	it('refuses what cannot be read, unresolved conflicts and a taken name, writing nothing', async () => {
		const before = (await admin.json('/api/profiles')).body.profiles!.length;
		const refusals: [string, Record<string, string>, RegExp][] = [
			['create', { name: 'Bad', source: 'xml', text: '<account>\n<a>&</a></account>' }, /line 2/],
			['create', { name: 'Bad', source: 'xml', text: '<!DOCTYPE a><a/>' }, /DOCTYPE/i],
			['create', { name: 'Bad', source: 'backup', text: '{}' }, /backup/i],
			['create', { name: 'Bad', source: 'xml', text: '  ' }, /Paste the XML or choose a file/],
			[
				'apply',
				{
					name: 'Bad',
					source: 'xml',
					text: '<genericSmsPostData>a=1</genericSmsPostData><genericSmsSendPostData>b=1</genericSmsSendPostData>'
				},
				/Choose a value for Send Message · Post data/
			],
			['apply', { name: 'from xml', source: 'xml', text: XML }, /exists already/],
			['create', { name: ' ', source: 'empty' }, /Enter a name/]
		];
		for (const [name, fields, message] of refusals) {
			const answer = await action(editor.client, name as 'create' | 'apply', fields);
			expect(answer.result, JSON.stringify(fields)).toMatchObject({
				type: 'failure',
				status: 400
			});
			expect(answer.result.data).toMatch(message);
		}
		expect((await admin.json('/api/profiles')).body.profiles).toHaveLength(before);
	});

	it('is refused to a viewer', async () => {
		for (const name of ['create', 'apply'] as const) {
			const answer = await action(viewer.client, name, {
				name: 'Viewer',
				source: 'xml',
				text: XML
			});
			expect(answer.status).toBe(403);
		}
		expect(await named('Viewer')).toEqual([]);
	});
});
