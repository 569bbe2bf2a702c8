import type { AuditEntry, Store } from '../store/types';
import { currentRequestId } from '../platform/request-context';

/**
 * The audit trail: who did what, when, from where. Entries never hold bodies, passwords, tokens
 * or secret values; `details` is for identifiers and counts only.
 */

/** The actions recorded. */
export type AuditAction =
	| 'login.success'
	| 'login.failure'
	| 'logout'
	| 'setup.admin_created'
	| 'user.created'
	| 'user.updated'
	| 'user.password_changed'
	| 'user.password_change_failure'
	| 'totp.enrolment_started'
	| 'totp.enabled'
	| 'totp.disabled'
	| 'totp.disable_failure'
	| 'totp.reset'
	| 'user.identity_linked'
	| 'token.created'
	| 'token.revoked'
	| 'profile.created'
	| 'profile.saved'
	| 'profile.renamed'
	| 'profile.deleted'
	| 'profile.undeleted'
	| 'profile.restored'
	| 'profile.exported'
	| 'profile.exported_with_secrets'
	| 'profile.imported'
	| 'profile.backup_with_secrets'
	| 'profile.backup_restored'
	| 'test_call'
	| 'sink.created'
	| 'sink.deleted'
	| 'sandbox.created'
	| 'sandbox.rotated'
	| 'sandbox.deleted'
	| 'push.sent'
	| 'stream.closed'
	| 'audit.exported';

/** Who acts: a user, or nobody yet (failed logins, setup). */
export interface Actor {
	id: number | null;
	email: string | null;
	ip: string | null;
}

/** An entry as of now, for {@link recordAudit} or to be written with other records. */
export function auditEntry(
	actor: Actor,
	action: AuditAction,
	target: string | null,
	details: Record<string, string | number | boolean | null> | null = null
): Omit<AuditEntry, 'id'> {
	// The request it was made in, as its log line names it.
	const requestId = currentRequestId();
	return {
		at: Date.now(),
		actorId: actor.id,
		actor: actor.email,
		action,
		target,
		ip: actor.ip,
		details: requestId === null ? details : { ...details, requestId }
	};
}

/** Appends one entry. */
export async function recordAudit(
	store: Store,
	actor: Actor,
	action: AuditAction,
	target: string | null,
	details: Record<string, string | number | boolean | null> | null = null
): Promise<void> {
	await store.audit.append(auditEntry(actor, action, target, details));
}
