import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { RequestEvent } from '@sveltejs/kit';
import * as client from 'openid-client';
import { recordAudit, type Actor } from '../audit';
import type { ServerContext } from '../platform/context';
import { logger } from '../platform/logger';
import { metrics } from '../platform/metrics.js';
import type { SignInProblem } from '../../sign-in-problem';
import type { Role, User } from '../store/types';
import { safeNext } from './next';
import {
	claimText,
	domainAllowed,
	emailOf,
	groupsIn,
	isLower,
	nameOf,
	roleFor,
	shownGroups,
	type Claims
} from './oidc-claims';
import { ssoAttempt, ssoRefusalCount, ssoSucceeded } from './rate-limit';
import { hasPassword, NO_PASSWORD } from './password';
import { endSession, startSession } from './session';
import type { OidcSettings } from './sign-in-settings';

/**
 * Sign-in through an OpenID Connect provider: the authorization code flow with PKCE (S256), a
 * state and a nonce, as a confidential client, with openid-client doing every check of the
 * provider's answers (ID token signature, issuer, audience, expiry, nonce). What the browser
 * carries between the start and the callback (state, nonce, PKCE verifier, where to go next)
 * lives in a short-lived cookie encrypted with a key derived from the app's secret key, so none
 * can be handed a forged one; the store remembers only the flow's id, so that its cookie finishes
 * one sign-in, on whichever instance.
 */

/** The cookie that carries a sign-in under way, and the paths it is sent to. */
export const FLOW_COOKIE = 'ps_oidc';
export const FLOW_COOKIE_PATH = '/auth/oidc';
/** How long a sign-in may take at the provider (typing a password, a second factor there). */
export const FLOW_SECONDS = 600;
/** Where the provider sends the browser back to, after the app's origin. */
export const CALLBACK_PATH = '/auth/oidc/callback';
/** Time for each request to the provider, in seconds (openid-client's default is 30). */
const PROVIDER_TIMEOUT_S = 10;
/** The provider's metadata and keys are read again after this long. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

export type { SignInProblem };

/** A sign-in under way, as the cookie holds it. */
interface Flow {
	/** Its id in the store, taken at the callback. */
	id: string;
	state: string;
	nonce: string;
	verifier: string;
	next: string;
	/** When it expires, in milliseconds. */
	exp: number;
}

const AAD = Buffer.from('provisioning-studio/oidc-flow/v1');

/** The cookie's own key, derived from the secret key (so it never opens a sealed secret). */
function flowKey(secretKey: Buffer): Buffer {
	return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), AAD, 32));
}

function sealFlow(secretKey: Buffer, flow: Flow): string {
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', flowKey(secretKey), iv);
	cipher.setAAD(AAD);
	const data = Buffer.concat([cipher.update(JSON.stringify(flow), 'utf8'), cipher.final()]);
	return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

/** The flow in a cookie, or null when it was altered, made with another key, or expired. */
function openFlow(secretKey: Buffer, sealed: string, now: number): Flow | null {
	try {
		const [iv, tag, data] = sealed.split('.');
		if (!iv || !tag || !data) return null;
		const decipher = createDecipheriv(
			'aes-256-gcm',
			flowKey(secretKey),
			Buffer.from(iv, 'base64url')
		);
		decipher.setAAD(AAD);
		decipher.setAuthTag(Buffer.from(tag, 'base64url'));
		const text = Buffer.concat([
			decipher.update(Buffer.from(data, 'base64url')),
			decipher.final()
		]).toString('utf8');
		const flow = JSON.parse(text) as Flow;
		return typeof flow.id === 'string' && typeof flow.exp === 'number' && flow.exp > now
			? flow
			: null;
	} catch {
		return null;
	}
}

let discovered: { at: number; key: string; config: client.Configuration } | undefined;
let discovering: Promise<client.Configuration> | undefined;

/**
 * The provider's configuration from its discovery document, kept an hour; a failure is not
 * kept, so the next sign-in asks again (the app starts and serves password sign-in meanwhile).
 */
async function providerConfig(settings: OidcSettings): Promise<client.Configuration> {
	const key = `${settings.issuer.href} ${settings.clientId}`;
	if (discovered && discovered.key === key && Date.now() - discovered.at < DISCOVERY_TTL_MS) {
		return discovered.config;
	}
	discovering ??= client
		.discovery(settings.issuer, settings.clientId, settings.clientSecret, undefined, {
			execute: settings.allowInsecureHttp ? [client.allowInsecureRequests] : [],
			timeout: PROVIDER_TIMEOUT_S
		})
		.then((config) => {
			config.timeout = PROVIDER_TIMEOUT_S;
			// openid-client checks the signature of an ID token from the token endpoint only when
			// asked: against the provider's published keys, with an algorithm it lists (never HS*).
			client.enableNonRepudiationChecks(config);
			discovered = { at: Date.now(), key, config };
			return config;
		})
		.finally(() => {
			discovering = undefined;
		});
	return discovering;
}

/** Forgets the provider's configuration (tests start providers one after another). */
export function forgetProvider(): void {
	discovered = undefined;
}

/** What went wrong talking to the provider, in words (a network error's code when there is one). */
function describeError(error: unknown): { unreachable: boolean; detail: string } {
	const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
	if (error instanceof TypeError && cause) {
		return { unreachable: true, detail: cause.code ?? cause.message ?? 'network error' };
	}
	if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
		return { unreachable: true, detail: 'no answer in time' };
	}
	if (error instanceof client.ResponseBodyError) {
		return {
			unreachable: false,
			detail: `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`
		};
	}
	const message = error instanceof Error ? error.message : String(error);
	return { unreachable: false, detail: message.slice(0, 300) };
}

function unreachable(settings: OidcSettings, detail: string): SignInProblem {
	return {
		status: 502,
		reason: 'provider_unreachable',
		title: `${settings.name} cannot be reached`,
		message: `The identity provider (${settings.issuer.href}) did not answer as expected: ${detail}. Try again later, or sign in with a password if you have one.`
	};
}

/** A problem page's status, and with a 429 its `Retry-After`, for the page's answer. */
export function problemHeaders(
	event: Pick<RequestEvent, 'locals' | 'setHeaders'>,
	problem: SignInProblem
): void {
	event.locals.pageStatus = problem.status;
	if (problem.retryAfter) event.setHeaders({ 'retry-after': String(problem.retryAfter) });
}

function tooMany(settings: OidcSettings, retryAfter: number): SignInProblem {
	return {
		status: 429,
		reason: 'rate_limited',
		title: 'Too many sign-ins',
		message: `Too many sign-ins through ${settings.name} came from your address, and too few of them succeeded. Try again in ${Math.ceil(retryAfter / 60)} minute${retryAfter > 60 ? 's' : ''}, or sign in with a password if you have one.`,
		retryAfter
	};
}

/**
 * Audits a refusal as `login.failure`. Identical refusals (one address, reason and subject) are
 * counted in a window: the 1st, 10th, 100th… of a window are written, with their count, so a
 * flood of forged callbacks cannot flood the log or the audit stream.
 */
async function auditRefusal(
	ctx: ServerContext,
	settings: OidcSettings,
	ip: string,
	refusal: Omit<Refusal, 'ok'>
): Promise<void> {
	const { problem, actor, details } = refusal;
	const kind = [ip, problem.reason, details?.subject ?? ''].join('\n');
	const count = await ssoRefusalCount(createHash('sha256').update(kind).digest('hex'));
	if (!/^10*$/.test(String(count))) return;
	await recordAudit(
		ctx.store,
		{ id: actor?.id ?? null, email: actor?.email ?? null, ip },
		'login.failure',
		null,
		{ method: 'oidc', issuer: settings.issuer.href, reason: problem.reason, ...details, count }
	);
}

/** Counts a refused sign-in in the metrics. */
function countRefusal(problem: SignInProblem): void {
	metrics().signIns.inc({
		method: 'oidc',
		result: problem.reason === 'provider_unreachable' ? 'error' : 'refused'
	});
}

/**
 * Starts a sign-in: the provider's address to send the browser to, and the sealed flow for the
 * cookie. `next` is kept by the open-redirect rules of the password form.
 */
export async function startSignIn(
	ctx: ServerContext,
	settings: OidcSettings,
	origin: string,
	next: unknown,
	ip: string
): Promise<{ ok: true; location: string; cookie: string } | { ok: false; problem: SignInProblem }> {
	const wait = await ssoAttempt('start', ip);
	if (wait) {
		const problem = tooMany(settings, wait);
		countRefusal(problem);
		await auditRefusal(ctx, settings, ip, { problem, details: { step: 'start' } });
		return { ok: false, problem };
	}
	let config: client.Configuration;
	try {
		config = await providerConfig(settings);
	} catch (error) {
		const { detail } = describeError(error);
		logger().warn({ err: error }, 'The identity provider did not answer its discovery document.');
		return { ok: false, problem: unreachable(settings, detail) };
	}
	const flow: Flow = {
		id: randomBytes(16).toString('base64url'),
		state: client.randomState(),
		nonce: client.randomNonce(),
		verifier: client.randomPKCECodeVerifier(),
		next: safeNext(next),
		exp: Date.now() + FLOW_SECONDS * 1000
	};
	await ctx.store.signInFlows.begin(flow.id, flow.exp, Date.now());
	const location = client.buildAuthorizationUrl(config, {
		redirect_uri: origin + CALLBACK_PATH,
		scope: settings.scopes,
		code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
		code_challenge_method: 'S256',
		state: flow.state,
		nonce: flow.nonce
	});
	return { ok: true, location: location.href, cookie: sealFlow(ctx.secretKey, flow) };
}

/** The outcome of a callback: a session, or a problem to show. */
export type CallbackResult =
	| { ok: true; token: string; next: string; user: User }
	| { ok: false; problem: SignInProblem; next: string };

/** A request's facts the callback needs. */
export interface CallbackInput {
	url: URL;
	origin: string;
	cookie: string | undefined;
	ip: string;
	userAgent: string | null;
	previous: string | undefined;
}

/** Where the browser comes back to after the provider's sign-out. */
export const SIGNED_OUT_PATH = '/login?signed_out=1';

/**
 * With `OIDC_LOGOUT=1`, the provider's end-session address for a session made through it
 * (RP-initiated logout, naming this client and where to come back to); null when it is off, the
 * provider offers none or does not answer: the app's own session has ended either way.
 */
export async function endSessionUrl(settings: OidcSettings, origin: string): Promise<URL | null> {
	if (!settings.logout) return null;
	let config: client.Configuration;
	try {
		config = await providerConfig(settings);
	} catch (error) {
		logger().warn({ err: error }, 'The identity provider did not answer: signed out here only.');
		return null;
	}
	if (!config.serverMetadata().end_session_endpoint) return null;
	return client.buildEndSessionUrl(config, {
		client_id: settings.clientId,
		post_logout_redirect_uri: origin + SIGNED_OUT_PATH
	});
}

/**
 * Finishes a sign-in at the callback: checks the flow cookie and the provider's answer, maps the
 * user's groups to a role, finds or makes the account, and starts a session. Every refusal and
 * error is audited and counted, and answered with a problem to show, never a session.
 */
export async function finishSignIn(
	ctx: ServerContext,
	settings: OidcSettings,
	input: CallbackInput
): Promise<CallbackResult> {
	const flow = input.cookie ? openFlow(ctx.secretKey, input.cookie, Date.now()) : null;
	const next = flow?.next ?? '/';
	const wait = await ssoAttempt('callback', input.ip);
	const outcome: Awaited<ReturnType<typeof signIn>> = wait
		? { ok: false, problem: tooMany(settings, wait), details: { step: 'callback' } }
		: await signIn(ctx, settings, input, flow);
	if (outcome.ok) {
		metrics().signIns.inc({ method: 'oidc', result: 'success' });
		await ssoSucceeded(input.ip);
		return { ...outcome, next };
	}
	countRefusal(outcome.problem);
	await auditRefusal(ctx, settings, input.ip, outcome);
	return { ok: false, problem: outcome.problem, next };
}

type Refusal = {
	ok: false;
	problem: SignInProblem;
	actor?: { id: number | null; email: string | null };
	details?: Record<string, string | number | boolean | null>;
};

function refuse(
	status: number,
	reason: string,
	title: string,
	message: string,
	extra: Omit<Refusal, 'ok' | 'problem'> = {}
): Refusal {
	return { ok: false, problem: { status, reason, title, message }, ...extra };
}

async function signIn(
	ctx: ServerContext,
	settings: OidcSettings,
	input: CallbackInput,
	flow: Flow | null
): Promise<{ ok: true; token: string; user: User } | Refusal> {
	const again = 'Start the sign-in again from the sign-in page.';
	if (!input.cookie) {
		return refuse(
			400,
			'no_flow_cookie',
			'This sign-in was not started here',
			`The browser came back from ${settings.name} without the cookie this app set when the sign-in started (it expires after ${FLOW_SECONDS / 60} minutes, and cookies may be blocked). ${again}`
		);
	}
	if (!flow) {
		return refuse(
			400,
			'bad_flow_cookie',
			'This sign-in cannot be finished',
			`The sign-in's cookie is expired or was altered. ${again}`
		);
	}
	const returned = input.url.searchParams.get('state');
	if (returned !== flow.state) {
		return refuse(
			400,
			'state_mismatch',
			'This sign-in cannot be finished',
			`The answer from ${settings.name} belongs to another sign-in (its state does not match this browser's). ${again}`
		);
	}
	// Taken whatever comes next: the same cookie and state never finish a second sign-in, even
	// with another code the provider gave for them.
	if (!(await ctx.store.signInFlows.finish(flow.id, Date.now()))) {
		return refuse(
			400,
			'flow_used',
			'This sign-in cannot be finished',
			`This sign-in was finished already (its cookie works once). ${again}`
		);
	}
	let config: client.Configuration;
	try {
		config = await providerConfig(settings);
	} catch (error) {
		return { ok: false, problem: unreachable(settings, describeError(error).detail) };
	}
	const current = new URL(input.origin + CALLBACK_PATH + input.url.search);
	let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
	try {
		tokens = await client.authorizationCodeGrant(config, current, {
			pkceCodeVerifier: flow.verifier,
			expectedState: flow.state,
			expectedNonce: flow.nonce,
			idTokenExpected: true
		});
	} catch (error) {
		if (error instanceof client.AuthorizationResponseError) {
			const said = claimText(error.error, 100);
			const description = claimText(error.error_description, 300);
			return refuse(
				400,
				'provider_refused',
				`${settings.name} did not sign you in`,
				`The identity provider answered "${said}"${description ? `: ${description}` : ''}. ${again}`,
				{ details: { error: said } }
			);
		}
		const { unreachable: down, detail } = describeError(error);
		if (down) return { ok: false, problem: unreachable(settings, detail) };
		logger().warn({ err: error }, 'An answer of the identity provider was refused.');
		return refuse(
			400,
			'provider_answer_refused',
			'The answer of the identity provider was not accepted',
			`${detail}. The code may have been used already, or the token was not meant for this app or has expired. ${again}`,
			{ details: { detail: detail.slice(0, 200) } }
		);
	}
	const idClaims = (tokens.claims() ?? {}) as Claims;
	const subject = String(idClaims.sub ?? '');
	let claims: Claims = idClaims;
	// Groups and e-mail may come only in userinfo (Keycloak mappers, Okta): ask for them when the
	// ID token lacks them.
	const groupsInToken = groupsIn(idClaims, settings.rolesClaim);
	if (
		(groupsInToken.kind === 'absent' && !groupsInToken.overage) ||
		emailOf(idClaims).email === null
	) {
		try {
			const info = (await client.fetchUserInfo(config, tokens.access_token, subject)) as Claims;
			// The ID token's claims win, but for groups it lacks (a nested claim's parent may be
			// there without them).
			const fromInfo = groupsIn(info, settings.rolesClaim);
			claims =
				groupsInToken.kind === 'absent' && fromInfo.kind !== 'absent'
					? { ...info, ...stripPath(idClaims, settings.rolesClaim) }
					: { ...info, ...idClaims };
		} catch (error) {
			logger().warn({ err: error }, 'Userinfo of the identity provider was not read.');
		}
	}
	const issuer = config.serverMetadata().issuer;
	const { email, verified } = emailOf(claims);
	const who = { id: null, email };
	const details = { subject: subject.slice(0, 200) };

	if (
		settings.allowedDomains.length > 0 &&
		!(email && verified && domainAllowed(email, settings.allowedDomains))
	) {
		return refuse(
			403,
			'domain_not_allowed',
			'Your account is not allowed here',
			email && verified
				? `Only addresses in ${settings.allowedDomains.join(', ')} may sign in here; ${settings.name} says yours is ${email}.`
				: `Only verified addresses in ${settings.allowedDomains.join(', ')} may sign in here; ${settings.name} did not send a verified e-mail address.`,
			{ actor: who, details }
		);
	}

	const groups = groupsIn(claims, settings.rolesClaim);
	const role = groups.kind === 'list' ? roleFor(groups.values, settings.groups) : null;
	if (!role) {
		const refusal = refuse(
			403,
			'no_role',
			'No role for your account',
			groups.kind === 'absent' && groups.overage
				? `${settings.name} left your groups out of the token because there are too many of them. Ask an admin to map app roles instead (OIDC_ROLES_CLAIM=roles).`
				: groups.kind === 'absent'
					? `${settings.name} sent no "${settings.rolesClaim}" claim, neither in the ID token nor in userinfo.`
					: groups.kind === 'unreadable'
						? `The "${settings.rolesClaim}" claim is ${groups.type}, not a list of groups.`
						: `None of your groups in the "${settings.rolesClaim}" claim gives a role in this app.`,
			{
				actor: who,
				details: {
					...details,
					claim: settings.rolesClaim,
					groups: groups.kind === 'list' ? groups.values.length : null
				}
			}
		);
		refusal.problem.roles = {
			claim: settings.rolesClaim,
			expected: (['admin', 'editor', 'viewer'] as const)
				.map((r) => ({ role: r, groups: settings.groups[r] }))
				.filter((r) => r.groups.length > 0),
			received: groups.kind === 'list' ? shownGroups(groups.values) : null,
			overage: groups.kind === 'absent' && groups.overage,
			unreadable: groups.kind === 'unreadable' ? groups.type : null
		};
		return refusal;
	}

	const now = Date.now();
	const found = await accountFor(ctx, settings, issuer, subject, claims, role, input.ip, now);
	if (!found.ok)
		return { ...found, actor: found.actor ?? who, details: { ...details, ...found.details } };
	let user = found.user;
	if (!user.active) {
		return refuse(
			403,
			'inactive',
			'Your account is deactivated',
			'An admin deactivated your account in this app. Ask an admin if you need it again.',
			{ actor: { id: user.id, email: user.email }, details }
		);
	}
	if (user.role !== role) {
		const before = user.role;
		// The store refuses, in the write itself, to demote the last active admin.
		const updated = await ctx.store.users.update(user.id, { role, at: now });
		if (updated === 'last_admin') {
			return refuse(
				403,
				'last_admin',
				'Your role cannot change here',
				`You are the last active admin of this app, and your groups at ${settings.name} now give you the role ${role}. Nothing was changed, and you are not signed in: another admin must be made first (on the users page), or an admin of ${settings.name} can add you to an admin group (${settings.groups.admin.join(', ') || 'none is set'}).`,
				{ actor: { id: user.id, email: user.email }, details: { ...details, role } }
			);
		}
		user = updated ?? user;
		// As with a change by an admin: what the old role allowed ends with it.
		await ctx.store.sessions.deleteForUser(user.id);
		await ctx.store.tokens.revokeForUser(user.id, now);
		await recordAudit(
			ctx.store,
			{ id: user.id, email: user.email, ip: input.ip },
			'user.updated',
			user.email,
			{ role, previous: before, by: 'oidc', demoted: isLower(role, before) }
		);
	}
	await ctx.store.identities.touch(issuer, subject, now);
	if (input.previous) await endSession(ctx, input.previous);
	const token = await startSession(ctx, user, {
		ip: input.ip,
		userAgent: input.userAgent,
		method: 'oidc'
	});
	await recordAudit(
		ctx.store,
		{ id: user.id, email: user.email, ip: input.ip },
		'login.success',
		null,
		{ method: 'oidc', issuer, subject: subject.slice(0, 200) }
	);
	return { ok: true, token, user };
}

/** The claims without the value at a dotted path's first part (the ID token's empty groups). */
function stripPath(claims: Claims, path: string): Claims {
	const copy = { ...claims };
	delete copy[path];
	delete copy[path.split('.')[0]];
	return copy;
}

/**
 * The account of an identity: the one linked to it; else a password account with the same e-mail
 * and no identity yet, linked now when the provider says the address is verified (never
 * otherwise); else a new account. An account made by a sign-in holds an address the provider may
 * not have verified: it is never given to another identity by that address.
 */
async function accountFor(
	ctx: ServerContext,
	settings: OidcSettings,
	issuer: string,
	subject: string,
	claims: Claims,
	role: Role,
	ip: string,
	now: number,
	retried = false
): Promise<{ ok: true; user: User } | Refusal> {
	const linked = await ctx.store.identities.find(issuer, subject);
	if (linked) {
		const user = await ctx.store.users.findById(linked.userId);
		if (user) return { ok: true, user };
	}
	const { email, verified } = emailOf(claims);
	if (!email) {
		return refuse(
			403,
			'no_email',
			'No e-mail address',
			`${settings.name} sent no e-mail address for your account, and this app needs one to make your account. Ask an admin to add the "email" scope or claim.`
		);
	}
	const actor: Actor = { id: null, email, ip };
	const existing = await ctx.store.users.findByEmail(email);
	if (existing) {
		if (!verified) {
			return refuse(
				403,
				'email_not_verified',
				'Your account cannot be linked',
				`An account with the e-mail ${email} exists here, but ${settings.name} does not say the address is verified, so it is not linked to your sign-in. Ask an admin.`,
				{ actor: { id: existing.id, email: existing.email } }
			);
		}
		const inUse = () =>
			refuse(
				403,
				'email_in_use',
				'Your account cannot be linked',
				`An account with the e-mail ${email} exists here, and it signs in through another sign-in at ${settings.name}, so it is not linked to yours. An admin can look at that account on the users page, deactivate it if it is not yours, and ask the admins of ${settings.name} whose sign-in it is.`,
				{ actor: { id: existing.id, email: existing.email } }
			);
		if (!hasPassword(existing.passwordHash) || (await ctx.store.identities.linked(existing.id))) {
			return inUse();
		}
		// Linking would hand the admin's account to whoever holds the address at the provider, at
		// the provider's role: an admin is linked only to a sign-in that keeps it an admin.
		if (existing.role === 'admin' && role !== 'admin') {
			return refuse(
				403,
				'admin_not_linked',
				'Your account cannot be linked',
				`The account with the e-mail ${email} here is an admin, and your groups at ${settings.name} give the role ${role}: an admin's account is linked only to a sign-in that keeps it an admin. Sign in with your password, or ask another admin to change your role first.`,
				{ actor: { id: existing.id, email: existing.email }, details: { role } }
			);
		}
		if (!existing.active) return { ok: true, user: existing };
		const identity = { issuer, subject, userId: existing.id, createdAt: now, lastSignInAt: now };
		if (!(await ctx.store.identities.link(identity))) {
			// Not linked now: this identity was linked to it meanwhile (another tab of the same
			// person), or another identity got the account first.
			const meanwhile = await ctx.store.identities.find(issuer, subject);
			if (meanwhile?.userId !== existing.id) return inUse();
		} else {
			await recordAudit(
				ctx.store,
				{ ...actor, id: existing.id },
				'user.identity_linked',
				existing.email,
				{
					issuer,
					subject: subject.slice(0, 200)
				}
			);
		}
		return { ok: true, user: existing };
	}
	let created: User;
	try {
		created = await ctx.store.identities.createAccount(
			{ email, name: nameOf(claims, email), role, passwordHash: NO_PASSWORD, at: now },
			{ issuer, subject }
		);
	} catch (error) {
		// Two first sign-ins of one person at once (two tabs): the other made the account a moment
		// ago, and this one finds it, linked, the second time round.
		if (!retried && (await ctx.store.users.findByEmail(email))) {
			return accountFor(ctx, settings, issuer, subject, claims, role, ip, now, true);
		}
		throw error;
	}
	await recordAudit(ctx.store, { ...actor, id: created.id }, 'user.created', created.email, {
		role,
		by: 'oidc',
		issuer
	});
	return { ok: true, user: created };
}
