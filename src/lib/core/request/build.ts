import { findKnownService } from '../catalogue/known';
import type { Method, Service } from '../catalogue/schema';
import type { DeclaredAccountKey } from '../catalogue/account-keys';
import { vocabularyOf } from '../catalogue/vocabulary';
import { ruleIssue } from '../catalogue/sources';
import { append, Repeats, type Issue } from '../issues';
import {
	analyzeTemplate,
	encodingForContentType,
	expand,
	mediaTypeEssence,
	type Encoding,
	type ExpandOptions,
	type Substitution,
	type Tokenized
} from '../template';
import type { TemplateMemo } from '../template/incremental';
import { checkBody, checkUrl, type JsonBodyReader, type XmlBodyReader } from './checks';
import { readJsonBody } from './json-read';
import { hasLineBreak, parseHeaderLines, type HeaderLine } from './headers';
import { resolveSettings, type ResolvedSettings, type Settings } from './settings';
import { recipientsOf, resolverFor, type Resolver, type Values } from './values';

/**
 * The request builder: a service's settings and a scenario of values become the exact HTTP
 * request(s) the caller sends. The preview, cURL export, server-side expansion and the test
 * call all take their request from here.
 */

/** One header as sent, in order. */
export interface Header {
	name: string;
	value: string;
}

/** One request exactly as the caller sends it, with where each value landed. */
export interface BuiltRequest {
	method: Method;
	url: string;
	headers: Header[];
	/** The body as sent; null when the request has none. */
	body: string | null;
	/** The per-recipient value this request was built for, when there are several. */
	recipient?: string;
	contentType: string | null;
	bodyEncoding: Encoding;
	/** Where values landed: `headers[i]` holds the substitutions of `headers[i].value`. */
	substitutions: { url: Substitution[]; body: Substitution[]; headers: Substitution[][] };
}

/** What to build. */
export interface BuildInput {
	service: Service | string;
	settings: Settings;
	values: Values;
	/** Show what a caller that does no escaping would send. */
	rawSubstitution?: boolean;
	/** The account keys the profile's XML declares (`%account[apiUser]%`). */
	accountKeys?: readonly DeclaredAccountKey[];
}

/** The requests (none when the service is not called) and every issue found. */
export interface BuildResult {
	requests: BuiltRequest[];
	issues: Issue[];
}

interface Plan {
	service: Service;
	settings: ResolvedSettings;
	method: Method;
	sendsBody: boolean;
	contentType: string | null;
	url: Tokenized;
	body: Tokenized;
	headers: { line: HeaderLine; template: Tokenized }[];
}

function chooseMethod(service: Service, s: ResolvedSettings, issues: Issue[]): Method {
	const byBody: Method = s.postData !== '' ? 'POST' : 'GET';
	const rule = service.method;
	if (rule.kind === 'fixed') return rule.method;
	if (rule.kind === 'byBody' || s.method === '') return byBody;
	const method = s.method.toUpperCase() as Method;
	if (rule.methods.includes(method)) return method;
	issues.push(
		ruleIssue(service, 'method', {
			code: 'invalid_method',
			severity: 'error',
			message: `"${s.method}" is not a method of ${service.title}: use ${rule.methods.join(', ')} or leave it empty (${byBody} here).`,
			field: s.methodField
		})
	);
	return byBody;
}

function plan(
	service: Service,
	s: ResolvedSettings,
	issues: Issue[],
	declared: readonly DeclaredAccountKey[],
	memo: TemplateMemo | undefined
): Plan {
	const method = chooseMethod(service, s, issues);
	let sendsBody = s.postData !== '' && method !== 'GET' && method !== 'HEAD';
	if (s.postData !== '' && !sendsBody) {
		issues.push({
			code: 'body_ignored',
			severity: 'warning',
			message: `The post data is not sent with ${method}.`,
			field: s.postDataField
		});
	}
	if (service.method.kind === 'fixed' && s.postData === '') {
		issues.push(
			ruleIssue(service, 'method', {
				code: 'body_required',
				severity: 'error',
				message: `${service.title} is always ${method} with a body built from the post data: fill it in.`,
				field: s.postDataField
			})
		);
		sendsBody = true;
	}
	let contentType: string | null = null;
	if (sendsBody) {
		contentType = s.contentType || service.contentType.default;
		if (contentType === null) {
			issues.push(
				ruleIssue(service, 'contentType', {
					code: 'content_type_missing',
					severity: 'error',
					message: `Choose the content type (${service.contentType.allowed?.join(' or ')}): the contract does not say which one is used when none is set.`,
					field: s.contentTypeField
				})
			);
		}
		const legacy = service.deprecatedKeys.find((d) => d.key === s.contentTypeField);
		if (legacy && contentType) {
			issues.push({
				code: 'content_type_from_deprecated_key',
				severity: 'info',
				message: `The platform sends Content-Type: ${contentType}, taken from the deprecated ${legacy.key} because ${legacy.replacement} is empty.`,
				field: legacy.key
			});
		}
		const allowed = service.contentType.allowed;
		if (contentType && allowed && !allowed.includes(mediaTypeEssence(contentType) ?? '')) {
			issues.push(
				ruleIssue(service, 'contentType', {
					code: 'content_type_not_allowed',
					severity: 'error',
					message: `${service.title} allows only ${allowed.join(', ')}, not ${contentType}.`,
					field: s.contentTypeField
				})
			);
		}
	} else if (s.contentType !== '') {
		issues.push({
			code: 'content_type_unused',
			severity: 'info',
			message: 'No body is sent, so no Content-Type is sent either.',
			field: s.contentTypeField
		});
	}
	const analyze = (slot: string, source: string, field: string) =>
		memo
			? memo.analyze(slot, source, service, field, declared)
			: analyzeTemplate(source, service, field, declared);
	const url = analyze('url', s.url, s.urlField);
	const body = analyze('body', s.postData, s.postDataField);
	append(issues, url.issues);
	append(issues, body.issues);
	const parsedHeaders = parseHeaderLines(s.customHeaders, s.customHeadersField);
	append(issues, parsedHeaders.issues);
	const headers = parsedHeaders.lines.map((line) => {
		const analysis = analyzeTemplate(line.value, service, s.customHeadersField, declared);
		for (const issue of analysis.issues) shift(issue, line.valueFrom);
		append(issues, analysis.issues);
		if (sendsBody && line.name.toLowerCase() === 'content-type') {
			issues.push({
				code: 'duplicate_content_type',
				severity: 'warning',
				message: 'A custom Content-Type header is sent besides the content type setting.',
				field: s.customHeadersField,
				from: line.lineFrom,
				to: line.lineTo
			});
		}
		return { line, template: analysis.tokenized };
	});
	return {
		service,
		settings: s,
		method,
		sendsBody,
		contentType,
		url: url.tokenized,
		body: body.tokenized,
		headers
	};
}

function shift(issue: Issue, by: number): void {
	if (issue.from !== undefined) issue.from += by;
	if (issue.to !== undefined) issue.to += by;
	if (issue.fix) issue.fix = { ...issue.fix, from: issue.fix.from + by, to: issue.fix.to + by };
}

/** Read as the URL parser reads it (case, leading spaces), so masking agrees with checkUrl. */
function isPlainHttp(url: string): boolean {
	try {
		return new URL(url).protocol === 'http:';
	} catch {
		return /^\s*http:/i.test(url);
	}
}

function buildOne(
	p: Plan,
	resolver: Resolver,
	raw: boolean,
	readers: { xml: XmlBodyReader; json: JsonBodyReader },
	issues: Issue[],
	memo: { of: TemplateMemo; request: number } | undefined
): BuiltRequest {
	// Each expansion's options are written out, not spread from shared ones: V8 builds an object
	// spread with properties after it property by property, about 1 µs each time.
	const options = (context: Encoding, maskPassword?: boolean): ExpandOptions => ({
		resolve: resolver.resolve,
		statusOf: resolver.statusOf,
		raw,
		context,
		maskPassword
	});
	const expanded = (slot: string, template: Tokenized, options: ExpandOptions) =>
		memo ? memo.of.expand(`${memo.request}:${slot}`, template, options) : expand(template, options);
	const probe = expanded('url', p.url, options('url'));
	const maskPassword = isPlainHttp(probe.text);
	const url = maskPassword ? expanded('masked url', p.url, options('url', maskPassword)) : probe;
	const field = p.settings.urlField;
	// Expansion finds a value's issues at each use of its name: listed as analysis lists them.
	const repeats = new Repeats(issues);
	repeats.addAll(url.issues, field);
	append(issues, checkUrl(url.text, p.url.source, p.service, field).issues);

	const headers: Header[] = [];
	const headerSubs: Substitution[][] = [];
	if (p.sendsBody && p.contentType) {
		headers.push({ name: 'Content-Type', value: p.contentType });
		headerSubs.push([]);
	}
	for (const { line, template } of p.headers) {
		const value = expand(template, options('raw', maskPassword));
		if (hasLineBreak(value.text)) {
			issues.push({
				code: 'header_crlf',
				severity: 'error',
				message: `After expansion the ${line.name} header holds a line break or NUL; it is not sent.`,
				field: p.settings.customHeadersField,
				from: line.lineFrom,
				to: line.lineTo
			});
			continue;
		}
		headers.push({ name: line.name, value: value.text });
		headerSubs.push(value.substitutions);
	}

	const bodyEncoding = encodingForContentType(p.contentType);
	let body: string | null = null;
	let bodySubs: Substitution[] = [];
	if (p.sendsBody) {
		const expansion = expanded('body', p.body, options(bodyEncoding, maskPassword));
		body = expansion.text;
		bodySubs = expansion.substitutions;
		const bodyField = p.settings.postDataField;
		repeats.addAll(expansion.issues, bodyField);
		issues.push(
			...checkBody(
				body,
				bodyEncoding,
				p.contentType ?? '',
				bodySubs,
				bodyField,
				readers.xml,
				readers.json
			)
		);
	}
	repeats.finish();
	// Looked through in place: a megabyte body has tens of thousands of substitutions.
	const masks = (subs: readonly Substitution[]) => subs.some((s) => s.status === 'masked');
	if (maskPassword && (masks(url.substitutions) || masks(bodySubs) || headerSubs.some(masks))) {
		issues.push({
			code: 'password_masked',
			severity: 'warning',
			message:
				'Over plain http: the app sends %account[password]% as ****. Use https:, or %sha1(%account[password]%)%.',
			field
		});
	}
	return {
		method: p.method,
		url: url.text,
		headers,
		body,
		contentType: p.sendsBody ? p.contentType : null,
		bodyEncoding,
		substitutions: { url: url.substitutions, body: bodySubs, headers: headerSubs }
	};
}

/** The request with the headers the app adds itself from the values it kept (none when empty). */
function withAppHeaders(service: Service, values: Values, request: BuiltRequest): BuiltRequest {
	for (const header of service.appHeaders ?? []) {
		const value = Object.hasOwn(values, header.from) ? values[header.from] : undefined;
		if (typeof value !== 'string' || value.trim() === '' || hasLineBreak(value)) continue;
		request.headers.push({ name: header.name, value: value.trim() });
		request.substitutions.headers.push([]);
	}
	return request;
}

function dedupe(issues: Issue[]): Issue[] {
	const seen = new Set<string>();
	return issues.filter((i) => {
		const id = `${i.code}|${i.field}|${i.from}|${i.to}|${i.message}`;
		if (seen.has(id)) return false;
		seen.add(id);
		return true;
	});
}

function valueIssues(resolvers: Resolver[]): Issue[] {
	const missing = new Set(resolvers.flatMap((r) => [...r.missing]));
	const multi = new Set(resolvers.flatMap((r) => [...r.multiValued]));
	return [
		...[...missing].map<Issue>((key) => ({
			code: 'missing_value',
			severity: 'info',
			message: `%${key}% has no value in this scenario; it is sent empty.`
		})),
		...[...multi].map<Issue>((key) => ({
			code: 'several_values',
			severity: 'warning',
			message: `%${key}% takes one value; the first of the list is used.`
		}))
	];
}

/**
 * The values of a build's first request alone: a per-recipient list (`sms_to` of two recipients)
 * cut to its first recipient. The one request built from them is byte for byte the first of the
 * whole list's requests: a smoke test sends one message, not one per recipient.
 */
export function firstRequestValues(serviceId: string, values: Values): Values {
	const name = findKnownService(serviceId)?.variables.find((v) => v.perRecipient)?.name;
	const recipients = recipientsOf(values, name);
	if (!name || recipients === null || recipients.length <= 1) return values;
	return { ...values, [name]: recipients.slice(0, 1) };
}

/**
 * Builds the request(s) a service's caller sends for these settings and values, checking an
 * XML body with `readXml` and a JSON one with `readJson`. Everything but a browser page calls
 * `buildRequests`, which reads XML bodies with the product's one strict reader and JSON ones in
 * place; a page gives its XML reader once it has loaded, and reads large bodies in a worker.
 * An editor gives its `memo`, from which each key's build is derived (the same result).
 */
export function buildRequestsWith(
	input: BuildInput,
	readXml: XmlBodyReader,
	readJson: JsonBodyReader = readJsonBody,
	memo?: TemplateMemo
): BuildResult {
	const service =
		typeof input.service === 'string' ? findKnownService(input.service) : input.service;
	if (!service || service.kind !== 'template') {
		const name = typeof input.service === 'string' ? input.service : input.service.id;
		const issue: Issue = {
			code: 'unknown_service',
			severity: 'error',
			message: `"${name}" is not a provider web service; use one of the catalogue's template services.`
		};
		return { requests: [], issues: [issue] };
	}
	const settings = resolveSettings(service, input.settings);
	const issues: Issue[] = [...settings.issues];
	const declared = input.accountKeys ?? [];
	const p = plan(service, settings, issues, declared, memo);
	if (settings.skipped) return { requests: [], issues: dedupe(issues) };
	if (settings.url.trim() === '') {
		issues.push({
			code: 'url_missing',
			severity: service.id === 'mediaRefSend' ? 'info' : 'warning',
			message:
				service.id === 'mediaRefSend'
					? 'No URL: media messages are delivered as multipart messages via SIP instead.'
					: `No URL: ${service.title} is not called.`,
			field: settings.urlField
		});
		return { requests: [], issues: dedupe(issues) };
	}
	const vocabulary = vocabularyOf(service, declared);
	const perRecipient = service.variables.find((v) => v.perRecipient)?.name;
	const recipients = recipientsOf(input.values, perRecipient);
	const targets = recipients === null ? [null] : recipients;
	if (recipients !== null && recipients.length === 0) {
		issues.push({
			code: 'no_recipients',
			severity: 'warning',
			message: `%${perRecipient}% is an empty list: no request is sent.`
		});
	}
	const resolvers: Resolver[] = [];
	const readers = { xml: readXml, json: readJson };
	const requests = targets.map((value, index) => {
		const recipient = value === null || !perRecipient ? null : { name: perRecipient, value };
		const resolver = resolverFor(input.values, vocabulary, recipient);
		resolvers.push(resolver);
		const request = withAppHeaders(
			service,
			input.values,
			buildOne(
				p,
				resolver,
				input.rawSubstitution === true,
				readers,
				issues,
				memo && { of: memo, request: index }
			)
		);
		return recipients !== null && value !== null ? { ...request, recipient: value } : request;
	});
	append(issues, valueIssues(resolvers));
	return { requests, issues: dedupe(issues) };
}
