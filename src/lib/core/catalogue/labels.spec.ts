import { describe, expect, it } from 'vitest';
import { elementTag, pushSettingLabel, settingLabel } from './labels';
import { SERVICES } from './services';

describe('settingLabel', () => {
	it('names a setting by its service title and its label', () => {
		expect(settingLabel('sendMessage', 'genericSmsSendUrl')).toBe('Send Message · URL');
		expect(settingLabel('mediaRefSend', 'genericMediaRefSendMethod')).toBe(
			'Media Reference Send · Method'
		);
	});

	it('gives every key of every service a label without its configuration name', () => {
		for (const service of SERVICES) {
			for (const key of service.keys) {
				const label = settingLabel(service.id, key.key);
				expect(label.startsWith(`${service.title} · `)).toBe(true);
				expect(label).not.toContain(key.key);
			}
		}
	});

	it('says which setting replaces a deprecated key', () => {
		expect(settingLabel('sendMessage', 'genericSmsPostData')).toBe(
			'Send Message · genericSmsPostData (deprecated, replaced by Post data)'
		);
	});

	it('shows an unknown key or service as written', () => {
		expect(settingLabel('sendMessage', 'custom')).toBe('Send Message · custom');
		expect(settingLabel('nope', 'custom')).toBe('nope · custom');
	});
});

describe('pushSettingLabel', () => {
	it('names the push settings in words', () => {
		expect(pushSettingLabel('gatewayUrl')).toBe('Push gateway URL');
		expect(pushSettingLabel('other')).toBe('Push · other');
	});
});

describe('elementTag', () => {
	it('reads the tag of an element, with or without attributes', () => {
		expect(elementTag('<codec>opus</codec>')).toBe('codec');
		expect(elementTag('  <x:y a="1"/>')).toBe('x:y');
		expect(elementTag('<empty/>')).toBe('empty');
		expect(elementTag('text')).toBeNull();
		expect(elementTag('<!-- c -->')).toBeNull();
	});
});
