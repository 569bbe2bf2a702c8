import { describe, expect, it } from 'vitest';
import { GALLERY, galleryTemplate } from '../catalogue/gallery';
import { declaredAccountKeys } from '../xml/account';
import { exportXml as exportOnly } from '../xml';
import { SETTINGS_PATH } from '../xml/forms';
import { applyGalleryTemplate, galleryFor } from './gallery';
import { newDocument, type ProfileDocument } from './schema';
import { checkedBySecondParser } from '../../../../tests/helpers/xml';

/** `exportXml`, with every exported document read by a second, independent XML parser. */
const exportXml = checkedBySecondParser(exportOnly);

function withSendMessage(settings: Record<string, string>): ProfileDocument {
	const document = newDocument();
	return { ...document, services: { ...document.services, sendMessage: settings } };
}

describe('applying a gallery template', () => {
	it('replaces the settings of its service and leaves the others alone', () => {
		const before = {
			...withSendMessage({
				genericSmsSendUrl: 'https://old.example.com',
				genericSmsSendContentType: 'text/plain'
			}),
			services: {
				sendMessage: { genericSmsSendUrl: 'https://old.example.com' },
				fetchMessages: { genericSmsFetchUrl: 'https://fetch.example.com' }
			}
		} as ProfileDocument;
		const template = galleryTemplate('get-query-credentials')!;
		const after = applyGalleryTemplate(before, template);
		expect(after.services.sendMessage).toEqual(template.services.sendMessage);
		expect(after.services.fetchMessages).toEqual(before.services.fetchMessages);
		expect(after.scenarios).toBe(before.scenarios);
		expect(before.services.sendMessage).toEqual({ genericSmsSendUrl: 'https://old.example.com' });
	});

	it('declares the provider’s own account keys, credentials empty, once', () => {
		const template = galleryTemplate('own-account-keys')!;
		const after = applyGalleryTemplate(withSendMessage({}), template);
		expect(declaredAccountKeys(after.preservedXml)).toEqual([
			{ name: 'apiUser', value: 'acme-bridge', secret: false },
			{ name: 'apiKey', value: '', secret: true }
		]);
		const again = applyGalleryTemplate(after, template);
		expect(again.preservedXml).toEqual(after.preservedXml);
	});

	it('keeps a key the profile already declares, with its value', () => {
		const before: ProfileDocument = {
			...withSendMessage({}),
			preservedXml: [{ path: SETTINGS_PATH, index: 3, xml: '<apiUser>mine</apiUser>' }]
		};
		const after = applyGalleryTemplate(before, galleryTemplate('own-account-keys')!);
		expect(declaredAccountKeys(after.preservedXml).map((k) => [k.name, k.value])).toEqual([
			['apiUser', 'mine'],
			['apiKey', '']
		]);
		expect(after.preservedXml.at(-1)).toEqual({ path: SETTINGS_PATH, index: 4, xml: '<apiKey/>' });
	});

	it.each(GALLERY.map((t) => [t.id, t] as const))('%s: the result exports', (_, template) => {
		const after = applyGalleryTemplate(newDocument(), template);
		const exported = exportXml(after, 'provisioning');
		expect(exported.ok).toBe(true);
		if (exported.ok) {
			for (const name of Object.keys(template.accountValues ?? {})) {
				expect(exported.value).toContain(`<${name}`);
			}
		}
	});

	it('lists the templates of a service', () => {
		expect(galleryFor(GALLERY, 'pushTokenReporter').map((t) => t.id)).toEqual([
			'push-token-reporter-form'
		]);
		expect(galleryFor(GALLERY, 'sendMessage').length).toBe(7);
		expect(galleryFor(GALLERY, 'fetchMessages').map((t) => t.id)).toEqual([
			'fetch-json-post',
			'fetch-get-query'
		]);
	});
});
