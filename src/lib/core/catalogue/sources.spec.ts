import { describe, expect, it } from 'vitest';
import type { Issue } from '../issues';
import { buildRequests } from '../request';
import { interpretResponse } from '../response/interpret';
import { analyzeTemplate } from '../template';
import { keyOf, SERVICES } from './services';
import type { RuleName, Service, Source } from './schema';
import { SourceSchema } from './schema';
import {
	CONTRACT_SOURCE,
	describeSource,
	isAuthority,
	remarkOf,
	ruleSource,
	severityFrom,
	sourceOf
} from './sources';

/** The issue codes made from a catalogue rule, and the rule each comes from. */
const RULE_OF: Record<string, RuleName[]> = {
	unknown_variable: ['variableSet'],
	not_allowed_for_caller: ['accountKeys', 'globals'],
	https_required: ['limits'],
	invalid_method: ['method'],
	body_required: ['method'],
	content_type_missing: ['contentType'],
	content_type_not_allowed: ['contentType'],
	body_type_mismatch: ['success'],
	verifier_body_invalid: ['responseBody']
};

/** The rule an issue code comes from: the table above, or a Fetch Messages answer's reading. */
function rulesOf(code: string): RuleName[] | undefined {
	return RULE_OF[code] ?? (code.startsWith('fetch_') ? ['responseBody'] : undefined);
}

const PROVIDERS: Source = { kind: 'providers', ref: 'two servers seen' };

/** Every issue a service's rules can be made to give: names, settings and answers that break them. */
function provoke(service: Service): Issue[] {
	const issues: Issue[] = [];
	const urlKey = keyOf(service, 'url');
	if (service.kind !== 'template' || !urlKey) return issues;
	const names = '%no_such_name% %account[nope]% %account[username]% %installid% %appid%';
	issues.push(...analyzeTemplate(names, service, urlKey).issues);
	const methodKey = keyOf(service, 'method');
	const postKey = keyOf(service, 'postData');
	const typeKey = keyOf(service, 'contentType');
	for (const body of ['', 'a=%no_such_name%']) {
		const settings: Record<string, string> = { [urlKey]: 'http://example.com/%no_such_name%' };
		if (postKey) settings[postKey] = body;
		if (typeKey) settings[typeKey] = body === '' ? '' : 'text/x-bogus';
		if (methodKey) settings[methodKey] = 'BOGUS';
		issues.push(...buildRequests({ service, settings, values: {} }).issues);
	}
	for (const status of [200, 204, 400, 500]) {
		for (const [type, body] of [
			['application/json', 'not json'],
			['application/xml', '<open>'],
			['text/html', '<html><body>oops</body></html>'],
			['', ''],
			['application/json', '{"received_messages": [{"message_id": 1}]}']
		]) {
			const headers: Record<string, string> = type ? { 'content-type': type } : {};
			issues.push(...interpretResponse(service, { status, headers, body }).issues);
		}
	}
	return issues;
}

const errorsFromRules = (issues: readonly Issue[]) =>
	issues.filter((i) => i.severity === 'error' && rulesOf(i.code));

describe('where each rule comes from', () => {
	it('gives every service, key, variable and remark a source that SourceSchema reads', () => {
		for (const service of SERVICES) {
			const sources = [
				sourceOf(service),
				...service.keys.map(sourceOf),
				...service.variables.map(sourceOf),
				...service.remarks.map((r) => remarkOf(r).source)
			];
			for (const source of sources) expect(SourceSchema.parse(source)).toEqual(source);
		}
	});

	it('says the contract for an entry that names no source', () => {
		const contract = SERVICES.find((s) => s.id === 'sendMessage') as Service;
		expect(sourceOf(contract)).toBe(CONTRACT_SOURCE);
		expect(ruleSource(contract, 'responseBody')).toBe(CONTRACT_SOURCE);
		expect(remarkOf('A remark.').source).toBe(CONTRACT_SOURCE);
		expect(describeSource(CONTRACT_SOURCE)).toBe('From the contract.');
	});

	it('lets only the contract and the documentation make an error', () => {
		expect(severityFrom(CONTRACT_SOURCE, 'error')).toBe('error');
		expect(severityFrom({ kind: 'docs', ref: 'api/client/intro' }, 'error')).toBe('error');
		expect(severityFrom(PROVIDERS, 'error')).toBe('warning');
		expect(severityFrom({ kind: 'inference', ref: 'by the prefix rule' }, 'error')).toBe('warning');
		expect(severityFrom(PROVIDERS, 'info')).toBe('info');
	});

	it('finds the errors the contract services rules make (so the walk below can fail)', () => {
		const codes = new Set(SERVICES.flatMap((s) => errorsFromRules(provoke(s)).map((i) => i.code)));
		for (const code of Object.keys(RULE_OF)) expect(codes, code).toContain(code);
	});

	it.each(SERVICES.map((s) => [s.id, s] as const))(
		'walks %s: no rule that is not from the contract or the docs makes an error',
		(_, service) => {
			const fromWeakRules = errorsFromRules(provoke(service)).filter(
				(issue) => !rulesOf(issue.code)?.some((rule) => isAuthority(ruleSource(service, rule)))
			);
			expect(fromWeakRules).toEqual([]);
		}
	);

	it.each(SERVICES.map((s) => [s.id, s] as const))(
		'walks %s as if its rules came from providers: every such error becomes a warning',
		(_, service) => {
			// Its own id: vocabularies are cached by id.
			const weak: Service = {
				...service,
				id: `${service.id}-as-seen`,
				source: PROVIDERS,
				ruleSources: undefined
			};
			const strong = provoke(service);
			const weakened = provoke(weak);
			expect(errorsFromRules(weakened)).toEqual([]);
			// The same issues, only milder: nothing is dropped.
			expect(weakened.map((i) => i.code)).toEqual(strong.map((i) => i.code));
		}
	);
});
