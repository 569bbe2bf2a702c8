import { describe, expect, it } from 'vitest';
import { kindOf, MEDIA_EXAMPLE, MESSAGE_KINDS, messageProblem } from './kinds';

const text = (dispositionNotification: string | null, contentType = 'text/plain', body = 'Hi') =>
	messageProblem({ body, contentType, dispositionNotification });

describe('the kinds of message Send Message carries', () => {
	it('tells each kind by its content type, whatever the vendor part', () => {
		expect(MESSAGE_KINDS.map((k) => kindOf(k.contentType))).toEqual([
			'text',
			'media',
			'disposition'
		]);
		expect(kindOf('application/x-other-filetransfer+json')).toBe('media');
		expect(kindOf('text/html')).toBeNull();
	});

	it('takes the disposition notifications the contract names, or none', () => {
		for (const dn of [null, '', 'Msg-1:display', 'a@b.example:positive-delivery,display']) {
			expect(text(dn)).toBeNull();
		}
		expect(text('Msg-1:display,display')?.message).toBe(
			'disposition_notification names a kind twice.'
		);
		expect(text('Msg 1:display')?.field).toBe('disposition_notification');
		expect(text('Msg-1:display,')?.field).toBe('disposition_notification');
		expect(text(`${'x'.repeat(129)}:display`)?.field).toBe('disposition_notification');
	});

	it('wants a media body that is the file-transfer JSON, and a notification for a notification', () => {
		const media = MESSAGE_KINDS[1].contentType;
		expect(text(null, media, MEDIA_EXAMPLE)).toBeNull();
		expect(text(null, media, '{"attachments":[{}]}')?.message).toMatch(
			/attachments\[0\] has no content-url/
		);
		const notification = MESSAGE_KINDS[2].contentType;
		expect(text('', notification)?.field).toBe('disposition_notification');
		expect(text(null, notification)).toBeNull();
	});
});
