import { describe, expect, it } from 'vitest';
import { buildRequests } from '../request';
import { interpretResponse } from '../response';
import { GALLERY, galleryTemplate } from './gallery';
import { SourceSchema } from './schema';
import { sampleValues } from './samples';
import { findService } from './services';

describe('the gallery', () => {
	it('has about eight templates with unique ids', () => {
		expect(GALLERY.length).toBeGreaterThanOrEqual(8);
		expect(new Set(GALLERY.map((t) => t.id)).size).toBe(GALLERY.length);
		expect(galleryTemplate('json-sms-id')?.title).toContain('sms_id');
		expect(galleryTemplate('nope')).toBeUndefined();
	});

	it.each(GALLERY.map((t) => [t.id, t] as const))(
		'%s: only settings the catalogue knows, built without errors',
		(_, template) => {
			for (const [serviceId, settings] of Object.entries(template.services)) {
				const service = findService(serviceId);
				expect(service?.kind).toBe('template');
				const keys = new Set(service!.keys.map((k) => k.key));
				for (const key of Object.keys(settings)) expect(keys).toContain(key);
				const accountKeys = Object.entries(template.accountValues ?? {}).map(([name, value]) => ({
					name,
					value,
					secret: value === ''
				}));
				const built = buildRequests({
					service: serviceId,
					settings,
					values: sampleValues(service!, accountKeys) as never,
					accountKeys
				});
				expect(built.requests.length).toBeGreaterThan(0);
				expect(built.issues.filter((i) => i.severity === 'error')).toEqual([]);
			}
		}
	);

	it('an answer marked misread is one the platform reads as a success without an sms_id', () => {
		const misread = GALLERY.filter((t) => t.answer?.misread);
		expect(misread.map((t) => t.id)).toEqual(['static-token-query', 'error-flag-http-200']);
		for (const { answer } of misread) {
			const reading = interpretResponse(answer!.service, {
				status: answer!.status,
				headers: { 'content-type': answer!.contentType ?? '' },
				body: answer!.body
			});
			expect(reading.success).toBe(true);
			expect(reading.action.kind).toBe('success');
		}
	});

	it('has Fetch Messages as a JSON POST with both last known ids and as a GET, each answer read', () => {
		const fetch = GALLERY.filter((t) => t.services.fetchMessages);
		expect(fetch.map((t) => t.id)).toEqual(['fetch-json-post', 'fetch-get-query']);
		const [post, get] = fetch.map((t) =>
			buildRequests({
				service: 'fetchMessages',
				settings: t.services.fetchMessages,
				values: sampleValues(findService('fetchMessages')!) as never
			})
		);
		expect(post.requests[0].method).toBe('POST');
		expect(post.requests[0].body).toContain('"last_known_sms_id": "Msg-7f3a9c21"');
		expect(post.requests[0].body).toContain('"last_known_sent_sms_id": "Out-0042+a/b="');
		expect(get.requests[0].method).toBe('GET');
		expect(get.requests[0].url).toContain('last_id=Msg-7f3a9c21');
		for (const { answer } of fetch) {
			const reading = interpretResponse('fetchMessages', {
				status: answer!.status,
				headers: { 'content-type': answer!.contentType ?? '' },
				body: answer!.body
			});
			expect(reading.action.kind).toBe('fetchedMessages');
			expect(reading.issues).toEqual([]);
		}
	});

	it.each([
		['balanceChecker', ['balance-legacy-xml', 'balance-json-post'], 'balance'],
		['rateChecker', ['rate-json-post', 'rate-legacy-get'], 'rate'],
		['accountRemovalReporter', ['account-removal-json'], 'report'],
		['pushNotificationReporter', ['push-delivery-get'], 'report'],
		['webServiceContacts', ['contacts-get-digest', 'contacts-json-post'], 'contacts']
	])(
		'has real styles for %s, each with its source, each answer read as a success',
		(id, ids, kind) => {
			const templates = GALLERY.filter((t) => t.services[id]);
			expect(templates.map((t) => t.id)).toEqual(ids);
			for (const template of templates) {
				expect(SourceSchema.parse(template.source)).toEqual(template.source);
				const { answer } = template;
				expect(answer?.service).toBe(id);
				const reading = interpretResponse(id, {
					status: answer!.status,
					headers: answer!.contentType ? { 'content-type': answer!.contentType } : {},
					body: answer!.body
				});
				expect([reading.success, reading.action.kind]).toEqual([true, kind]);
				expect(reading.issues.filter((i) => i.severity !== 'info')).toEqual([]);
			}
		}
	);

	it('has contacts as a GET behind Digest and as a JSON POST, no password among the settings', () => {
		const [get, post] = ['contacts-get-digest', 'contacts-json-post'].map((id) => {
			const template = galleryTemplate(id)!;
			expect(template.services.webServiceContacts).not.toHaveProperty('wsContactsAuthPassword');
			return buildRequests({
				service: 'webServiceContacts',
				settings: template.services.webServiceContacts,
				values: sampleValues(findService('webServiceContacts')!) as never
			}).requests[0];
		});
		expect(get.method).toBe('GET');
		expect(galleryTemplate('contacts-get-digest')!.services.webServiceContacts).toMatchObject({
			wsContactsAuthUsername: expect.any(String)
		});
		expect(post.method).toBe('POST');
		expect(post.body).toContain('"username": "alice"');
	});
});
