import { checkedValues, groupList } from '../platform/environment';
import type { GroupMapping } from './oidc-claims';

/** How people may sign in: with a password (who), and through OpenID Connect (when set). */
export interface SignInSettings {
	/** `all`: everyone; `admins`: admins only; `off`: no one (OpenID Connect is then set). */
	password: 'all' | 'admins' | 'off';
	oidc: OidcSettings | null;
}

/** Sign-in through an OpenID Connect provider, from `OIDC_*`. */
export interface OidcSettings {
	issuer: URL;
	clientId: string;
	clientSecret: string;
	/** The button says "Sign in with <name>". */
	name: string;
	scopes: string;
	rolesClaim: string;
	groups: GroupMapping;
	/** Domains a verified e-mail must be in; empty allows any. */
	allowedDomains: string[];
	allowInsecureHttp: boolean;
	/** Signing out also ends the provider's session, when it offers to. */
	logout: boolean;
}

const NAMES = [
	'PASSWORD_SIGN_IN',
	'OIDC_ISSUER',
	'OIDC_CLIENT_ID',
	'OIDC_CLIENT_SECRET',
	'OIDC_NAME',
	'OIDC_SCOPES',
	'OIDC_ROLES_CLAIM',
	'OIDC_ADMIN_GROUPS',
	'OIDC_EDITOR_GROUPS',
	'OIDC_VIEWER_GROUPS',
	'OIDC_ALLOWED_DOMAINS',
	'OIDC_ALLOW_INSECURE_HTTP',
	'OIDC_LOGOUT'
] as const;

/**
 * Reads the sign-in settings, each variable checked by its rule (`environment.ts`, which also
 * checks them against each other when the app starts).
 */
export function readSignInSettings(env: NodeJS.ProcessEnv = process.env): SignInSettings {
	const v = checkedValues(env, NAMES);
	const password =
		v.PASSWORD_SIGN_IN === 'admins' || v.PASSWORD_SIGN_IN === 'off' ? v.PASSWORD_SIGN_IN : 'all';
	if (!v.OIDC_ISSUER || !v.OIDC_CLIENT_ID || !v.OIDC_CLIENT_SECRET) return { password, oidc: null };
	return {
		password,
		oidc: {
			issuer: new URL(v.OIDC_ISSUER),
			clientId: v.OIDC_CLIENT_ID,
			clientSecret: v.OIDC_CLIENT_SECRET,
			name: v.OIDC_NAME || 'single sign-on',
			scopes: v.OIDC_SCOPES ?? 'openid email profile',
			rolesClaim: v.OIDC_ROLES_CLAIM ?? 'groups',
			groups: {
				admin: groupList(v.OIDC_ADMIN_GROUPS),
				editor: groupList(v.OIDC_EDITOR_GROUPS),
				viewer: groupList(v.OIDC_VIEWER_GROUPS)
			},
			allowedDomains: groupList(v.OIDC_ALLOWED_DOMAINS),
			allowInsecureHttp: v.OIDC_ALLOW_INSECURE_HTTP === '1',
			logout: v.OIDC_LOGOUT === '1'
		}
	};
}

let settings: SignInSettings | undefined;

/** The sign-in settings of this process, read once. */
export function signInSettings(): SignInSettings {
	settings ??= readSignInSettings();
	return settings;
}
