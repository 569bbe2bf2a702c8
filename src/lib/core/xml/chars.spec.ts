import { describe, expect, it } from 'vitest';
import { getService } from '../catalogue';
import { buildRequests } from '../request';
import { analyzeTemplate } from '../template';
import { isXmlText, xmlCharIssues } from './chars';

describe('xmlCharIssues', () => {
	it.each([
		['a\u0001b', 'U+0001', 1],
		['\u0000', 'U+0000', 0],
		['x\u001fy', 'U+001F', 1],
		['\ufffe', 'U+FFFE', 0],
		['ok \ud800 lone', 'U+D800', 3],
		['ok \udc00 lone', 'U+DC00', 3]
	])('reports %j: %s at offset %i, with a fix that removes it', (text, name, from) => {
		const [issue, ...rest] = xmlCharIssues(text, 'genericSmsSendUrl');
		expect(rest).toEqual([]);
		expect(issue).toMatchObject({
			code: 'xml_char_invalid',
			severity: 'error',
			field: 'genericSmsSendUrl',
			from,
			fix: { label: `Remove ${name}`, insert: '' }
		});
		expect(issue.message).toContain(name);
	});

	it('accepts tab, line breaks, emoji and every other character XML 1.0 carries', () => {
		const text = 'a\tb\nc\rd 🎉 \ud83d\ude00 \ue000 \ufffd é ]]> & < " \'';
		expect(xmlCharIssues(text)).toEqual([]);
		expect(isXmlText(text)).toBe(true);
		expect(isXmlText('a\u0007')).toBe(false);
	});

	it('reports at most 20 per field and says how many more follow', () => {
		const issues = xmlCharIssues('\u0001'.repeat(25));
		expect(issues).toHaveLength(20);
		expect(issues[19].message).toContain('5 more');
	});
});

describe('the diagnostic before export', () => {
	const sendMessage = getService('sendMessage');

	it('is produced by the template analysis of an XML setting (what the editor lint shows)', () => {
		const issues = analyzeTemplate('https://x.test/?a=\u0002', sendMessage, 'genericSmsSendUrl');
		expect(issues.issues).toContainEqual(
			expect.objectContaining({ code: 'xml_char_invalid', field: 'genericSmsSendUrl', from: 18 })
		);
	});

	it('is not produced for a setting that lives in the portal', () => {
		const issues = analyzeTemplate(
			'https://x.test/\u0002',
			getService('externalAuth'),
			'externalAuthUrl'
		);
		expect(issues.issues.map((i) => i.code)).not.toContain('xml_char_invalid');
	});

	it('reaches the preview diagnostics, for templates and plain settings, once each', () => {
		const result = buildRequests({
			service: sendMessage,
			settings: {
				genericSmsSendUrl: 'https://x.test/\u0003',
				genericSmsSendPostData: 'a=\u0004',
				genericSmsSendContentType: 'text/plain\u0005'
			},
			values: {}
		});
		const found = result.issues
			.filter((i) => i.code === 'xml_char_invalid')
			.map((i) => `${i.field}@${i.from}`);
		expect(found.sort()).toEqual([
			'genericSmsSendContentType@10',
			'genericSmsSendPostData@2',
			'genericSmsSendUrl@15'
		]);
	});
});
