import type { RequestEvent } from '@sveltejs/kit';
import type { AccessEnded } from '$lib/api-schemas/streams';
import { recordAudit } from '../audit';
import type { StreamGuard } from '../http/sse';
import { clientIp, requireUser } from '../http/body';
import { serverContext, type ServerContext } from '../platform/context';
import { logger } from '../platform/logger';
import { allows, requiredAccess, type Access } from './access';
import { onAccessChange } from './access-news';
import { requestCredential, type Credential } from './request';
import { SESSION_COOKIE } from './session';
import { mustEnrol } from './totp';
import { hashSecret } from './tokens';

/**
 * Why `credential` of user `userId` no longer gives `access`, or null while it does: the checks
 * of the hooks, made again without touching the session or token (a stream is not a use).
 */
export async function accessEnded(
	ctx: ServerContext,
	userId: number,
	credential: Credential,
	access: Access,
	now = Date.now()
): Promise<AccessEnded | null> {
	const user = await ctx.store.users.findById(userId);
	if (!user || !user.active) return 'deactivated';
	if (!allows(user.role, access)) return 'role_changed';
	const hash = hashSecret(credential.secret);
	if (credential.via === 'token') {
		const token = await ctx.store.tokens.findByHash(hash);
		return token && token.userId === userId && token.revokedAt === null ? null : 'token_revoked';
	}
	const session = await ctx.store.sessions.find(hash);
	if (
		!session ||
		session.userId !== userId ||
		now >= session.expiresAt ||
		now - session.lastSeenAt >= ctx.config.sessionIdleMs
	) {
		return 'session_ended';
	}
	const { id, email, name, role } = user;
	const caller = { id, email, name, role, via: credential.via, method: session.method };
	return (await mustEnrol(ctx, caller)) ? 'second_factor_required' : null;
}

/**
 * The guard of a stream a request opens: its caller (the same session or token) is checked again
 * whenever the news says their access changed and before events are sent; when the check fails,
 * the stream ends, and the audit log says whose `feed` ended and why.
 */
export function streamGuard(
	event: RequestEvent,
	feed: { kind: 'sink' | 'sandbox' | 'messaging'; target: string }
): StreamGuard {
	const ctx = serverContext();
	const user = requireUser(event);
	const credential = requestCredential(
		event.request.headers.get('authorization'),
		event.cookies.get(SESSION_COOKIE)
	);
	if (!credential) throw new Error('A signed-in request without a credential.');
	const access = requiredAccess(event.request.method, event.url.pathname);
	const actor = { id: user.id, email: user.email, ip: clientIp(event) };
	return {
		check: () => accessEnded(ctx, user.id, credential, access),
		watch: (changed, poll) => onAccessChange(user.id, changed, poll),
		ended(reason) {
			recordAudit(ctx.store, actor, 'stream.closed', feed.target, {
				feed: feed.kind,
				via: credential.via,
				reason
			}).catch((error: unknown) =>
				logger().error({ err: error }, 'Recording a closed stream failed.')
			);
		}
	};
}
