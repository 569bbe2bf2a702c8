import type { GalleryTemplate } from '../catalogue/gallery';
import { declaredAccountKeys } from '../xml/account';
import { SETTINGS_PATH } from '../xml/forms';
import type { ProfileDocument } from './schema';

/**
 * A gallery template applied to a profile document: the settings of each of its services
 * replace that service's settings (a starting point replaces, it does not mix with what was
 * there), and the provider's own account keys it uses are declared as kept account elements
 * (`<apiUser>acme-bridge</apiUser>`), after those already kept, unless the profile already
 * declares a key of that name. Credentials are declared empty: their values are never part of a
 * template. Everything else of the document is left as it is.
 */
export function applyGalleryTemplate(
	document: ProfileDocument,
	template: GalleryTemplate
): ProfileDocument {
	const services = { ...document.services } as Record<string, Record<string, string>>;
	for (const [serviceId, settings] of Object.entries(template.services)) {
		services[serviceId] = { ...settings };
	}
	const declared = new Set(declaredAccountKeys(document.preservedXml).map((k) => k.name));
	const preservedXml = [...document.preservedXml];
	let index = Math.max(
		-1,
		...preservedXml.filter((p) => p.path === SETTINGS_PATH).map((p) => p.index)
	);
	for (const [name, value] of Object.entries(template.accountValues ?? {})) {
		if (declared.has(name)) continue;
		index += 1;
		preservedXml.push({
			path: SETTINGS_PATH,
			index,
			xml: value === '' ? `<${name}/>` : `<${name}>${escapeText(value)}</${name}>`
		});
	}
	return { ...document, services: services as ProfileDocument['services'], preservedXml };
}

function escapeText(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The gallery templates that set this service. */
export function galleryFor(
	gallery: readonly GalleryTemplate[],
	serviceId: string
): GalleryTemplate[] {
	return gallery.filter((t) => Object.hasOwn(t.services, serviceId));
}
