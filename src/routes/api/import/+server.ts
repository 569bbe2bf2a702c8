import { json } from '@sveltejs/kit';
import type { XmlImportReview } from '$lib/api-schemas/profiles';
import { maskKeptCredentials } from '$lib/core/profile';
import { decodeXmlBytes, importXml } from '$lib/core/xml';
import { serverContext } from '$lib/server/platform/context';
import { apiError } from '$lib/server/http/body';
import { unreadable } from '$lib/server/profiles/api';
import { reviewXmlImport } from '$lib/server/profiles/io';
import type { RequestHandler } from './$types';

/**
 * Reads XML (the body, as UTF-8) and answers the settings and issues found; saves nothing. With
 * `?profile=<id>`, also what importing it into that profile's head would change.
 */
export const POST: RequestHandler = async ({ request, url }) => {
	const type = request.headers.get('content-type') ?? '';
	if (!/^(application|text)\/xml\s*(;|$)/i.test(type)) {
		return apiError(415, 'unsupported_media_type', 'Send the XML as application/xml.');
	}
	const decoded = decodeXmlBytes(new Uint8Array(await request.arrayBuffer()));
	if (!decoded.ok) return unreadable('invalid_xml', [decoded.issue]);
	const imported = importXml(decoded.text);
	if (!imported.ok) return unreadable('invalid_xml', imported.issues);
	const { form, services, preservedXml, conflicts } = imported.value;
	// Credentials of the XML (`<password>`) are secrets: never sent back, even to who sent them.
	const kept = maskKeptCredentials(preservedXml);
	const answer = {
		form,
		services,
		preservedXml: kept,
		conflicts,
		issues: imported.issues
	} satisfies XmlImportReview;
	const profile = url.searchParams.get('profile');
	if (profile === null) return json(answer);
	const reviewed = await reviewXmlImport(serverContext(), profile, decoded.text);
	if (!reviewed.ok) return apiError(404, 'not_found', 'No such profile.');
	const { baseRevision, changes } = reviewed.review;
	return json({ ...answer, baseRevision, changes } satisfies XmlImportReview);
};
