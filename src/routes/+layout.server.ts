import type { LayoutServerLoad } from './$types';

/** The signed-in user for the header (never how they signed in or anything secret), or null. */
export const load: LayoutServerLoad = ({ locals }) => {
	const user = locals.user;
	return {
		user: user ? { id: user.id, email: user.email, name: user.name, role: user.role } : null
	};
};
