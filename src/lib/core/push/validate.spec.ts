import { describe, expect, it } from 'vitest';
import type { Issue } from '../issues';
import { PUSH_SAMPLES, samplePush } from './samples';
import { PushRequestSchema, type PushIssue, type PushTarget } from './schema';
import { validatePush } from './validate';

function render(issues: PushIssue[]): string[] {
	return issues.map((i) => `${i.severity} ${i.code} @${i.path.join('.')}`);
}

const TEXT = 'NotifyTextMessage';
const GENERIC = 'NotifyGenericTextMessage';
const SELECTOR = '12869E0E6E553673C54F29105A0647204C416A2A:7C3A0D14';

describe('validatePush', () => {
	it('accepts every sample without issues, for every target', () => {
		for (const sample of Object.values(PUSH_SAMPLES)) {
			for (const target of ['platformA13', 'platformAOlder', 'platformB', 'unknown'] as const) {
				expect(render(validatePush(sample, { target }).issues)).toEqual([]);
			}
		}
	});

	it('keeps unknown attributes, a __proto__ key included, and warns about them', () => {
		const input = JSON.parse(
			`{"verb":"NotifyReprovision","AppId":"a","DeviceToken":"t","Selector":"${SELECTOR}",` +
				'"__proto__":{"x":1},"appid":"b"}'
		);
		const result = validatePush(input);
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
		expect(JSON.stringify(result.value)).toContain('"__proto__":{"x":1}');
		expect(JSON.parse(JSON.stringify(result.value))).toEqual(input);
		expect(render(result.issues)).toEqual([
			'warning unknown_attribute @__proto__',
			'warning unknown_attribute @appid'
		]);
		expect(result.issues[1].message).toContain('did you mean AppId?');
	});

	it('treats attribute names as case-sensitive', () => {
		const result = validatePush({ ...samplePush(GENERIC, { AppId: undefined }), appId: 'com.a' });
		expect(render(result.issues)).toEqual([
			'error missing_attribute @AppId',
			'warning unknown_attribute @appId'
		]);
	});

	it('ignores inherited attributes', () => {
		const input = Object.create({ Selector: 'inherited' }) as Record<string, unknown>;
		Object.assign(input, samplePush(TEXT, { Selector: undefined }));
		expect(render(validatePush(input).issues)).toEqual(['error missing_attribute @Selector']);
	});

	it.each([
		['null', null],
		['a number', 5],
		['a string', 'x'],
		['a list', [samplePush(TEXT)]],
		['nothing', undefined]
	])('reports %s as not an object', (_name, input) => {
		const result = validatePush(input);
		expect(result.ok).toBe(false);
		expect(render(result.issues)).toEqual(['error not_an_object @']);
	});

	it('does not throw on a value whose reading throws', () => {
		const hostile = new Proxy(
			{},
			{
				ownKeys() {
					throw new Error('boom');
				}
			}
		);
		expect(render(validatePush(hostile).issues)).toEqual(['error unreadable_value @']);
	});

	it('falls back to an unknown target for an invalid option', () => {
		const input = samplePush(TEXT, { Badge: undefined });
		const options = { target: 'mars' } as unknown as { target: PushTarget };
		expect(render(validatePush(input, options).issues)).toEqual([
			'warning badge_recommended @Badge'
		]);
	});

	it('suggests the right spelling of a verb and a sound', () => {
		const verb = validatePush(samplePush(TEXT, { verb: 'notifyreprovision' }));
		expect(verb.issues[0].message).toContain('did you mean NotifyReprovision?');
		const sound = validatePush(samplePush(TEXT, { Sound: 's3' }));
		expect(sound.issues[0].message).toContain('Did you mean s3.caf?');
	});

	it('explains the double notification when Id is missing', () => {
		const [issue] = validatePush(samplePush(TEXT, { Id: undefined })).issues;
		expect(issue.message).toMatch(/notified twice/);
	});

	it('lets a generic text carry an empty Selector, as the schema does', () => {
		const input = samplePush(GENERIC, { Selector: '' });
		expect(validatePush(input).ok).toBe(true);
		expect(PushRequestSchema.safeParse(input).success).toBe(true);
	});

	it('returns a copy, not the input', () => {
		const input = samplePush(GENERIC);
		const result = validatePush(input);
		expect(result.ok && result.value !== input && result.value.Message === input.Message).toBe(
			true
		);
	});

	it('gives issues that fit the shared Issue printers', () => {
		const issues: Issue[] = validatePush(samplePush(TEXT, { Id: undefined })).issues;
		expect(issues.map((i) => i.field)).toEqual(['Id']);
	});
});
