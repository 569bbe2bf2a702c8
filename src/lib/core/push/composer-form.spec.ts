import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	composerFields,
	fieldText,
	lineColumn,
	moveItem,
	otherAttributes,
	readJsonText,
	typedValue,
	withAttribute
} from './composer-form';

describe('composerFields', () => {
	it('marks Selector required for NotifyTextMessage and Badge only on platform A 13+', () => {
		const unknown = composerFields('NotifyTextMessage', 'unknown');
		const a13 = composerFields('NotifyTextMessage', 'platformA13');
		const req = (fields: typeof unknown) => fields.filter((f) => f.required).map((f) => f.name);
		expect(req(unknown)).toEqual(['AppId', 'DeviceToken', 'Selector']);
		expect(req(a13)).toEqual(['AppId', 'DeviceToken', 'Selector', 'Badge']);
		expect(a13.find((f) => f.name === 'Badge')!.requiredWhy).toMatch(/platform A 13/);
		expect(unknown.map((f) => f.name)).toContain('UserDisplayName');
	});

	it('gives NotifyGenericTextMessage a required Message and an optional Selector', () => {
		const fields = composerFields('NotifyGenericTextMessage', 'platformA13');
		expect(fields.find((f) => f.name === 'Message')!.required).toBe(true);
		expect(fields.find((f) => f.name === 'Selector')!.required).toBe(false);
		expect(fields.map((f) => f.name)).not.toContain('Badge');
	});

	it('gives NotifyReprovision no text, badge or sound', () => {
		const names = composerFields('NotifyReprovision', 'unknown').map((f) => f.name);
		expect(names).toEqual(['AppId', 'DeviceToken', 'Selector']);
	});
});

describe('typedValue and withAttribute', () => {
	it('reads a whole number typed in an integer field as a number, anything else as text', () => {
		expect(typedValue('3', 'integer')).toBe(3);
		expect(typedValue(' 12 ', 'integer')).toBe(12);
		expect(typedValue('3a', 'integer')).toBe('3a');
		expect(typedValue('99999999999999999999', 'integer')).toBe('99999999999999999999');
		expect(typedValue('3', 'string')).toBe('3');
		expect(typedValue('', 'string')).toBeUndefined();
		expect(typedValue('', 'string', true)).toBe('');
	});

	it('sets, replaces in place and removes attributes without touching the original', () => {
		const element = { verb: 'NotifyTextMessage', Badge: 1, Id: 'x' };
		expect(Object.keys(withAttribute(element, 'Badge', 2))).toEqual(['verb', 'Badge', 'Id']);
		expect(withAttribute(element, 'Badge', undefined)).toEqual({
			verb: 'NotifyTextMessage',
			Id: 'x'
		});
		expect(withAttribute(element, 'Sound', '')).toMatchObject({ Sound: '' });
		expect(element).toEqual({ verb: 'NotifyTextMessage', Badge: 1, Id: 'x' });
	});

	it('shows strings as they are and other values as JSON', () => {
		expect(fieldText(undefined)).toBe('');
		expect(fieldText('a')).toBe('a');
		expect(fieldText(3)).toBe('3');
		expect(fieldText(null)).toBe('null');
	});

	it('lists the attributes the form has no field for', () => {
		const element = { verb: 'NotifyReprovision', AppId: 'a', Badge: 1, custom: true };
		expect(otherAttributes(element, 'NotifyReprovision', 'unknown')).toEqual(['Badge', 'custom']);
		expect(otherAttributes(null, 'NotifyReprovision', 'unknown')).toEqual([]);
	});
});

describe('moveItem', () => {
	it('moves an item and keeps every other in order', () => {
		expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
		expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
		expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
		expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
	});

	it('never loses or duplicates an item', () => {
		fc.assert(
			fc.property(fc.array(fc.integer()), fc.integer(), fc.integer(), (list, from, to) => {
				const moved = moveItem(list, from, to);
				expect([...moved].sort()).toEqual([...list].sort());
			})
		);
	});
});

describe('readJsonText', () => {
	it('reads valid JSON', () => {
		expect(readJsonText('[1, {"a": null}]')).toEqual({ ok: true, value: [1, { a: null }] });
	});

	it('places a syntax error by line and column', () => {
		const text = '{\n  "verb": "NotifyTextMessage",\n  "Badge": 3,,\n}';
		const read = readJsonText(text);
		expect(read.ok).toBe(false);
		if (read.ok) return;
		expect([read.line, read.column]).toEqual([3, 14]);
		expect(read.message).toMatch(/^The JSON is not valid at line 3, column 14: \S/);
		expect(read.message).not.toMatch(/position/);
	});

	it('places a text that ends too early at its end, and names an empty text', () => {
		const read = readJsonText('{\n "a": ');
		expect(read).toMatchObject({ ok: false, line: 2, column: 7 });
		expect(readJsonText('  ')).toMatchObject({
			ok: false,
			message: expect.stringMatching(/empty/)
		});
	});

	it('counts lines after CRLF and CR as editors do', () => {
		expect(lineColumn('a\r\nb\rc', 6)).toEqual({ line: 3, column: 2 });
	});
});
