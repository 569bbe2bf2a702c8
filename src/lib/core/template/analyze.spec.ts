import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getService, SERVICES } from '../catalogue';
import type { Issue } from '../issues';
import { analyzeTemplate, type Analysis, type PlaceholderMark } from './analyze';

/** `service(0,8):sms_to`, `unknown(34,39)`. */
function showMark(mark: PlaceholderMark): string {
	const name = mark.variable ? `:${mark.variable.name}` : '';
	return `${mark.scope}(${mark.from},${mark.to})${name}`;
}

/** `unknown_variable/warning(39,48)→%sms_to%`. */
function showIssue(issue: Issue): string {
	const fix = issue.fix ? `→${issue.fix.insert}` : '';
	return `${issue.code}/${issue.severity}(${issue.from},${issue.to})${fix}`;
}

function render(analysis: Analysis): [string, string] {
	return [analysis.marks.map(showMark).join(' '), analysis.issues.map(showIssue).join(' ')];
}

const TEMPLATE_SERVICES = SERVICES.filter((s) => s.kind === 'template');

describe('analyzeTemplate', () => {
	// [service, template, marks, issues]
	const cases: [string, string, string, string][] = [
		[
			'sendMessage',
			'%sms_to%%account[username]%%appid%',
			'service(0,8):sms_to account(8,27):username global(27,34):appid',
			''
		],
		['sendMessage', '%foo%', 'unknown(0,5)', 'unknown_variable/warning(0,5)'],
		['sendMessage', '?to=%sms_too%', 'unknown(4,13)', 'unknown_variable/warning(4,13)→%sms_to%'],
		['sendMessage', '%account[x.y-z]%', 'unknown(0,16)', 'unknown_variable/warning(0,16)'],
		['sendMessage', '%sha1(%account[password]%)%', 'function(0,27) account(6,25):password', ''],
		[
			'sendMessage',
			'%sha1(%sha1(%account[password]%)%)%',
			'function(0,35) function(6,33) account(12,31):password',
			''
		],
		[
			'sendMessage',
			'%sha1(%nope%)%',
			'function(0,14) unknown(6,12)',
			'unknown_variable/warning(6,12)'
		],
		['sendMessage', 'u=%sms_to&x', '', 'unclosed_placeholder/warning(2,9)→%'],
		[
			'pushTokenReporter',
			'%pushToken%%selector%',
			'service(0,11):pushToken service(11,21):selector',
			''
		],
		['pushTokenReporter', '%foo%', 'unknown(0,5)', 'unknown_variable/warning(0,5)'],
		[
			'phoneNumberVerifier',
			'%phoneNumber%%appid%%version%',
			'service(0,13):phoneNumber global(13,20):appid global(20,29):version',
			''
		],
		[
			'phoneNumberVerifier',
			'%account[username]%',
			'unknown(0,19)',
			'not_allowed_for_caller/error(0,19)'
		],
		['phoneNumberVerifier', '%foo%', 'unknown(0,5)', 'unknown_variable/warning(0,5)'],
		[
			'invitationAccepted',
			'%invitee%%invitor%%network_id%',
			'service(0,9):invitee service(9,18):invitor service(18,30):network_id',
			''
		],
		[
			'invitationAccepted',
			'%account[username]%',
			'unknown(0,19)',
			'not_allowed_for_caller/error(0,19)'
		],
		['invitationAccepted', '%appid%', 'unknown(0,7)', 'not_allowed_for_caller/error(0,7)'],
		['invitationAccepted', '%foo%', 'unknown(0,5)', 'unknown_variable/error(0,5)'],
		['invitationAccepted', '%invite%', 'unknown(0,8)', 'unknown_variable/error(0,8)→%invitee%'],
		[
			'externalAuth',
			'%username%%password%%host%%cloud_id%',
			'service(0,10):username service(10,20):password service(20,26):host service(26,36):cloud_id',
			''
		],
		[
			'externalAuth',
			'%account[cloud_username]%%account[password]%%appid%',
			'account(0,25):cloud_username account(25,44):password global(44,51):appid',
			''
		],
		['externalAuth', '%account[host]%', 'unknown(0,15)', 'not_allowed_for_caller/error(0,15)'],
		['externalAuth', '%foo%', 'unknown(0,5)', 'unknown_variable/error(0,5)'],
		['extSSOProv', '%foo%', 'unknown(0,5)', 'unknown_variable/error(0,5)'],
		[
			'smartContactNotification',
			'%new_smart_number%%network_id%%new_smart_uri%%interestedParties%',
			'service(0,18):new_smart_number service(18,30):network_id service(30,45):new_smart_uri service(45,64):interestedParties',
			''
		],
		[
			'smartContactNotification',
			'"p":%interested_parties%',
			'service(4,24):interestedParties',
			'deprecated_variable/warning(4,24)→%interestedParties%'
		],
		['smartContactNotification', '%foo%', 'unknown(0,5)', 'unknown_variable/error(0,5)']
	];

	it.each(cases)('judges %s template %j as the table says', (id, template, marks, issues) => {
		expect(render(analyzeTemplate(template, getService(id)))).toEqual([marks, issues]);
	});

	const prototypeNames = [
		'__proto__',
		'constructor',
		'toString',
		'hasOwnProperty',
		'valueOf',
		'account[__proto__]',
		'account[constructor]'
	];
	const protoCases = TEMPLATE_SERVICES.flatMap((s) =>
		prototypeNames.map((n) => [s.id, n] as const)
	);

	it.each(protoCases)(
		'never resolves the %s name %s to anything on Object.prototype',
		(id, name) => {
			const service = getService(id);
			const analysis = analyzeTemplate(`%${name}%`, service);
			expect(analysis.marks).toEqual([
				{ from: 0, to: name.length + 2, key: name, scope: 'unknown', variable: undefined }
			]);
			// A service without an account refuses every account key before looking it up.
			const noAccount = name.startsWith('account[') && service.accountKeys === 'none';
			expect(analysis.issues.map((i) => i.code)).toEqual([
				noAccount ? 'not_allowed_for_caller' : 'unknown_variable'
			]);
			const fixed = service.variableSet === 'fixed' || noAccount;
			expect(analysis.issues[0].severity).toBe(fixed ? 'error' : 'warning');
		}
	);

	it('names the field on every issue when given one', () => {
		const analysis = analyzeTemplate(
			'%foo% %sms_to',
			getService('sendMessage'),
			'genericSmsSendUrl'
		);
		expect(analysis.issues).toHaveLength(2);
		expect(analysis.issues.every((i) => i.field === 'genericSmsSendUrl')).toBe(true);
	});

	it('leaves issues without a field when none is given', () => {
		const analysis = analyzeTemplate('%foo%', getService('sendMessage'));
		expect(analysis.issues[0].field).toBeUndefined();
	});

	it('gives the same answer when asked twice (remembered resolutions are not shared objects)', () => {
		const service = getService('invitationAccepted');
		const first = analyzeTemplate('%nope%', service, 'a');
		const second = analyzeTemplate('%nope%', service);
		expect(first.issues[0].field).toBe('a');
		expect(second.issues[0].field).toBeUndefined();
	});

	const names = fc.oneof(
		fc.constantFrom(
			'sms_to',
			'account[username]',
			'account[host]',
			'appid',
			'invitee',
			'interested_parties',
			'__proto__',
			'sha1(%sms_to%)'
		),
		fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/)
	);
	const template = fc
		.array(
			fc.oneof(
				names.map((n) => `%${n}%`),
				fc.string({ unit: 'binary', maxLength: 4 })
			),
			{
				maxLength: 8
			}
		)
		.map((parts) => parts.join(''));

	it('marks every placeholder, known ones with their variable, unknown ones with an issue', () => {
		fc.assert(
			fc.property(fc.constantFrom(...TEMPLATE_SERVICES), template, (service, source) => {
				const { marks, issues } = analyzeTemplate(source, service);
				for (const mark of marks) {
					if (mark.scope === 'function') continue;
					if (mark.scope === 'unknown') {
						expect(mark.variable).toBeUndefined();
						const issue = issues.find((i) => i.from === mark.from && i.to === mark.to);
						expect(issue?.code).toMatch(/^(unknown_variable|not_allowed_for_caller)$/);
						if (service.variableSet === 'fixed') expect(issue?.severity).toBe('error');
					} else {
						expect(mark.variable?.scope).toBe(mark.scope);
					}
				}
			})
		);
	});
});

describe('analyzeTemplate: secrets in URLs', () => {
	const sendMessage = getService('sendMessage');
	const url =
		'https://sms.example.com/send?username=%account[username]%&password=%account[password]%&to=%sms_to%';

	it('warns that a password in a URL ends up in access logs, where it is', () => {
		const issues = analyzeTemplate(url, sendMessage, 'genericSmsSendUrl').issues;
		expect(issues.map(showIssue)).toEqual([
			`secret_in_url/warning(${url.indexOf('%account[password]')},${url.indexOf('&to=')})`
		]);
		expect(issues[0].message).toMatch(/access logs/);
		expect(issues[0].message).toMatch(/%sha1\(%account\[password\]%\)%/);
		expect(issues[0].field).toBe('genericSmsSendUrl');
	});

	it('does not warn for the hashed password, for the body, or for a URL of the SSO server without one', () => {
		const hashed = url.replace('%account[password]%', '%sha1(%account[password]%)%');
		expect(analyzeTemplate(hashed, sendMessage, 'genericSmsSendUrl').issues).toEqual([]);
		const body = 'password=%account[password]%';
		expect(analyzeTemplate(body, sendMessage, 'genericSmsSendPostData').issues).toEqual([]);
	});

	it('warns for a credential of the SSO server and for a declared one', () => {
		const sso = getService('externalAuth');
		const ssoUrl = 'https://sso.example.com/auth?u=%username%&p=%password%';
		expect(analyzeTemplate(ssoUrl, sso, 'externalAuthUrl').issues.map((i) => i.code)).toEqual([
			'secret_in_url'
		]);
		const declared = [{ name: 'apiPass', value: '', secret: true }];
		const custom = 'https://x.example/?p=%account[apiPass]%';
		expect(
			analyzeTemplate(custom, sendMessage, 'genericSmsSendUrl', declared).issues.map((i) => i.code)
		).toEqual(['secret_in_url']);
	});
});

describe('analyzeTemplate: one issue repeated', () => {
	const sendMessage = getService('sendMessage');

	it('lists 20 of a misspelt name used 30,000 times, then says how many more; other names still listed', () => {
		const template = '%sms_too% '.repeat(30_000) + '%nope%';
		const issues = analyzeTemplate(template, sendMessage, 'genericSmsSendPostData').issues;
		const misspelt = issues.filter((i) => i.message.startsWith('%sms_too%'));
		expect(misspelt).toHaveLength(20);
		expect(misspelt.map((i) => i.from)).toEqual(Array.from({ length: 20 }, (_, i) => i * 10));
		expect(misspelt[19].message).toMatch(/ 29,980 more like it follow, not listed one by one\.$/);
		expect(misspelt[19].fix?.insert).toBe('%sms_to%');
		expect(issues.filter((i) => i.message.startsWith('%nope%'))).toHaveLength(1);
		expect(issues.every((i) => i.field === 'genericSmsSendPostData')).toBe(true);
	});

	it('lists 200 of 100,000 different unknown names, then counts the rest, ', () => {
		const template = Array.from({ length: 100_000 }, (_, i) => `%u${i}%`).join(' ');
		const analysis = analyzeTemplate(template, sendMessage, 'genericSmsSendPostData');
		expect(analysis.marks).toHaveLength(100_000);
		expect(analysis.marks.every((m) => m.scope === 'unknown')).toBe(true);
		expect(analysis.issues).toHaveLength(200);
		expect(analysis.issues[0].message).toMatch(/^%u0% is not known to Send Message\./);
		expect(analysis.issues[199].message).toMatch(
			/^%u199% .* 99,800 more of this kind at other names follow, not listed one by one\.$/
		);
	});

	it('lists 20 of a syntax issue repeated with the same text; another text is its own', () => {
		const template = '%account[x '.repeat(25) + '%account[y';
		const issues = analyzeTemplate(template, sendMessage).issues;
		const x = issues.filter((i) => i.message.includes('"%account[x"'));
		expect(x).toHaveLength(20);
		expect(x[19].message).toMatch(/ 5 more like it follow/);
		expect(issues.filter((i) => i.message.includes('"%account[y"'))).toHaveLength(1);
	});
});
