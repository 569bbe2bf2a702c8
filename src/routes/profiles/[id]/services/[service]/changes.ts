import { getService } from '$lib/core/catalogue';
import type { ProfileDocument } from '$lib/core/profile';
import { diffDocuments } from '$lib/core/profile/diff';

/**
 * "2 changed fields in Send Message": what a discard of a draft drops. The push settings' page is
 * named `pushTitle`.
 */
export function describeChanges(
	saved: ProfileDocument,
	draft: ProfileDocument,
	pushTitle: string
): string {
	const changes = diffDocuments(saved, draft);
	const services = [
		...new Set(
			changes
				.map((c) => /^services\.([^.]+)\./.exec(c.path)?.[1])
				.filter((id): id is string => id !== undefined)
				.map((id) => getService(id).title)
		),
		...(changes.some((c) => c.path.startsWith('push.')) ? [pushTitle] : [])
	];
	const count = changes.length === 1 ? 'one changed field' : `${changes.length} changed fields`;
	return services.length ? `${count} in ${services.join(', ')}` : count;
}
