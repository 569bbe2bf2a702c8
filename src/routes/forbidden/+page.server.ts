import { error } from '@sveltejs/kit';
import { allows, requiredAccess, routedPath } from '$lib/server/auth/access';
import type { PageServerLoad } from './$types';

/** The methods a refused request may have had; anything else reads as GET. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** The names of the app's sections, as the navigation says them. */
const SECTIONS: [RegExp, string][] = [
	[/^\/admin\/users(\/|$)/, 'Users'],
	[/^\/admin\/audit(\/|$)/, 'Audit log'],
	[/^\/admin(\/|$)/, 'Administration'],
	[/^\/sinks(\/|$)/, 'Echo sinks'],
	[/^\/profiles(\/|$)/, 'Profiles'],
	[/^\/sandboxes(\/|$)/, 'Push sandboxes'],
	[/^\/account(\/|$)/, 'Account']
];

/**
 * The page the hooks answer (status 403) when the user's role does not allow a page: it renders
 * inside the app's layout, so the navigation and the user's menu are there. The hooks ask for it
 * with the refused request's method and path only; what was needed is worked out here again from
 * the same access table, so nothing the address says is shown as a reason. Only the hooks' own
 * request reaches it: opened directly, or for a request that would be allowed, there is no page.
 */
export const load: PageServerLoad = ({ url, locals, isSubRequest }) => {
	const user = locals.user;
	const method = (url.searchParams.get('method') ?? 'GET').toUpperCase();
	const path = routedPath(url.searchParams.get('path') ?? '');
	if (!isSubRequest || !user || !path.startsWith('/')) error(404, 'Not Found');
	const access = requiredAccess(METHODS.has(method) ? method : 'GET', path);
	if (access === 'public' || access === 'user' || allows(user.role, access)) {
		error(404, 'Not Found');
	}
	return {
		refused: {
			path,
			section: SECTIONS.find(([pattern]) => pattern.test(path))?.[1] ?? null,
			change: !['GET', 'HEAD'].includes(method),
			needed: access,
			role: user.role
		}
	};
};
