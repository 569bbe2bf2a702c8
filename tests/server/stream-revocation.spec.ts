import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, serverWithAdmin } from '../helpers/fixtures';
import { afterEnding, openFeed, type Feed } from '../helpers/feeds';
import { Browser, CLIENT, startProvider, type TestProvider } from '../helpers/oidc';
import { Client, stopAllServers, type TestServer } from '../helpers/server';
import { freshStep, turnOn } from '../helpers/totp';

/**
 * An open live feed (a sink's or a sandbox's events) ends as soon as its caller's access ends,
 * whichever way it ends: the API token revoked, the session signed out, the account
 * deactivated, the role lowered below what the feed needs (by an admin, or by the identity
 * provider's groups at a later sign-in), the second factor REQUIRE_2FA asks for taken off.
 * What is recorded after that is not delivered on it.
 */

let provider: TestProvider;
let server: TestServer;
let admin: Client;
let users = 0;

beforeAll(async () => {
	provider = await startProvider();
	({ server, admin } = await serverWithAdmin({
		OIDC_ISSUER: provider.issuer,
		OIDC_CLIENT_ID: CLIENT.id,
		OIDC_CLIENT_SECRET: CLIENT.secret,
		OIDC_ALLOW_INSECURE_HTTP: '1',
		OIDC_SCOPES: 'openid email profile groups',
		OIDC_ADMIN_GROUPS: 'studio-admins',
		OIDC_EDITOR_GROUPS: 'studio-editors',
		OIDC_VIEWER_GROUPS: 'studio-viewers'
	}));
	provider.serve([server.url]);
});

afterAll(async () => {
	await stopAllServers();
	await provider?.close();
});

/** A new editor, watching as a session or with an API token of theirs. */
async function editor(via: 'session' | 'token') {
	const user = await createUser(admin, 'editor', `watcher-${++users}@example.test`);
	const made = await user.client.json('/api/tokens', { method: 'POST', json: { name: 'feed' } });
	expect(made.status).toBe(201);
	const watcher = via === 'token' ? user.client.withToken(made.body.token!) : user.client;
	return { ...user, watcher, tokenId: made.body.info!.id };
}

/** A feed that delivers `before` to its watcher. */
async function deliveringFeed(kind: Feed['kind'], watcher: Client): Promise<Feed> {
	const feed = await openFeed(kind, admin, watcher);
	await feed.fire('before');
	expect(feed.label(await feed.stream.next(feed.type))).toBe('before');
	return feed;
}

type Editor = Awaited<ReturnType<typeof editor>>;

const ENDINGS: Record<string, { reason: string; end: (user: Editor) => Promise<void> }> = {
	'the token is revoked': {
		reason: 'token_revoked',
		async end(user) {
			const revoked = await user.client.fetch(`/api/tokens/${user.tokenId}`, { method: 'DELETE' });
			expect(revoked.status).toBe(204);
		}
	},
	'the user signs out': {
		reason: 'session_ended',
		async end(user) {
			expect((await user.client.fetch('/api/session', { method: 'DELETE' })).status).toBe(204);
		}
	},
	'an admin deactivates the account': {
		reason: 'deactivated',
		async end(user) {
			const changed = await admin.json(`/api/users/${user.id}`, {
				method: 'PATCH',
				json: { active: false }
			});
			expect(changed.status).toBe(200);
		}
	},
	'an admin lowers the role below the feed’s': {
		reason: 'role_changed',
		async end(user) {
			const changed = await admin.json(`/api/users/${user.id}`, {
				method: 'PATCH',
				json: { role: 'viewer' }
			});
			expect(changed.status).toBe(200);
		}
	}
};

const CASES: [Feed['kind'], 'session' | 'token', keyof typeof ENDINGS][] = [
	['sink', 'token', 'the token is revoked'],
	['sink', 'session', 'the user signs out'],
	['sink', 'token', 'an admin deactivates the account'],
	['sink', 'session', 'an admin deactivates the account'],
	['sink', 'session', 'an admin lowers the role below the feed’s'],
	['sink', 'token', 'an admin lowers the role below the feed’s'],
	['sandbox', 'token', 'the token is revoked'],
	['sandbox', 'session', 'the user signs out'],
	['sandbox', 'token', 'an admin deactivates the account'],
	['sandbox', 'session', 'an admin deactivates the account']
];

/** Feeds to which nothing more comes once the access ended. */
const QUIET: (typeof CASES)[number][] = [
	['sink', 'token', 'the token is revoked'],
	['sandbox', 'session', 'an admin deactivates the account']
];

describe('an open feed whose caller’s access ends', () => {
	it.each(CASES)('the %s feed with a %s ends when %s', async (kind, via, ending) => {
		const user = await editor(via);
		const feed = await deliveringFeed(kind, user.watcher);
		await ENDINGS[ending].end(user);
		await feed.fire('after');
		const after = await afterEnding(feed);
		expect(after.delivered).toEqual([]);
		expect(after.ended).toBe(true);
		expect(after.endedBecause).toBe(ENDINGS[ending].reason);
		// It was recorded all the same: the feed did not deliver it.
		expect(await feed.recorded(admin)).toContain('after');
	});

	it.each(QUIET)(
		'a quiet %s feed with a %s ends when %s, on the news alone',
		async (kind, via, ending) => {
			const user = await editor(via);
			const feed = await deliveringFeed(kind, user.watcher);
			await ENDINGS[ending].end(user);
			// Nothing more is recorded: well before the 25-second keep-alive, the news ends it.
			expect(await afterEnding(feed)).toMatchObject({
				ended: true,
				delivered: [],
				endedBecause: ENDINGS[ending].reason
			});
		}
	);

	it('a sandbox feed (open to viewers) ends when a role change ends the sessions', async () => {
		const user = await editor('session');
		const feed = await deliveringFeed('sandbox', user.watcher);
		await ENDINGS['an admin lowers the role below the feed’s'].end(user);
		await feed.fire('after');
		const after = await afterEnding(feed);
		expect(after).toMatchObject({ ended: true, delivered: [], endedBecause: 'session_ended' });
	});

	it('is recorded in the audit log, with the reason', async () => {
		const user = await editor('token');
		const feed = await deliveringFeed('sink', user.watcher);
		await ENDINGS['the token is revoked'].end(user);
		expect((await afterEnding(feed)).ended).toBe(true);
		const audit = await admin.json<{
			entries: { action: string; actor: string; details: Record<string, unknown> }[];
		}>('/api/audit?action=stream.closed');
		expect(audit.body.entries.find((e) => e.actor === user.email)).toMatchObject({
			action: 'stream.closed',
			details: { feed: 'sink', reason: 'token_revoked' }
		});
	});

	it('keeps going when another session of the same user signs out', async () => {
		const user = await editor('session');
		const other = new Client(server);
		expect((await other.login(user.email, user.password)).status).toBe(200);
		const feed = await deliveringFeed('sink', user.watcher);
		expect((await other.fetch('/api/session', { method: 'DELETE' })).status).toBe(204);
		await feed.fire('still');
		expect(feed.label(await feed.stream.next(feed.type))).toBe('still');
		await feed.stream.close();
	});
});

describe('a role change from the identity provider’s groups', () => {
	it('ends the feed of a session made with the old role at the next sign-in', async () => {
		const claims = { email: 'sso-watcher@example.test', email_verified: true, name: 'Watcher' };
		provider.accounts.set('sso-watcher', { ...claims, groups: ['studio-editors'] });
		const first = new Browser();
		await first.follow(`${server.url}/auth/oidc/start?next=/sinks`, 'sso-watcher');
		const watcher = new Client(server);
		watcher.session = first.cookie(server.url, 'ps_session');
		const me = await watcher.json('/api/session');
		expect(me.body.user).toMatchObject({ role: 'editor', method: 'oidc' });
		const feed = await deliveringFeed('sink', watcher);

		// The provider now puts the account among the viewers; it signs in again elsewhere.
		provider.accounts.set('sso-watcher', { ...claims, groups: ['studio-viewers'] });
		const second = new Browser();
		await second.follow(`${server.url}/auth/oidc/start?next=/profiles`, 'sso-watcher');
		const again = new Client(server);
		again.session = second.cookie(server.url, 'ps_session');
		expect((await again.json('/api/session')).body.user).toMatchObject({ role: 'viewer' });

		await feed.fire('after');
		const after = await afterEnding(feed);
		expect(after).toMatchObject({ ended: true, delivered: [], endedBecause: 'role_changed' });
	});
});

describe('REQUIRE_2FA', () => {
	it('ends the feed of a session held back again when an admin takes its second factor off', async () => {
		const held = await serverWithAdmin({ REQUIRE_2FA: 'admins' });
		await freshStep();
		await turnOn(held.admin);
		const other = await createUser(held.admin, 'admin', 'second-admin@example.test');
		await turnOn(other.client);
		const feed = await openFeed('sink', held.admin, other.client);
		await feed.fire('before');
		expect(feed.label(await feed.stream.next(feed.type))).toBe('before');

		const reset = await held.admin.fetch(`/api/users/${other.id}/totp`, { method: 'DELETE' });
		expect(reset.status).toBe(204);
		await feed.fire('after');
		expect(await afterEnding(feed)).toMatchObject({
			ended: true,
			delivered: [],
			endedBecause: 'second_factor_required'
		});
	});
});
