import { describe, expect, it } from 'vitest';
import { presentPush, soundWords } from './device';
import { samplePush } from './samples';
import type { PushRequest } from './schema';

const text = (extra: Record<string, unknown> = {}) =>
	samplePush('NotifyTextMessage', extra) as PushRequest;

describe('presentPush', () => {
	it('shows NotifyTextMessage on platform A 13+ as a notification with everything it carries', () => {
		const shown = presentPush(
			text({
				UserName: 'Alice',
				Message: 'Hi',
				Badge: 3,
				Sound: 's2.caf',
				ThreadId: 't1',
				Id: 'm1'
			}),
			'platformA13'
		);
		expect(shown).toMatchObject({
			kind: 'notification',
			sender: 'Alice',
			text: 'Hi',
			badge: 3,
			sound: 'Chime (s2.caf)',
			thread: 't1',
			messageId: 'm1',
			warnings: []
		});
		expect(shown.notes.join(' ')).toContain('sms_id "m1"');
	});

	it.each(['platformAOlder', 'platformB'] as const)(
		'shows NotifyTextMessage on %s as a silent push that starts a background fetch',
		(target) => {
			const shown = presentPush(text({ Id: 'm2' }), target);
			expect(shown.kind).toBe('background-fetch');
			expect(shown.notes.join(' ')).toMatch(/Fetch Messages.*sms_id "m2"/);
			expect(shown.warnings).toEqual([]);
		}
	);

	it('warns of a double notification when Id is missing', () => {
		const shown = presentPush(text({ Id: undefined }), 'platformB');
		expect(shown.warnings.join(' ')).toMatch(/notified twice/);
	});

	it('says how an unknown platform differs', () => {
		const shown = presentPush(text(), 'unknown');
		expect(shown.kind).toBe('notification');
		expect(shown.notes.at(-1)).toMatch(/arrives silently/);
	});

	it('shows a generic text as its text, and a reprovision as a reload without notification', () => {
		const generic = presentPush(
			samplePush('NotifyGenericTextMessage', { Message: 'Sale' }) as PushRequest,
			'platformB'
		);
		expect(generic).toMatchObject({ kind: 'text', text: 'Sale' });
		const reload = presentPush(samplePush('NotifyReprovision') as PushRequest, 'platformA13');
		expect(reload.headline).toBe('Configuration reloaded');
		expect(reload.notes).toContain('No notification is shown.');
	});
});

describe('soundWords', () => {
	it.each([
		[undefined, 'Silent'],
		['', 'Silent'],
		['default', 'Default sound'],
		['s5.caf', 'Bell (s5.caf)'],
		['ding.wav', '"ding.wav", not a bundled sound name']
	])('%s → %s', (sound, words) => {
		expect(soundWords(sound)).toBe(words);
	});
});
