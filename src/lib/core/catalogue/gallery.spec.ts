import { describe, expect, it } from 'vitest';
import { buildRequests } from '../request';
import { interpretResponse } from '../response';
import { GALLERY, galleryTemplate } from './gallery';
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
});
