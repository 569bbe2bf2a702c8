import { ROLES, type Role } from '../store/types';

/**
 * Who may do what, as one table: every request is matched against these rules in order and
 * needs the role of the first rule that matches. Enforced in `hooks.server.ts`, so no page,
 * form action or endpoint can forget it (and, with the same functions, by the test-call endpoint
 * the start script serves before the kit, `direct-api.ts`).
 */

/** `public`: no session needed; `user`: any signed-in user; else the least role needed. */
export type Access = 'public' | 'user' | Role;

interface Rule {
	methods: '*' | string[];
	path: RegExp;
	access: Access;
}

const READ = ['GET', 'HEAD', 'OPTIONS'];

const RULES: Rule[] = [
	{ methods: '*', path: /^\/_app\//, access: 'public' },
	{ methods: '*', path: /^\/(favicon\.[a-z]+|robots\.txt)$/, access: 'public' },
	{ methods: '*', path: /^\/(login|setup)\/?$/, access: 'public' },
	{ methods: ['POST'], path: /^\/api\/session\/?$/, access: 'public' },
	// Single sign-on's start and the provider's way back come before any session.
	{ methods: ['GET', 'HEAD'], path: /^\/auth\/oidc\/(start|callback)\/?$/, access: 'public' },
	{ methods: ['GET'], path: /^\/api\/health(\/(live|ready))?\/?$/, access: 'public' },
	// The API's published contract and its reference page.
	{ methods: ['GET', 'HEAD'], path: /^\/api\/(openapi\.json|docs)\/?$/, access: 'public' },
	// Echo sinks are addressed by their secret key, called by anyone who has it.
	{ methods: '*', path: /^\/sink\//, access: 'public' },
	// So are push sandboxes: a provider's server calls them with the key in the address.
	{ methods: '*', path: /^\/sandbox\//, access: 'public' },
	{ methods: '*', path: /^\/(admin|api\/users|api\/audit)(\/|$)/, access: 'admin' },
	{
		methods: '*',
		path: /^\/api\/profiles\/[^/]+\/(backup|export\.xml)\/secrets\/?$/,
		access: 'admin'
	},
	{ methods: '*', path: /^\/(logout|account)(\/|$)/, access: 'user' },
	{ methods: '*', path: /^\/api\/(session|tokens|me)(\/|$)/, access: 'user' },
	{ methods: ['POST'], path: /^\/api\/preview\/?$/, access: 'viewer' },
	// What sinks recorded may hold credentials a caller sent: editors and admins only.
	{ methods: '*', path: /^\/(sinks|api\/sinks)(\/|$)/, access: 'editor' },
	{ methods: READ, path: /^\//, access: 'viewer' },
	{ methods: '*', path: /^\//, access: 'editor' }
];

/**
 * The path as the router matches it: SvelteKit decodes the pathname (all but `%25`) before it
 * looks for a route, so `/api/%75sers` is `/api/users`. A path that does not decode is left as
 * it is (the router answers it 400).
 */
export function routedPath(pathname: string): string {
	try {
		return pathname.split('%25').map(decodeURI).join('%25');
	} catch {
		return pathname;
	}
}

/** The access a request needs (`pathname` as in the URL, percent-encoded or not). */
export function requiredAccess(method: string, pathname: string): Access {
	const path = routedPath(pathname);
	for (const rule of RULES) {
		if (rule.methods !== '*' && !rule.methods.includes(method)) continue;
		if (rule.path.test(path)) return rule.access;
	}
	return 'admin';
}

/** True when a user with `role` has `access`. */
export function allows(role: Role, access: Access): boolean {
	if (access === 'public' || access === 'user') return true;
	return ROLES.indexOf(role) >= ROLES.indexOf(access);
}
