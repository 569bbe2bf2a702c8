import { fail, redirect } from '@sveltejs/kit';
import { setSessionCookie } from '$lib/server/auth/cookie';
import { startSession } from '$lib/server/auth/session';
import { checkSetupToken, consumeSetupToken } from '$lib/server/auth/setup';
import { serverContext } from '$lib/server/platform/context';
import { clientIp } from '$lib/server/http/body';
import { createUser, NewUserFields, passwordNotEmail } from '$lib/server/auth/users';
import type { Actions, PageServerLoad } from './$types';

type FieldErrors = Record<string, string>;

/** Why the form is not offered: users exist, or the link's token is missing, wrong or expired. */
type Closed = 'done' | 'invalid';

async function closedReason(token: string): Promise<Closed | null> {
	if ((await serverContext().store.users.count()) > 0) return 'done';
	return checkSetupToken(token) ? null : 'invalid';
}

const AdminSchema = NewUserFields.omit({ role: true }).superRefine(passwordNotEmail);

function text(value: FormDataEntryValue | null): string {
	return typeof value === 'string' ? value : '';
}

export const load: PageServerLoad = async ({ url }) => {
	const token = url.searchParams.get('token') ?? '';
	const closed = await closedReason(token);
	return { closed, token: closed ? '' : token };
};

export const actions: Actions = {
	/** Creates the first admin, uses the link up, and signs the new admin in. */
	default: async (event) => {
		const data = await event.request.formData();
		const token = text(data.get('token'));
		const closed = await closedReason(token);
		if (closed) return fail(403, { closed, values: null, errors: {} as FieldErrors });
		const values = { email: text(data.get('email')), name: text(data.get('name')) };
		const password = text(data.get('password'));
		const errors: FieldErrors = {};
		const parsed = AdminSchema.safeParse({ ...values, password });
		if (!parsed.success) {
			for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
		}
		if (password !== text(data.get('confirm'))) errors.confirm = 'The two passwords differ.';
		if (!parsed.success || errors.confirm) return fail(400, { closed: null, values, errors });

		// Used up before the (slow) hashing, so two submissions cannot both create an admin.
		consumeSetupToken();
		const ctx = serverContext();
		const ip = clientIp(event);
		const outcome = await createUser(ctx, null, ip, { ...parsed.data, role: 'admin' });
		if (!outcome.ok)
			return fail(outcome.status, { closed: 'done' as const, values, errors: {} as FieldErrors });
		const user = (await ctx.store.users.findById(outcome.user.id))!;
		const session = await startSession(ctx, user, {
			ip,
			userAgent: event.request.headers.get('user-agent')
		});
		setSessionCookie(event.cookies, event.url, ctx, session);
		redirect(303, '/');
	}
};
