import { ROLES, type Role } from '../store/types';

/**
 * Who may do what, as one table: every request is matched against these rules in order and
 * needs the role of the first rule that matches. Enforced in `hooks.server.ts`, so no page,
 * form action or endpoint can forget it.
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
	{ methods: ['GET'], path: /^\/api\/health\/?$/, access: 'public' },
	{ methods: '*', path: /^\/(admin|api\/users|api\/audit)(\/|$)/, access: 'admin' },
	{ methods: '*', path: /^\/(logout|account)(\/|$)/, access: 'user' },
	{ methods: '*', path: /^\/api\/(session|tokens|me)(\/|$)/, access: 'user' },
	{ methods: ['POST'], path: /^\/api\/preview\/?$/, access: 'viewer' },
	{ methods: READ, path: /^\//, access: 'viewer' },
	{ methods: '*', path: /^\//, access: 'editor' }
];

/** The access a request needs. */
export function requiredAccess(method: string, pathname: string): Access {
	for (const rule of RULES) {
		if (rule.methods !== '*' && !rule.methods.includes(method)) continue;
		if (rule.path.test(pathname)) return rule.access;
	}
	return 'admin';
}

/** True when a user with `role` has `access`. */
export function allows(role: Role, access: Access): boolean {
	if (access === 'public' || access === 'user') return true;
	return ROLES.indexOf(role) >= ROLES.indexOf(access);
}
