import { recordAudit } from '../audit';
import type { ServerContext } from '../platform/context';
import { hashPassword, passwordRefusal } from './password';
import { issueSetupToken } from './setup';
import { logger } from '../platform/logger';
import { ConfigurationError, settingRefusal } from '../platform/environment';

/**
 * A fresh installation has no user. With ADMIN_EMAIL and ADMIN_PASSWORD set, the first admin is
 * created from them; otherwise a one-time setup link is printed on stdout.
 */
export async function ensureFirstAdmin(ctx: ServerContext): Promise<void> {
	if ((await ctx.store.users.count()) > 0) return;
	const { adminEmail, adminPassword, origin, port } = ctx.config;
	if (adminEmail && adminPassword) {
		// Refused as a setting: the rule alone, since the owner's message may quote the password.
		const refused = passwordRefusal(adminPassword, adminEmail);
		if (refused) {
			throw new ConfigurationError([settingRefusal('ADMIN_PASSWORD', adminPassword, refused.rule)]);
		}
		let user;
		try {
			user = await ctx.store.users.create({
				email: adminEmail,
				name: adminEmail.split('@')[0],
				role: 'admin',
				passwordHash: await hashPassword(adminPassword),
				at: Date.now()
			});
		} catch (error) {
			// Another instance on the same database created it a moment before: nothing to do.
			if ((await ctx.store.users.count()) > 0) return;
			throw error;
		}
		await recordAudit(
			ctx.store,
			{ id: null, email: null, ip: null },
			'setup.admin_created',
			user.email,
			{
				from: 'environment'
			}
		);
		logger().info(
			{ userId: user.id },
			'Created the first admin from ADMIN_EMAIL and ADMIN_PASSWORD.'
		);
		return;
	}
	const token = issueSetupToken();
	const base = origin ?? `http://localhost:${port}`;
	// The one-time link is the way in on a first start without ADMIN_EMAIL: it is meant to be read
	// in the log (valid for an hour, once), and no other token is ever written there.
	logger().info(
		`No users yet. Create the first admin within the hour at: ${base}/setup?token=${token}`
	);
}
