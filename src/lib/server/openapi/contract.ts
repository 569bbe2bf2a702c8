import { z } from 'zod';
import { ErrorSchema } from '$lib/api-schemas/common';
import { requiredAccess, type Access } from '../auth/access';

/**
 * How one operation of the HTTP API is described: the schemas its handler validates with, the
 * answers it gives, and an example body the server accepts. The operations are data (the files
 * under `./operations/`); the OpenAPI document (`./document.ts`), the reference page and the
 * tests that hold every answer to the document all read them. What every operation shares is
 * added here, from the rules that make it true — who may call it comes from the access table the
 * hooks enforce, so the document cannot promise another rule than the one applied.
 */

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The areas of the API, in the order the reference lists them. */
export const TAGS = [
	{ name: 'Session', description: 'Signing in and out with a password, and who is signed in.' },
	{ name: 'Account', description: 'The signed-in user’s own password and second factor.' },
	{ name: 'API tokens', description: 'Bearer tokens for scripts and CI, acting as their owner.' },
	{ name: 'Users', description: 'Accounts of the team (admins).' },
	{ name: 'Profiles', description: 'Profiles, their revisions and how they are saved.' },
	{ name: 'Import and export', description: 'Provisioning XML, portal sheets and backups.' },
	{ name: 'Preview', description: 'The requests a service’s templates make, rendered.' },
	{ name: 'Test calls', description: 'Real requests sent through the server, and their history.' },
	{ name: 'Echo sinks', description: 'Addresses that record what is sent to them.' },
	{ name: 'Push sandboxes', description: 'Push gateways that behave as the contract says.' },
	{ name: 'Push composer', description: 'Pushes composed and sent from the app.' },
	{ name: 'Flows', description: 'The platform’s journeys, run end to end.' },
	{ name: 'Audit', description: 'Who did what, its export and its stream (admins).' },
	{ name: 'Health', description: 'Liveness, readiness and the database.' },
	{ name: 'Contract', description: 'This document and its reference.' },
	{ name: 'Gateway', description: 'Addresses the provider’s servers call, by their secret key.' }
] as const;

export type Tag = (typeof TAGS)[number]['name'];

/** One answer of an operation. */
export interface Answer {
	description: string;
	/** The body by media type; none for an empty answer (204, a redirect). */
	content?: Record<string, z.ZodType>;
	/**
	 * The name of the reusable answer (`components.responses`) this one is: the answers every
	 * operation shares are written once in the document and referred to.
	 */
	component?: string;
	/** Headers the answer carries, by name. */
	headers?: Record<
		string,
		{
			description: string;
			schema?: { type: 'string' | 'integer'; pattern?: string };
			required?: boolean;
		}
	>;
}

/** An operation as its area's file writes it. */
export interface OperationSpec {
	operationId: string;
	method: Method;
	/** The path as OpenAPI writes it: `/api/profiles/{id}`. */
	path: string;
	summary: string;
	description?: string;
	tag: Tag;
	params?: { path?: z.ZodObject; query?: z.ZodObject; header?: z.ZodObject };
	body?: {
		/** `application/json` unless said. */
		mediaType?: string;
		schema: z.ZodType;
		/** A body the server accepts (a test sends it). */
		example: unknown;
		required?: boolean;
		description?: string;
	};
	/**
	 * The answers particular to this operation: its successes and its own errors, by status;
	 * `default` for any other status (an echo sink answers what its users chose).
	 */
	answers: Answers;
	/** False when the operation never touches the database (no 503 for an outage). */
	database?: boolean;
	/** The Error answers of this operation beyond the shared ones (409, 422, 429, …), by status. */
	errors?: Record<number, string>;
	/** Overrides the access the table gives (only for addresses served before the kit). */
	access?: Access;
	/** False when a query is read leniently: a value it cannot read is no filter, never a 400. */
	invalidInput?: false;
}

/** Answers by status, and `default` for any other. */
export type Answers = { [status: number]: Answer; default?: Answer };

/** An operation with everything shared filled in. */
export interface Operation extends OperationSpec {
	access: Access;
}

const JSON_TYPE = 'application/json';

/** An answer with a JSON body. */
export function jsonAnswer(description: string, schema: z.ZodType, headers?: Answer['headers']) {
	return { description, content: { [JSON_TYPE]: schema }, ...(headers ? { headers } : {}) };
}

/** An answer with no body. */
export const NO_CONTENT: Answer = { description: 'Done; no body.' };

/** The header of an answer that says when to try again. */
export const RETRY_AFTER = {
	'Retry-After': {
		description: 'Seconds to wait before trying again.',
		schema: { type: 'string' as const, pattern: '^[0-9]+$' },
		required: true
	}
};

function errorAnswer(description: string, headers?: Answer['headers'], component?: string): Answer {
	return { ...jsonAnswer(description, ErrorSchema, headers), ...(component ? { component } : {}) };
}

/** The answers the rules every request passes through give, each written once. */
const SHARED = {
	invalidInput: errorAnswer(
		'`invalid_input`: the body or the query is not acceptable; `issues` says why.',
		undefined,
		'InvalidInput'
	),
	unauthenticated: errorAnswer(
		'`unauthenticated`: no session and no valid API token.',
		undefined,
		'Unauthenticated'
	),
	forbidden: errorAnswer(
		'`forbidden`: the role does not allow it (`x-required-role` names the role needed); `cross_site`: a session’s write from another origin; `second_factor_required`: the account must set up a second factor first.',
		undefined,
		'Forbidden'
	),
	refused: errorAnswer(
		'`cross_site`: a session’s write from another origin; `second_factor_required`: the account must set up a second factor first.',
		undefined,
		'Refused'
	),
	crossSite: errorAnswer('`cross_site`: a write from another origin.', undefined, 'CrossSite'),
	notFound: errorAnswer('`not_found`: no such item.', undefined, 'NotFound'),
	tooLarge: errorAnswer(
		'`payload_too_large`: the body is larger than the server accepts.',
		undefined,
		'PayloadTooLarge'
	),
	outage: errorAnswer(
		'`database_unavailable`: the database does not answer; try again shortly.',
		RETRY_AFTER,
		'DatabaseUnavailable'
	)
};

/** A sample path for the access table: every `{param}` replaced by a plain word. */
function samplePath(path: string): string {
	return path.replace(/\{[^}]+\}/g, 'x');
}

/** The shared answers an operation has by the rules every request passes through. */
export function complete(spec: OperationSpec): Operation {
	const access = spec.access ?? requiredAccess(spec.method.toUpperCase(), samplePath(spec.path));
	const answers: Answers = { ...spec.answers };
	const add = (status: number, answer: Answer) => {
		answers[status] ??= answer;
	};
	for (const [status, description] of Object.entries(spec.errors ?? {})) {
		add(Number(status), errorAnswer(description, status === '429' ? RETRY_AFTER : undefined));
	}
	if ((spec.body || spec.params?.query) && spec.invalidInput !== false) {
		add(400, SHARED.invalidInput);
	}
	if (access !== 'public') {
		add(401, SHARED.unauthenticated);
		add(403, access === 'user' || access === 'viewer' ? SHARED.refused : SHARED.forbidden);
	}
	if (access === 'public' && spec.method !== 'get' && spec.path.startsWith('/api/')) {
		add(403, SHARED.crossSite);
	}
	if (spec.params?.path) add(404, SHARED.notFound);
	if (spec.body) add(413, SHARED.tooLarge);
	if (spec.database !== false) add(503, SHARED.outage);
	return { ...spec, access, answers };
}
