import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import { TAGS, type Answer, type Operation } from './contract';
import { OPERATIONS } from './operations';
import { version } from '../../../../package.json';

/**
 * The OpenAPI 3.1 document of the HTTP API, made from the operations (their zod schemas, through
 * zod-openapi, which uses zod's own JSON Schema output). Made once, on first use, with its ETag;
 * `GET /api/openapi.json` serves it and `docs/openapi.json` is a copy a test holds equal to it.
 */

/** The header every answer carries, written once (`components.headers`). */
const REQUEST_ID_HEADER = {
	description:
		'The request’s id: the caller’s own when it sent a sane one (at most 128 of `A-Z a-z 0-9 . _ -`), else a new one. It is in the log line and the audit entry.',
	required: true,
	schema: { type: 'string' as const, pattern: '^[A-Za-z0-9._-]{1,128}$' }
};
const REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

function response(answer: Answer) {
	return {
		description: answer.description,
		headers: {
			...REQUEST_ID,
			...Object.fromEntries(
				Object.entries(answer.headers ?? {}).map(([name, header]) => [
					name,
					{ schema: { type: 'string' as const }, ...header }
				])
			)
		},
		...(answer.content
			? {
					content: Object.fromEntries(
						Object.entries(answer.content).map(([type, schema]) => [type, { schema }])
					)
				}
			: {})
	};
}

const SESSION_RULE =
	'A session cookie (`ps_session`, from `POST /api/session` or the sign-in page). A session’s `POST`, `PUT`, `PATCH` and `DELETE` must carry an `Origin` (or `Referer`) of the app itself, else `403 cross_site`.';

/** Makes the document (see {@link openApi} for the one made once). */
export function buildDocument(operations: readonly Operation[], version: string) {
	const paths: ZodOpenApiPathsObject = {};
	/** The answers many operations share, written once and referred to. */
	const shared: Record<string, ReturnType<typeof response>> = {};
	const answerOf = (answer: Answer) => {
		if (!answer.component) return response(answer);
		shared[answer.component] ??= response(answer);
		return { $ref: `#/components/responses/${answer.component}` };
	};
	for (const op of operations) {
		const item = (paths[op.path] ??= {});
		item[op.method] = {
			operationId: op.operationId,
			summary: op.summary,
			...(op.description ? { description: op.description } : {}),
			tags: [op.tag],
			security: op.access === 'public' ? [] : [{ session: [] }, { bearer: [] }],
			...(op.params ? { requestParams: op.params } : {}),
			...(op.body
				? {
						requestBody: {
							required: op.body.required ?? true,
							...(op.body.description ? { description: op.body.description } : {}),
							content: {
								[op.body.mediaType ?? 'application/json']: {
									schema: op.body.schema,
									example: op.body.example
								}
							}
						}
					}
				: {}),
			responses: Object.fromEntries(
				Object.entries(op.answers)
					.sort(
						([a], [b]) => Number(a === 'default') - Number(b === 'default') || Number(a) - Number(b)
					)
					.map(([status, answer]) => [status, answerOf(answer)])
			),
			...(op.access !== 'public' && op.access !== 'user' ? { 'x-required-role': op.access } : {})
		};
	}
	return createDocument({
		openapi: '3.1.0',
		info: {
			title: 'Provisioning Studio API',
			version,
			description:
				'The JSON API of Provisioning Studio: profiles and their revisions, previews and test calls, push sandboxes, flows, users and the audit log. Within `/api`, changes are additive; a change that breaks a client comes only with an entry in the CHANGELOG.',
			license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' }
		},
		servers: [{ url: '/', description: 'The app itself' }],
		tags: TAGS.map((t) => ({ name: t.name, description: t.description })),
		paths,
		components: {
			responses: shared,
			headers: { RequestId: REQUEST_ID_HEADER },
			securitySchemes: {
				session: {
					type: 'apiKey',
					in: 'cookie',
					name: 'ps_session',
					description: SESSION_RULE
				},
				bearer: {
					type: 'http',
					scheme: 'bearer',
					bearerFormat: 'pst_…',
					description:
						'An API token (`pst_…`, made under Account › API tokens or with `POST /api/tokens`); it acts with its owner’s role. No Origin rule applies.'
				}
			}
		}
	});
}

let made:
	| {
			body: string;
			etag: string;
			/** `body` as UTF-8: what is sent to a client that does not take gzip. */
			plain: ArrayBuffer;
			/** The body gzipped once, for the clients that take it (most do). */
			gzipped: ArrayBuffer;
			document: ReturnType<typeof buildDocument>;
			operations: number;
	  }
	| undefined;

/** The bytes of `view` in an ArrayBuffer of their own (a body both Node and `Response` take). */
function arrayBuffer(view: Uint8Array): ArrayBuffer {
	const buffer = new ArrayBuffer(view.byteLength);
	new Uint8Array(buffer).set(view);
	return buffer;
}

/** The document, made once; its text and ETag as served. */
export function openApi() {
	if (!made) {
		const document = buildDocument(OPERATIONS, version);
		const body = `${JSON.stringify(document, null, 2)}\n`;
		const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
		made = {
			body,
			etag,
			plain: arrayBuffer(Buffer.from(body)),
			gzipped: arrayBuffer(gzipSync(body)),
			document,
			operations: OPERATIONS.length
		};
	}
	return made;
}

/** An answer to `GET /api/openapi.json`, for the kit's route and the direct path alike. */
export interface DocumentAnswer {
	status: 200 | 304;
	headers: Record<string, string>;
	body: ArrayBuffer | null;
}

/**
 * The document gzipped for a client that takes gzip, as it is otherwise; `304` to its own ETag
 * (one per encoding, as HTTP wants). Public and the same for everyone.
 */
export function documentAnswer(
	acceptEncoding: string | null | undefined,
	ifNoneMatch: string | null | undefined
): DocumentAnswer {
	const { plain, etag, gzipped } = openApi();
	const gzip = /\bgzip\b/.test(acceptEncoding ?? '');
	const tag = gzip ? etag.replace(/"$/, '-gz"') : etag;
	const headers: Record<string, string> = {
		etag: tag,
		vary: 'Accept-Encoding',
		'cache-control': 'no-cache',
		'access-control-allow-origin': '*'
	};
	if ((ifNoneMatch ?? '').split(',').some((t) => t.trim() === tag)) {
		return { status: 304, headers, body: null };
	}
	headers['content-type'] = 'application/json; charset=utf-8';
	if (!gzip) return { status: 200, headers, body: plain };
	return { status: 200, headers: { ...headers, 'content-encoding': 'gzip' }, body: gzipped };
}
