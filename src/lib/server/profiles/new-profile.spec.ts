import { describe, expect, it } from 'vitest';
import { makeBackup, newDocument, SECRET_MASK } from '$lib/core/profile';
import { reviewNewProfile, sourceOf } from './new-profile';

const XML =
	'<account><genericSmsSendUrl>https://sms.example.com/?to=%sms_to%</genericSmsSendUrl></account>';

describe('reviewNewProfile', () => {
	it('reviews XML as changes from an empty profile, at revision 0', () => {
		const outcome = reviewNewProfile('xml', XML);
		expect(outcome.ok).toBe(true);
		if (!outcome.ok) return;
		expect(outcome.review.baseRevision).toBe(0);
		expect(outcome.review.changes).toEqual([
			expect.objectContaining({
				path: 'services.sendMessage.genericSmsSendUrl',
				kind: 'added',
				after: 'https://sms.example.com/?to=%sms_to%'
			})
		]);
		// The empty profile's scenarios are kept beside the imported settings.
		expect(outcome.document?.scenarios).toEqual(newDocument().scenarios);
	});

	it('holds back the document while a conflict is not chosen', () => {
		const twice =
			'<genericSmsPostData>a=1</genericSmsPostData><genericSmsSendPostData>b=1</genericSmsSendPostData>';
		const pending = reviewNewProfile('xml', twice);
		expect(pending.ok && pending.document).toBeNull();
		expect(pending.ok && pending.review.conflicts).toHaveLength(1);
		const chosen = reviewNewProfile('xml', twice, { 'sendMessage.genericSmsSendPostData': 1 });
		expect(chosen.ok && chosen.document?.services.sendMessage?.genericSmsSendPostData).toBe('b=1');
	});

	it('refuses unreadable XML with its line and column', () => {
		const outcome = reviewNewProfile('xml', '<account>\n<a>&</a></account>');
		expect(outcome).toMatchObject({ ok: false, reason: 'invalid' });
		expect(!outcome.ok && outcome.reason === 'invalid' && outcome.issues[0].message).toMatch(
			/line 2, column \d+/
		);
	});

	it('takes a backup whole, saying secrets left out must be entered again', () => {
		const document = {
			...newDocument(),
			scenarios: [{ name: 'Default', values: { 'account[password]': SECRET_MASK } }]
		};
		const profile = { id: 'other', name: 'Other', revision: 3, savedAt: 1 };
		const backup = makeBackup(profile as never, document, 'left_out', new Date(0));
		const outcome = reviewNewProfile('backup', JSON.stringify(backup));
		expect(outcome.ok).toBe(true);
		if (!outcome.ok) return;
		expect(outcome.review.issues.map((i) => i.code)).toEqual(['backup_secrets_left_out']);
		expect(outcome.review.issues[0].message).toContain('enter them again in the new profile');
		expect(outcome.document?.scenarios).toEqual(document.scenarios);
	});
});

describe('sourceOf', () => {
	it('reads the way in, anything unknown as an empty profile', () => {
		expect(['xml', 'backup', 'empty', 'other', null].map(sourceOf)).toEqual([
			'xml',
			'backup',
			'empty',
			'empty',
			'empty'
		]);
	});
});
