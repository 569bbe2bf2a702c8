import { describe, expect, it } from 'vitest';
import { newDocument } from '../profile/schema';
import { SECRET_MASK } from '../profile/secrets';
import { applyImport, importXml } from '../xml';
import {
	answerCredentials,
	diffAgainstProfile,
	offeredKeys,
	readProvisioningAnswer
} from './provisioning-answer';

const XML = { 'Content-Type': 'application/xml' };
const read = (body: string, status = 200, headers: Record<string, string> = XML) =>
	readProvisioningAnswer({ status, headers, body });
const codes = (reading: ReturnType<typeof read>) => reading.issues.map((i) => i.code);

const ANSWER = `<?xml version="1.0"?>
<account>
  <title>Alice at Example</title>
  <username>alice</username>
  <password>s3cret</password>
  <genericSmsSendUrl>https://sms.example.com/send?to=%sms_to%&amp;u=%account[username]%</genericSmsSendUrl>
  <genericSmsFetchUrl>https://sms.example.com/fetch?last=%last_known_sms_id%</genericSmsFetchUrl>
  <wsContactsAuthPassword>x</wsContactsAuthPassword>
</account>`;

describe('readProvisioningAnswer', () => {
	it('lists the settings the app merges, with lines, and never a credential’s value', () => {
		const reading = read(ANSWER);
		expect(reading.outcome).toBe('merged');
		expect(reading.settings.map((s) => [s.key, s.line, s.secret])).toEqual([
			['title', 3, false],
			['username', 4, false],
			['password', 5, true],
			['genericSmsSendUrl', 6, false],
			['genericSmsFetchUrl', 7, false],
			['wsContactsAuthPassword', 8, true]
		]);
		expect(reading.settings[3].value).toBe(
			'https://sms.example.com/send?to=%sms_to%&u=%account[username]%'
		);
		expect(reading.settings[2].value).toBe(SECRET_MASK);
		expect(JSON.stringify(reading)).not.toContain('s3cret');
		expect(reading.verdict).toBe(
			'The app merges 6 settings into its own; the account is “Alice at Example”.'
		);
		expect(reading.shownToUser).toBeNull();
	});

	it('names the web-service keys and gives them, credentials left out, as a fragment to import', () => {
		const reading = read(ANSWER);
		expect(reading.webServiceKeys).toEqual([
			'genericSmsSendUrl',
			'genericSmsFetchUrl',
			'wsContactsAuthPassword'
		]);
		expect(reading.importFragment).not.toContain('<password>');
		expect(reading.importFragment).not.toContain('wsContactsAuthPassword');
		expect(codes(reading)).toContain('provisioning_credential_not_imported');
		const imported = importXml(reading.importFragment!);
		if (!imported.ok) throw new Error('the fragment must import');
		expect(imported.value.form).toBe('fragment');
		expect(imported.value.services.sendMessage?.genericSmsSendUrl).toContain('&u=');
		const profile = newDocument();
		profile.services.pushTokenReporter = { pushTokenReporterUrl: 'https://p.example.com/t' };
		const applied = applyImport(profile, imported.value);
		expect(applied.ok && applied.value.services.pushTokenReporter).toEqual({
			pushTokenReporterUrl: 'https://p.example.com/t'
		});
	});

	it('reads the account of a provisioning document, and names an empty or missing title', () => {
		const wrapped = read('<provisioning><account><title/></account></provisioning>');
		expect(wrapped.outcome).toBe('merged');
		expect(wrapped.issues[0]).toMatchObject({
			code: 'account_title_empty',
			severity: 'warning',
			source: { kind: 'providers' }
		});
		expect(codes(read('<account><username>a</username></account>'))).toContain(
			'account_title_missing'
		);
	});

	it('shows the <message> of a non-2xx answer, else the generic error', () => {
		const denied = read('<message>Wrong PIN</message>', 403);
		expect(denied).toMatchObject({ outcome: 'failed', shownToUser: 'Wrong PIN' });
		expect(denied.verdict).toBe('Provisioning stops; the app shows “Wrong PIN”.');
		const bare = read('', 500);
		expect(bare.shownToUser).toBe('(the app’s generic error message)');
	});

	it('says a <message> with a 2xx is no account and is not shown', () => {
		const reading = read('<message>Wrong PIN</message>');
		expect(reading.outcome).toBe('failed');
		expect(reading.issues[0]).toMatchObject({ code: 'provisioning_message_with_2xx' });
	});

	it('gives an HTML answer a clear verdict', () => {
		const reading = read('<!DOCTYPE html><html><title>502 Bad Gateway</title></html>', 200, {
			'Content-Type': 'text/html'
		});
		expect(reading.outcome).toBe('failed');
		expect(reading.verdict).toBe(
			'The answer is an HTML page, not an account document: provisioning stops with the app’s generic error message.'
		);
		expect(reading.issues[0].message).toContain('“502 Bad Gateway”');
		const failed = read('<html><body>Not found</body></html>', 404, {
			'Content-Type': 'text/html'
		});
		expect(failed.shownToUser).toBe('(the app’s generic error message)');
	});

	it('refuses a DOCTYPE and 10,000 levels with line and column, and a non-account root', () => {
		expect(read('<!DOCTYPE account><account/>').issues[0]).toMatchObject({
			code: 'xml_doctype',
			at: 'line 1, column 1'
		});
		const deep = read('<account>' + '<a>'.repeat(10_000) + '</a>'.repeat(10_000) + '</account>');
		expect(codes(deep)).toEqual(['xml_too_deep']);
		expect(codes(read('<response/>'))).toEqual(['xml_root_not_account']);
	});

	it('reads a 1 MB answer in one pass and warns about a 1,000-character title', () => {
		const many = Array.from({ length: 20_000 }, (_, i) => `<k${i}>${'v'.repeat(40)}</k${i}>`);
		const body = `<account><title>${'t'.repeat(1000)}</title>\n${many.join('\n')}\n</account>`;
		expect(body.length).toBeGreaterThan(1000 * 1000);
		const big = read(body);
		expect(big.settings).toHaveLength(20_001);
		expect(big.settings[20_000]).toMatchObject({ key: 'k19999', line: 20_001 });
		expect(big.issues[0]).toMatchObject({ code: 'value_too_long', at: 'account/title' });
	});
});

describe('offeredKeys', () => {
	it('names the web-service keys the fragment holds, a long list summed up', () => {
		expect(offeredKeys(read(ANSWER).settings)).toEqual({
			keys: ['genericSmsSendUrl', 'genericSmsFetchUrl'],
			named: '<genericSmsSendUrl>, <genericSmsFetchUrl>'
		});
		const many = Array.from({ length: 20_000 }, (_, i) => `<s${i}Url>https://e/${i}</s${i}Url>`);
		const offer = offeredKeys(read(`<account>${many.join('')}</account>`).settings);
		expect(offer.keys).toHaveLength(20_000);
		expect(offer.named).toBe(
			'<s0Url>, <s1Url>, <s2Url>, <s3Url>, <s4Url>, <s5Url>, <s6Url>, <s7Url>, <s8Url>, <s9Url> and 19,990 more'
		);
	});
});

describe('answerCredentials', () => {
	it('gives each credential of an account as read and as written, and none of other answers', () => {
		expect(answerCredentials(ANSWER)).toEqual(['s3cret', 's3cret', 'x', 'x']);
		expect(answerCredentials('<account><password>a&amp;b</password></account>')).toEqual([
			'a&b',
			'a&amp;b'
		]);
		expect(answerCredentials('<response><password>p</password></response>')).toEqual([]);
		expect(answerCredentials('not xml')).toEqual([]);
	});
});

describe('diffAgainstProfile', () => {
	it('says which settings the answer adds, overrides or repeats, and compares no secret', () => {
		const profile = newDocument();
		profile.services.sendMessage = { genericSmsSendUrl: 'https://old.example.com/send' };
		profile.preservedXml = [
			{ path: 'provisioning/account/core', index: 0, xml: '<title>Alice at Example</title>' }
		];
		const diff = diffAgainstProfile(read(ANSWER).settings, profile);
		expect(diff.map((d) => [d.key, d.kind])).toEqual([
			['title', 'repeats'],
			['username', 'adds'],
			['password', 'secret'],
			['genericSmsSendUrl', 'overrides'],
			['genericSmsFetchUrl', 'adds'],
			['wsContactsAuthPassword', 'secret']
		]);
		expect(diff[3]).toMatchObject({
			label: 'Send Message · URL',
			profile: 'https://old.example.com/send'
		});
		expect(JSON.stringify(diff)).not.toContain('s3cret');
	});
});
