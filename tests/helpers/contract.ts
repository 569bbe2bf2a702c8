import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Holds answers to the API's published document (`docs/openapi.json`, which a test keeps equal to
 * what the server serves): the operation an answer belongs to is found by method and path, and
 * its status, media type, headers and body must be ones the document gives that operation. An
 * answer the document does not describe is a violation, with what is wrong said in full.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export const DOCUMENT: Json = JSON.parse(
	readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8')
);

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
// The CommonJS module's function, however the test runner's loader hands it over.
(
	((addFormats as unknown as { default?: typeof addFormats }).default ?? addFormats) as (
		ajv: Ajv2020
	) => void
)(ajv);
ajv.addSchema(DOCUMENT, 'openapi.json');

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'] as const;

interface Route {
	template: string;
	pattern: RegExp;
	literal: number;
}

/** The document's paths as patterns; the one with more literal segments wins a tie. */
const ROUTES: Route[] = Object.keys(DOCUMENT.paths)
	.map((template) => ({
		template,
		pattern: new RegExp(
			`^${template
				.split('/')
				.map((segment) =>
					/^\{[^}]+\}$/.test(segment)
						? segment === '{path}'
							? '.+'
							: '[^/]+'
						: segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
				)
				.join('/')}/?$`
		),
		literal: template.split('/').filter((s) => s && !s.startsWith('{')).length
	}))
	.sort((a, b) => b.literal - a.literal);

/**
 * Whether an address is one of the API's operations: under `/api`, the push gateway or the echo
 * sinks. The reference page (`/api/docs`) is a page of the app, not an operation.
 */
export function isOperationPath(pathname: string): boolean {
	return /^\/(api|sandbox|sink)\//.test(pathname) && pathname !== '/api/docs';
}

/** The document's path template for a request path, if it has one. */
export function templateOf(pathname: string): string | undefined {
	// As the router matches it: decoded, all but `%25` (`/api/test-call%73` is `/api/test-calls`).
	let routed = pathname;
	try {
		routed = pathname.split('%25').map(decodeURI).join('%25');
	} catch {
		// A path that does not decode is matched as it is.
	}
	return ROUTES.find((r) => r.pattern.test(routed))?.template;
}

const pointer = (...parts: string[]) =>
	parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** A part of the document, following a `$ref` to a component; with the pointer it is at. */
function resolved(node: Json, at: string): [Json, string] {
	if (!node?.$ref) return [node, at];
	const target = (node.$ref as string).replace(/^#\//, '');
	const value = target.split('/').reduce((here: Json, key) => here?.[key], DOCUMENT);
	return resolved(value, target);
}

const validators = new Map<string, ValidateFunction>();

function validatorFor(ref: string): ValidateFunction {
	let validate = validators.get(ref);
	if (!validate) {
		validate = ajv.compile({ $ref: `openapi.json#/${ref}` });
		validators.set(ref, validate);
	}
	return validate;
}

/** One answer as received. */
export interface Received {
	method: string;
	url: string;
	status: number;
	headers: Headers;
	/** The body's text; undefined for a stream that was not read. */
	text?: string;
}

/** What is wrong with an answer, by the document; an empty list when it is described. */
export function violations(answer: Received): string[] {
	const { pathname } = new URL(answer.url);
	const method = answer.method.toLowerCase();
	const template = templateOf(pathname);
	const where = `${answer.method} ${pathname} → ${answer.status}`;
	if (!template) return [`${where}: the document has no path for ${pathname}.`];
	const asGet = method === 'head' ? 'get' : method;
	const operation = DOCUMENT.paths[template][asGet];
	// A method the document does not give a path is answered 405, as HTTP says.
	if (!operation && answer.status === 405) return [];
	if (!operation) return [`${where}: the document has no ${answer.method} for ${template}.`];
	const status = String(answer.status);
	const statusKey = [status, `${status[0]}XX`, 'default'].find((k) => operation.responses[k]);
	const [documented, documentedAt] = statusKey
		? resolved(
				operation.responses[statusKey],
				pointer('paths', template, asGet, 'responses', statusKey)
			)
		: [undefined, ''];
	if (!documented) {
		return [
			`${where}: ${operation.operationId} does not document status ${answer.status} (it has ${Object.keys(operation.responses).join(', ')}).`
		];
	}
	const problems: string[] = [];
	for (const [name, given] of Object.entries<Json>(documented.headers ?? {})) {
		const [header] = resolved(given, '');
		const value = answer.headers.get(name);
		if (value === null) {
			if (header.required) problems.push(`${where}: the header ${name} is missing.`);
			continue;
		}
		if (header.schema?.pattern && !new RegExp(header.schema.pattern).test(value)) {
			problems.push(`${where}: the header ${name} is "${value}", not ${header.schema.pattern}.`);
		}
	}
	const content = documented.content as Record<string, Json> | undefined;
	const type = (answer.headers.get('content-type') ?? '').split(';', 1)[0].trim().toLowerCase();
	if (!content) {
		if (answer.text) problems.push(`${where}: documented without a body, but has one (${type}).`);
		return problems;
	}
	if (method === 'head') return problems;
	const mediaKey = [type, `${type.split('/')[0]}/*`, '*/*'].find((k) => k in content);
	if (!mediaKey) {
		problems.push(
			`${where}: the media type ${type || '(none)'} is not documented (${Object.keys(content).join(', ')}).`
		);
		return problems;
	}
	// A body the document leaves open (any JSON, any media type) is not read further.
	const open = mediaKey !== type || Object.keys(content[mediaKey].schema ?? {}).length === 0;
	if (open || answer.text === undefined || !type.endsWith('json')) return problems;
	let body: unknown;
	try {
		body = JSON.parse(answer.text);
	} catch {
		return [...problems, `${where}: the body is not JSON.`];
	}
	const validate = validatorFor(`${documentedAt}/${pointer('content', type, 'schema')}`);
	if (!validate(body)) {
		const shown = answer.text.length > 600 ? `${answer.text.slice(0, 600)}…` : answer.text;
		problems.push(
			`${where}: the body does not match ${operation.operationId}'s ${answer.status} schema: ${ajv.errorsText(validate.errors, { separator: '; ' })}\n  body: ${shown}`
		);
	}
	return problems;
}

/** The operation a request would reach, or undefined. */
export function operationOf(method: string, pathname: string): Json | undefined {
	const template = templateOf(pathname);
	return template ? DOCUMENT.paths[template][method.toLowerCase()] : undefined;
}

/** Every method and path template of the document, as `GET /api/profiles/{id}`. */
export function documentedOperations(): string[] {
	return Object.entries<Json>(DOCUMENT.paths).flatMap(([template, item]) =>
		METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${template}`)
	);
}
