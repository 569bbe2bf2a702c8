import { CompletionContext } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { getService } from '$lib/core/catalogue';
import { sameConfig, templateConfig, type TemplateEditorConfig } from './config';
import { templateCompletions } from './completion';
import { placeholderInfo } from './hover';
import { templateDiagnostics } from './lint';
import { marksInRange, placeholderAt } from './placeholders';
import { externalChange, singleLine } from './single-line';
import { rememberText } from './text-after';

function state(doc: string, service = 'sendMessage', encoding: 'url' | 'json' = 'url') {
	return EditorState.create({
		doc,
		extensions: templateConfig.of({
			service: getService(service),
			field: 'genericSmsSendUrl',
			encoding
		})
	});
}

function complete(doc: string, service = 'sendMessage') {
	const s = state(doc, service);
	return templateCompletions(new CompletionContext(s, doc.length, false));
}

describe('templateCompletions', () => {
	it('offers exactly the names of the service after %', () => {
		const labels = complete('https://x.example/?to=%')!.options.map((o) => o.label);
		expect(labels).toContain('%sms_to%');
		expect(labels).toContain('%account[username]%');
		expect(labels).toContain('%appid%');
		expect(labels).toContain('%sha1(%account[password]%)%');
		expect(labels).not.toContain('%invitee%');
	});

	it('offers only the fixed set for the contacts server', () => {
		const labels = complete('{"a":"%', 'invitationAccepted')!.options.map((o) => o.label);
		expect(labels.sort()).toEqual(['%invitee%', '%invitor%', '%network_id%']);
	});

	it('replaces what was typed, and the closing % when it is already there', () => {
		const s = state('?to=%sm%');
		const result = templateCompletions(new CompletionContext(s, 7, false))!;
		expect([result.from, result.to]).toEqual([4, 8]);
	});

	it('replaces the ] that bracket closing typed after %account[', () => {
		const s = state('?u=%account[us]');
		const result = templateCompletions(new CompletionContext(s, 14, false))!;
		expect([result.from, result.to]).toEqual([3, 15]);
		const closed = state('?u=%account[us]%');
		const again = templateCompletions(new CompletionContext(closed, 14, false))!;
		expect([again.from, again.to]).toEqual([3, 16]);
	});

	it("offers the account keys the profile's XML declares, with their values", () => {
		const s = EditorState.create({
			doc: '?u=%account[',
			extensions: templateConfig.of({
				service: getService('sendMessage'),
				field: 'genericSmsSendUrl',
				encoding: 'url',
				accountKeys: [
					{ name: 'apiUser', value: 'acme-bridge', secret: false },
					{ name: 'apiPass', value: '', secret: true }
				]
			})
		});
		const options = templateCompletions(new CompletionContext(s, 12, false))!.options;
		const user = options.find((o) => o.label === '%account[apiUser]%');
		expect(user?.info).toContain('Sample: acme-bridge');
		const pass = options.find((o) => o.label === '%account[apiPass]%');
		expect(pass?.info).toContain('Sample: secret');
		expect(
			templateDiagnostics(s.update({ changes: { from: 12, insert: 'apiUser]%' } }).state)
		).toEqual([]);
		expect(templateDiagnostics(state('?u=%account[apiUser]%')).map((d) => d.source)).toEqual([
			'unknown_variable'
		]);
	});

	it('does not start a placeholder at the closing % of another', () => {
		expect(complete('?to=%sms_to%')).toBeNull();
	});

	it('explains each option with its meaning and sample', () => {
		const option = complete('?to=%')!.options.find((o) => o.label === '%sms_to%')!;
		expect(option.info).toContain('Recipient');
		expect(option.info).toContain('+14155550123');
		const secret = complete('?to=%')!.options.find((o) => o.label === '%account[password]%')!;
		expect(secret.info).toContain('Sample: secret');
	});
});

describe('templateCompletions inside %account[…]', () => {
	/** Accepts `label` at the end of `typed`, with `rest` after the cursor. */
	function accept(typed: string, rest: string, label: string): string {
		const s = state(typed + rest);
		const result = templateCompletions(new CompletionContext(s, typed.length, false))!;
		const option = result.options.find((o) => o.label === label)!;
		return s
			.update({
				changes: {
					from: result.from,
					to: result.to ?? typed.length,
					insert: option.apply as string
				}
			})
			.state.doc.toString();
	}

	it('replaces the ] the bracket closer typed, leaving no stray ]', () => {
		expect(accept('?u=%account[user', ']', '%account[username]%')).toBe('?u=%account[username]%');
		expect(accept('?u=%account[user', ']&x=1', '%account[username]%')).toBe(
			'?u=%account[username]%&x=1'
		);
		expect(accept('?u=%account[user', ']%', '%account[username]%')).toBe('?u=%account[username]%');
	});

	it('keeps a ] that is text after an ordinary name', () => {
		expect(accept('[%sms_t', ']', '%sms_to%')).toBe('[%sms_to%]');
	});

	it('ranks account[username] above account[userCallerId]', () => {
		const options = complete('?u=%account[user')!.options;
		const boost = (label: string) => options.find((o) => o.label === label)!.boost!;
		expect(boost('%account[username]%')).toBeGreaterThan(boost('%account[userCallerId]%'));
	});
});

describe('singleLine', () => {
	function field(doc = '') {
		const removed: number[] = [];
		const s = EditorState.create({
			doc,
			selection: { anchor: doc.length },
			extensions: singleLine((n) => removed.push(n))
		});
		return { s, removed };
	}

	it('removes the line breaks of a paste and says how many', () => {
		const { s, removed } = field('https://x.example/');
		const next = s.update({
			changes: { from: s.doc.length, insert: '?a=1\r\n&b=2\n&c=3' },
			userEvent: 'input.paste'
		}).state;
		expect(next.doc.toString()).toBe('https://x.example/?a=1&b=2&c=3');
		expect(next.doc.lines).toBe(1);
		expect(next.selection.main.head).toBe(next.doc.length);
		expect(removed).toEqual([2]);
	});

	it('inserts no line break when typed, without a notice', () => {
		const { s, removed } = field('ab');
		const next = s.update({ changes: { from: 1, insert: '\n' }, userEvent: 'input' }).state;
		expect(next.doc.toString()).toBe('ab');
		expect(removed).toEqual([]);
	});

	it('leaves a value set from outside as it is', () => {
		const { s } = field('');
		const next = s.update({
			changes: { from: 0, insert: 'a\nb' },
			annotations: externalChange.of(true)
		}).state;
		expect(next.doc.toString()).toBe('a\nb');
	});
});

describe('templateDiagnostics', () => {
	it('reports an unknown name with a quick fix to the nearest known one', () => {
		const diagnostics = templateDiagnostics(state('?x=%smrt%'));
		expect(diagnostics).toHaveLength(1);
		expect(diagnostics[0]).toMatchObject({ from: 3, to: 9, severity: 'warning' });
		expect(diagnostics[0].actions?.[0].name).toBe('Replace with %smart%');
	});

	it('reports nothing for a clean template', () => {
		expect(templateDiagnostics(state('https://x.example/?to=%sms_to%'))).toEqual([]);
	});

	it("says for an editor's edits, one after another, what the whole template says", () => {
		const owner = {};
		const plain = (d: ReturnType<typeof templateDiagnostics>) =>
			d.map(({ from, to, severity, message, source }) => ({ from, to, severity, message, source }));
		let s = state('?a=%smrt%&b=x&c=%sms_to%&d=%nope%');
		const edits = [
			{ from: 11, insert: 'yy' }, // local: in the literal after %smrt%
			{ from: 0, insert: 'https://h' }, // local: before everything
			{ from: 15, to: 17 }, // a removal
			{ from: 20, insert: '%' }, // not local: a new %
			{ from: 3, insert: 'q' } // next to a placeholder
		];
		for (const change of edits) {
			s = s.update({ changes: change }).state;
			const whole = templateDiagnostics(s);
			expect(plain(templateDiagnostics(s, owner))).toEqual(plain(whole));
			expect(whole.length).toBeGreaterThan(0);
		}
	});

	it('reads the text the editor said its document holds', () => {
		const s = state('?x=%sms_to%');
		// A text said for this very document is read as it; here it differs, so it shows.
		rememberText(s.doc, '?x=%smrt%');
		expect(templateDiagnostics(s).map((d) => d.source)).toEqual(['unknown_variable']);
	});
});

describe('placeholder marks', () => {
	it('gives each placeholder its scope, line by line', () => {
		const s = state('a=%sms_to%\nb=%account[host]%&c=%appid%&d=%nope%');
		const marks = marksInRange(s, 0, s.doc.length).map((m) => `${m.key}:${m.scope}`);
		expect(marks).toEqual([
			'sms_to:service',
			'account[host]:account',
			'appid:global',
			'nope:unknown'
		]);
	});

	it('finds the innermost placeholder under the cursor', () => {
		const s = state('%sha1(%account[password]%)%');
		expect(placeholderAt(s, 10)?.key).toBe('account[password]');
		expect(placeholderAt(s, 2)?.scope).toBe('function');
	});
});

describe('placeholderInfo', () => {
	it('explains the placeholder at a position: meaning, sample and encoding here', () => {
		const s = state('https://x.example/?to=%sms_to%');
		const config = s.facet(templateConfig)!;
		const info = placeholderInfo(config, placeholderAt(s, 25)!);
		expect(info.title).toBe('%sms_to%');
		expect(info.lines[0]).toContain('Recipient');
		expect(info.lines).toContain('Sample: +14155550123');
		expect(info.lines.at(-1)).toBe('Here: percent-encoded (URI component).');
	});

	it('never shows a secret sample, and says when a name is unknown', () => {
		const s = state('?p=%account[password]%&x=%nope%');
		const config = s.facet(templateConfig)!;
		expect(placeholderInfo(config, placeholderAt(s, 5)!).lines).toContain('Sample: secret');
		expect(placeholderInfo(config, placeholderAt(s, 27)!).lines[0]).toBe(
			'Not known to Send Message.'
		);
	});
});

describe('where a variable comes from', () => {
	it('says it in the hover and in the completion info', () => {
		const s = state('?h=%account[host]%&to=%sms_to%');
		const config = s.facet(templateConfig)!;
		expect(placeholderInfo(config, placeholderAt(s, 6)!).lines).toContain(
			"From the platform's public documentation: api/client/intro (account and global placeholders)."
		);
		expect(placeholderInfo(config, placeholderAt(s, 24)!).lines).toContain('From the contract.');
		const options = complete('?h=%')!.options;
		expect(options.find((o) => o.label === '%installid%')?.info).toContain(
			"From the platform's public documentation: api/client/intro"
		);
		expect(options.find((o) => o.label === '%sms_to%')?.info).toContain('From the contract.');
	});
});

describe('sameConfig', () => {
	const service = getService('sendMessage');
	const base: TemplateEditorConfig = { service, field: 'genericSmsPostData', encoding: 'json' };
	const label = 'Post data (genericSmsPostData)';

	it('takes an equal configuration in a new object, and no account keys as none', () => {
		expect(
			sameConfig(
				{ config: { ...base, accountKeys: [] }, label },
				{ config: { ...base, accountKeys: undefined }, label }
			)
		).toBe(true);
	});

	it('tells apart every part that configures an editor', () => {
		const keys = [{ name: 'apiUser', value: 'u', secret: false }];
		const other: [string, Partial<TemplateEditorConfig>, string?][] = [
			['encoding', { encoding: 'xml' }],
			['field', { field: 'genericSmsSendUrl' }],
			['service', { service: getService('invitationAccepted') }],
			['samples', { samples: { sms_to: '+1' } }],
			['account keys', { accountKeys: keys }],
			['label', {}, 'Another label']
		];
		for (const [what, change, otherLabel] of other) {
			expect(
				sameConfig(
					{ config: base, label },
					{ config: { ...base, ...change }, label: otherLabel ?? label }
				),
				what
			).toBe(false);
		}
	});
});
