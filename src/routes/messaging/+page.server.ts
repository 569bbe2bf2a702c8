import { error } from '@sveltejs/kit';
import { ownAccountValues } from '$lib/core/flows/inputs';
import { serverContext } from '$lib/server/platform/context';
import { headDocument } from '$lib/server/profiles';
import { listSandboxes } from '$lib/server/push/sandboxes';
import type { PageServerLoad } from './$types';

/**
 * Two virtual phones of a profile in a sandbox (`?profile=` and `?sandbox=`); the sandbox is by
 * default the one the profile's push gateway URL names. The sender's account defaults to the
 * profile's own (a secret value is never sent to the page: it is typed).
 */
export const load: PageServerLoad = async ({ url, locals }) => {
	const ctx = serverContext();
	const profiles = (await ctx.store.profiles.list({ deleted: false }))
		.map((p) => ({ id: p.id, name: p.name }))
		.sort((a, b) => a.name.localeCompare(b.name));
	const sandboxes = (await listSandboxes(ctx, url.origin)).map((s) => ({
		id: s.id,
		name: s.name,
		pushUrl: s.pushUrl
	}));
	const profileId = url.searchParams.get('profile');
	const profile = profileId ? profiles.find((p) => p.id === profileId) : undefined;
	if (profileId && !profile) error(404, 'There is no such profile.');
	const document = profile ? await headDocument(ctx, profile.id) : undefined;
	const sandboxParam = url.searchParams.get('sandbox');
	const gateway = document?.push.gatewayUrl.trim().replace(/\/+$/, '');
	const sandbox = sandboxParam
		? sandboxes.find((s) => s.id === sandboxParam)
		: sandboxes.find((s) => s.pushUrl === gateway);
	if (sandboxParam && !sandbox) error(404, 'There is no such push sandbox.');
	const own = document ? ownAccountValues(document.preservedXml) : {};
	const text = (name: string) => {
		const value = own[`account[${name}]`];
		return typeof value === 'string' ? value : '';
	};
	const role = locals.user?.role;
	return {
		profiles,
		sandboxes,
		profile: profile ?? null,
		sandbox: sandbox ?? null,
		gatewayIsSandbox: !!sandbox && sandbox.pushUrl === gateway,
		account: {
			username: text('username'),
			password: text('password'),
			displayName: text('display_name')
		},
		canRun: role === 'admin' || role === 'editor'
	};
};
