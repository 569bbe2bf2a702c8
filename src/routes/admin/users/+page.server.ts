import { fail } from '@sveltejs/kit';
import { z } from 'zod';
import { resetForUser } from '$lib/server/auth/totp';
import { serverContext } from '$lib/server/platform/context';
import { clientIp, requireUser } from '$lib/server/http/body';
import { createUser, listUsers, NewUserSchema, updateUser } from '$lib/server/auth/users';
import { ROLES } from '$lib/server/store/types';
import type { Actions, PageServerLoad } from './$types';

const RoleSchema = z.enum(['admin', 'editor', 'viewer']);

function text(value: FormDataEntryValue | null): string {
	return typeof value === 'string' ? value : '';
}

export const load: PageServerLoad = async () => ({
	users: await listUsers(serverContext().store),
	roles: [...ROLES].reverse()
});

/**
 * Applies one change to one user; the answer names the row and the control (`role` or
 * `active`), so a refusal shows beside the control that asked for it.
 */
async function change(
	event: Parameters<Actions[string]>[0],
	control: 'role' | 'active',
	changes: (data: FormData) => { role?: z.infer<typeof RoleSchema>; active?: boolean } | null
) {
	const data = await event.request.formData();
	const id = Number(text(data.get('id')));
	const wanted = changes(data);
	if (!Number.isInteger(id) || !wanted) {
		return fail(400, {
			form: 'row' as const,
			id,
			control,
			message: 'That change is not possible.'
		});
	}
	const outcome = await updateUser(
		serverContext(),
		requireUser(event),
		clientIp(event),
		id,
		wanted
	);
	if (!outcome.ok)
		return fail(outcome.status, { form: 'row' as const, id, control, message: outcome.message });
	const { email, role, active } = outcome.user;
	const done =
		wanted.role !== undefined
			? `The role of ${email} is now ${role}; their sessions and API tokens have ended.`
			: `${email} is ${active ? 'active again' : 'deactivated; their sessions and API tokens have ended'}.`;
	return { form: 'row' as const, id, done };
}

export const actions: Actions = {
	/** Creates a user with an initial password. */
	create: async (event) => {
		const data = await event.request.formData();
		const values = {
			email: text(data.get('email')),
			name: text(data.get('name')),
			role: text(data.get('role'))
		};
		const parsed = NewUserSchema.safeParse({ ...values, password: text(data.get('password')) });
		if (!parsed.success) {
			const errors: Record<string, string> = {};
			for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
			if (errors.role) errors.role = 'Choose a role.';
			return fail(400, { form: 'create' as const, values, errors });
		}
		const outcome = await createUser(
			serverContext(),
			requireUser(event),
			clientIp(event),
			parsed.data
		);
		if (!outcome.ok) {
			return fail(outcome.status, {
				form: 'create' as const,
				values,
				errors: { email: outcome.message } as Record<string, string>
			});
		}
		return { form: 'create' as const, created: outcome.user.email };
	},

	/** Changes a user's role (ending their sessions and API tokens). */
	role: (event) =>
		change(event, 'role', (data) => {
			const role = RoleSchema.safeParse(data.get('role'));
			return role.success ? { role: role.data } : null;
		}),

	/** Takes the second factor off a user who lost it; they sign in with their password alone. */
	resetTotp: async (event) => {
		const data = await event.request.formData();
		const id = Number(text(data.get('id')));
		const outcome = Number.isInteger(id)
			? await resetForUser(serverContext(), requireUser(event), clientIp(event), id)
			: null;
		if (!outcome?.ok) {
			return fail(outcome?.status ?? 400, {
				form: 'row' as const,
				id,
				control: 'totp' as const,
				message: outcome?.message ?? 'That change is not possible.'
			});
		}
		const email = text(data.get('email'));
		return {
			form: 'row' as const,
			id,
			done: `The second factor of ${email} is off: they sign in with their password alone.`
		};
	},

	/** Deactivates (ending their sessions and API tokens) or reactivates a user. */
	active: (event) =>
		change(event, 'active', (data) => {
			const active = text(data.get('active'));
			return active === 'true' || active === 'false' ? { active: active === 'true' } : null;
		})
};
