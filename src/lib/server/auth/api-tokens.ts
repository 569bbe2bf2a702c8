import { z } from 'zod';
import type { ApiTokenView, NewApiToken } from '$lib/api-schemas/account';
import { recordAudit } from '../audit';
import { API_TOKEN_PREFIX, hashSecret, newSecret } from './tokens';
import type { AuthUser } from './auth-user';
import type { ServerContext } from '../platform/context';
import type { ApiToken } from '../store/types';

/** A token as answers show it: the API's shape. */
export type { ApiTokenView };

/** A new token's name. */
export const NewTokenSchema = z.object({ name: z.string().trim().min(1).max(100) });

/** A token as listed (`ApiTokenSchema`): never the secret or its hash. */
function tokenView(token: ApiToken): ApiTokenView {
	const { id, name, prefix, createdAt, lastUsedAt, revokedAt } = token;
	return { id, name, prefix, createdAt, lastUsedAt, revokedAt };
}

/** The user's tokens, newest first. */
export async function listTokens(ctx: ServerContext, user: AuthUser): Promise<ApiTokenView[]> {
	return (await ctx.store.tokens.listForUser(user.id)).map(tokenView);
}

/** Creates a token; the secret is returned this once and never again. */
export async function createToken(
	ctx: ServerContext,
	user: AuthUser,
	ip: string | null,
	name: string
): Promise<NewApiToken> {
	const token = newSecret(API_TOKEN_PREFIX);
	const created = await ctx.store.tokens.create({
		userId: user.id,
		name,
		prefix: token.slice(0, API_TOKEN_PREFIX.length + 6),
		tokenHash: hashSecret(token),
		createdAt: Date.now()
	});
	await recordAudit(
		ctx.store,
		{ id: user.id, email: user.email, ip },
		'token.created',
		String(created.id),
		{ name }
	);
	return { token, info: tokenView(created) };
}

/** Revokes one of the user's tokens; false when there is no such active token. */
export async function revokeToken(
	ctx: ServerContext,
	user: AuthUser,
	ip: string | null,
	id: number
): Promise<boolean> {
	const done = await ctx.store.tokens.revoke(id, user.id, Date.now());
	if (done)
		await recordAudit(
			ctx.store,
			{ id: user.id, email: user.email, ip },
			'token.revoked',
			String(id)
		);
	return done;
}
