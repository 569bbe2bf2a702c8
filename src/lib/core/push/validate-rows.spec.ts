import { describe, expect, it } from 'vitest';
import { PUSH_ATTRIBUTES } from './reference';
import { samplePush } from './samples';
import type { PushIssue, PushTarget } from './schema';
import { validatePush } from './validate';

/** `severity code @path`, one line per issue: a compact rendering to compare against. */
function render(issues: PushIssue[]): string[] {
	return issues.map((i) => `${i.severity} ${i.code} @${i.path.join('.')}`);
}

const push = samplePush;

interface Example {
	name: string;
	input: unknown;
	target?: PushTarget;
	ok: boolean;
	issues: string[];
}

const TEXT = 'NotifyTextMessage';
const GENERIC = 'NotifyGenericTextMessage';
const REPROVISION = 'NotifyReprovision';

/** One list of examples per row of the contract's request-object table, keyed by row id. */
const ROWS: Record<string, Example[]> = {
	verb: [
		{
			name: 'missing',
			input: push(TEXT, { verb: undefined }),
			ok: false,
			issues: ['error missing_attribute @verb']
		},
		{
			name: 'wrong case',
			input: push(TEXT, { verb: 'notifyTextMessage' }),
			ok: false,
			issues: ['error unknown_verb @verb']
		},
		{
			name: 'a number',
			input: push(TEXT, { verb: 1 }),
			ok: false,
			issues: ['error invalid_type @verb']
		},
		{ name: 'reprovision', input: push(REPROVISION), ok: true, issues: [] }
	],
	AppId: [
		{
			name: 'missing',
			input: push(TEXT, { AppId: undefined }),
			ok: false,
			issues: ['error missing_attribute @AppId']
		},
		{
			name: 'empty',
			input: push(GENERIC, { AppId: ' ' }),
			ok: false,
			issues: ['error empty_attribute @AppId']
		},
		{
			name: 'padded',
			input: push(GENERIC, { AppId: 'com.a \n' }),
			ok: true,
			issues: ['warning surrounding_whitespace @AppId']
		}
	],
	DeviceToken: [
		{
			name: 'missing',
			input: push(REPROVISION, { DeviceToken: undefined }),
			ok: false,
			issues: ['error missing_attribute @DeviceToken']
		},
		{
			name: 'null',
			input: push(TEXT, { DeviceToken: null }),
			ok: false,
			issues: ['error invalid_type @DeviceToken']
		}
	],
	Selector: [
		{
			name: 'missing on text',
			input: push(TEXT, { Selector: undefined }),
			ok: false,
			issues: ['error missing_attribute @Selector']
		},
		{
			name: 'missing on reprovision',
			input: push(REPROVISION, { Selector: undefined }),
			ok: false,
			issues: ['error missing_attribute @Selector']
		},
		{
			name: 'absent on generic',
			input: push(GENERIC, { Selector: undefined }),
			ok: true,
			issues: []
		},
		{
			name: 'odd shape',
			input: push(REPROVISION, { Selector: 'abc' }),
			ok: true,
			issues: ['info unusual_selector @Selector']
		}
	],
	Message: [
		{
			name: 'missing on generic',
			input: push(GENERIC, { Message: undefined }),
			ok: false,
			issues: ['error missing_attribute @Message']
		},
		{ name: 'optional on text', input: push(TEXT, { Message: undefined }), ok: true, issues: [] },
		{
			name: 'not a string',
			input: push(TEXT, { Message: 5 }),
			ok: false,
			issues: ['error invalid_type @Message']
		},
		{
			name: 'unused on reprovision',
			input: push(REPROVISION, { Message: 'x' }),
			ok: true,
			issues: ['info attribute_unused @Message']
		}
	],
	Badge: [
		{
			name: 'missing on platform A 13+',
			input: push(TEXT, { Badge: undefined }),
			target: 'platformA13',
			ok: false,
			issues: ['error badge_required @Badge']
		},
		{
			name: 'missing on platform B',
			input: push(TEXT, { Badge: undefined }),
			target: 'platformB',
			ok: true,
			issues: []
		},
		{
			name: 'missing, target unknown',
			input: push(TEXT, { Badge: undefined }),
			ok: true,
			issues: ['warning badge_recommended @Badge']
		},
		{
			name: 'quoted',
			input: push(TEXT, { Badge: '3' }),
			ok: false,
			issues: ['error invalid_type @Badge']
		},
		{
			name: 'negative',
			input: push(TEXT, { Badge: -1 }),
			ok: false,
			issues: ['error invalid_value @Badge']
		},
		{
			name: 'fraction',
			input: push(TEXT, { Badge: 1.5 }),
			ok: false,
			issues: ['error invalid_value @Badge']
		},
		{ name: 'zero', input: push(TEXT, { Badge: 0 }), target: 'platformA13', ok: true, issues: [] }
	],
	Sound: [
		{ name: 'silent', input: push(TEXT, { Sound: '' }), ok: true, issues: [] },
		{ name: 'bundled', input: push(GENERIC, { Sound: 's6.caf' }), ok: true, issues: [] },
		{
			name: 'unknown name',
			input: push(TEXT, { Sound: 'S1.CAF' }),
			ok: true,
			issues: ['warning unknown_sound @Sound']
		},
		{
			name: 'on reprovision',
			input: push(REPROVISION, { Sound: 'default' }),
			ok: true,
			issues: ['warning sound_ignored @Sound']
		},
		{
			name: 'omitted on platform A 13+',
			input: push(TEXT, { Sound: undefined }),
			target: 'platformA13',
			ok: true,
			issues: ['warning attribute_recommended @Sound']
		}
	],
	UserName: [
		{
			name: 'UserName',
			input: push(TEXT, { UserDisplayName: undefined, UserName: 'alice' }),
			target: 'platformA13',
			ok: true,
			issues: []
		},
		{
			name: 'neither on platform A 13+',
			input: push(TEXT, { UserDisplayName: undefined }),
			target: 'platformA13',
			ok: true,
			issues: ['warning attribute_recommended @UserName']
		},
		{
			name: 'not a string',
			input: push(TEXT, { UserDisplayName: ['Alice'] }),
			ok: false,
			issues: ['error invalid_type @UserDisplayName']
		},
		{
			name: 'unused on generic',
			input: push(GENERIC, { UserName: 'alice' }),
			ok: true,
			issues: ['info attribute_unused @UserName']
		}
	],
	ContentType: [
		{
			name: 'omitted on platform A 13+',
			input: push(TEXT, { ContentType: undefined }),
			target: 'platformA13',
			ok: true,
			issues: ['warning attribute_recommended @ContentType']
		},
		{
			name: 'null',
			input: push(TEXT, { ContentType: null }),
			ok: false,
			issues: ['error invalid_type @ContentType']
		}
	],
	Id: [
		{
			name: 'missing on text',
			input: push(TEXT, { Id: undefined }),
			ok: true,
			issues: ['warning id_recommended @Id']
		},
		{
			name: 'empty on text',
			input: push(TEXT, { Id: '' }),
			ok: true,
			issues: ['warning id_recommended @Id']
		},
		{ name: 'not needed on generic', input: push(GENERIC), ok: true, issues: [] }
	],
	ThreadId: [
		{
			name: 'a number',
			input: push(TEXT, { ThreadId: 7 }),
			ok: false,
			issues: ['error invalid_type @ThreadId']
		},
		{
			name: 'unused on reprovision',
			input: push(REPROVISION, { ThreadId: 't' }),
			ok: true,
			issues: ['info attribute_unused @ThreadId']
		}
	]
};

describe('validatePush: one case per row of the request-object table', () => {
	it.each(PUSH_ATTRIBUTES.map((row) => [row.title, row.id] as const))(
		'row "%s" follows the contract',
		(_title, id) => {
			const examples = ROWS[id];
			expect(examples, `no examples for row ${id}`).toBeDefined();
			for (const example of examples) {
				const result = validatePush(example.input, { target: example.target ?? 'unknown' });
				expect({ name: example.name, ok: result.ok, issues: render(result.issues) }).toEqual({
					name: example.name,
					ok: example.ok,
					issues: example.issues
				});
			}
		}
	);
});

describe('validatePush messages', () => {
	it('name the attribute they are about', () => {
		for (const examples of Object.values(ROWS)) {
			for (const example of examples) {
				for (const issue of validatePush(example.input, { target: example.target }).issues) {
					expect(issue.message).toContain(String(issue.path[0]));
				}
			}
		}
	});
});
