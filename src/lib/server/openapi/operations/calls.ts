import { z } from 'zod';
import { ErrorSchema } from '$lib/api-schemas/common';
import {
	FlowRunListSchema,
	FlowRunRecordSchema,
	FlowRunSchema,
	GatewayResponseSchema,
	MessagingRunSchema,
	MissingValuesErrorSchema,
	PushSendAnswerSchema,
	SandboxListSchema,
	SandboxOneSchema,
	SandboxPushListSchema,
	SinkListSchema,
	SinkOneSchema,
	SinkWithRequestsSchema,
	TestCallAnswerSchema,
	TestCallEntrySchema,
	TestCallListSchema
} from '$lib/api-schemas/calls';
import { FLOW_NAMES } from '$lib/core/catalogue/flows';
import { PushRequestSchema } from '$lib/core/push';
import { FlowInputSchema } from '../../flows';
import { MessagingInputSchema } from '../../phones';
import { PushSendInputSchema } from '../../push/send';
import {
	CreateSandboxSchema,
	SandboxPushesQuerySchema,
	UpdateSandboxSchema
} from '../../push/sandboxes';
import { CreateSinkSchema, UpdateSinkSchema } from '../../sinks';
import { TestCallBodySchema, TestCallHistoryQuerySchema } from '../../test-calls';
import {
	jsonAnswer,
	NO_CONTENT,
	RETRY_AFTER,
	type Answer,
	type Method,
	type OperationSpec
} from '../contract';

/** Test calls, echo sinks, push sandboxes and their gateway, the push composer and flows. */

/**
 * `429 too_many_calls`: the user's calls in flight are counted, not timed, so no Retry-After
 * comes with it (one of the calls running ends within the outbound time limit).
 */
const TOO_MANY_CALLS: Answer = jsonAnswer(
	'`too_many_calls`: you already have the most calls running (`OUTBOUND_MAX_IN_FLIGHT`, counted on every instance); wait for one to finish.',
	ErrorSchema
);

const sinkKey = z.object({
	key: z.string().meta({ description: 'The sink’s secret key (22 characters, base64url).' })
});
const sandboxId = z.object({ id: z.string().meta({ description: 'The sandbox’s id.' }) });

/** The header and the query a reconnecting event stream resumes with. */
const RESUME = {
	query: z.object({
		after: z.string().optional().meta({
			description: 'An id: first send every kept item after it (ignored unless a number).'
		})
	}),
	header: z.object({
		'last-event-id': z
			.string()
			.optional()
			.meta({ description: 'The id of the last event received; it wins over `after`.' })
	})
};

/** What both streams say of how they end when the caller's access does. */
const ACCESS_ENDS =
	' The stream ends, with a last `access_ended` event (`{"reason": "session_ended" | "token_revoked" | "deactivated" | "role_changed" | "second_factor_required"}`), as soon as the caller’s access ends: the session or API token it was opened with ended, the account was deactivated, the role no longer allows it, or REQUIRE_2FA holds the session back; the caller is checked again before events are sent. A reconnect is then refused as any request.';

/** What both streams say of how they end when the checks of their caller fall behind. */
const FALLS_BEHIND =
	' If the checks of the caller cannot keep up (a stuck database) while events keep coming, the stream ends with a last `reconnect` event (`{"reason": "behind"}`); reconnecting with `Last-Event-ID` resumes after the last event received.';

/** A stream that ends only when the server stops, the caller's access ends or it falls behind. */
const STREAM_ENDS =
	'The stream; it ends only as the server stops, the caller’s access ends or it falls behind.';

function eventStream(description: string): Answer {
	return { description, content: { 'text/event-stream': z.string() } };
}

const SMS_SETTINGS = {
	genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%',
	genericSmsSendPostData: '{"to":"%sms_to%","body":"%sms_body%"}',
	genericSmsSendContentType: 'application/json'
};

const testCallOperations: OperationSpec[] = [
	{
		operationId: 'sendTestCall',
		method: 'post',
		path: '/api/test-calls',
		summary: 'Send a service’s requests through the server and interpret each answer',
		description:
			'Sends the request(s) the preview shows, byte for byte, through the outbound policy, and answers each response with what the service’s caller does with it. The body is the preview’s (with `callId` to cancel it, and `secretsFrom` to keep it with a saved profile and fill values sent as the mask from its scenario), or a saved profile’s service and scenario. A stored secret goes only to the origins it was typed for. Secret values are masked everywhere in the answer. Every request is audited as `test_call`, and the call is kept in your history. The start script serves this endpoint before the kit for an ordinary call; the answers are the same.\n\nWeb Service Contacts with `wsContactsAuthUsername` set: a `401` with a Digest challenge (RFC 7616: MD5, SHA-256, `qop=auth`) is answered once, to the same URL, through the same outbound rules; `calls` then holds both exchanges and an issue says how it went (`digest_answered`, `digest_refused`, `digest_algorithm_unsupported`, `digest_qop_unsupported`, `digest_no_nonce`, `digest_no_challenge`, `digest_no_password`). A stored `wsContactsAuthPassword` is used only with an origin it was typed for.',
		tag: 'Test calls',
		body: {
			schema: TestCallBodySchema,
			description:
				'With `profileId`: a saved profile’s service and scenario; else the preview’s body.',
			example: {
				service: 'sendMessage',
				settings: SMS_SETTINGS,
				values: { sms_to: '+14155550123', sms_body: 'Hello' }
			}
		},
		answers: {
			200: jsonAnswer(
				'Each request with its response and interpretation, or why it has none (a refusal of the address policy, a time-out, a cancel…).',
				TestCallAnswerSchema
			),
			429: TOO_MANY_CALLS
		},
		errors: {
			400: '`invalid_input` or `invalid_json` (`issues` says why); `secret_origin`: a stored secret would go to another origin than the one it was typed for; `invalid_header`: a header would hold a line break or NUL once expanded; `https_required`: an https-only service (External Authentication, External provisioning on SSO) with an http: URL, the app’s own sink included, with the editor’s diagnostic’s message. Nothing was sent.',
			404: '`not_found`: no such profile (`profileId`, `secretsFrom`) or no such scenario in it; nothing was sent.'
		}
	},
	{
		operationId: 'listTestCalls',
		method: 'get',
		path: '/api/test-calls',
		summary: 'Your test calls of a service, newest first',
		description:
			'The last 50 calls you made of a service: those kept with a profile (`profileId`), or those of no profile.',
		tag: 'Test calls',
		params: { query: TestCallHistoryQuerySchema },
		answers: { 200: jsonAnswer('Your calls, newest first.', TestCallListSchema) }
	},
	{
		operationId: 'getTestCall',
		method: 'get',
		path: '/api/test-calls/{id}',
		summary: 'One of your test calls with its whole answer',
		description: 'Secrets masked as they were in the answer; `404` for anyone else’s call.',
		tag: 'Test calls',
		params: { path: z.object({ id: z.string().meta({ description: 'The call’s id.' }) }) },
		answers: { 200: jsonAnswer('The call.', TestCallEntrySchema) }
	},
	{
		operationId: 'cancelTestCall',
		method: 'delete',
		path: '/api/test-calls/running/{callId}',
		summary: 'Cancel a running test call of yours',
		description:
			'The call sent with this `callId` ends its request in flight as `cancelled` and sends none of the rest.',
		tag: 'Test calls',
		params: {
			path: z.object({
				callId: z.string().meta({ description: 'The `callId` the call was sent with.' })
			})
		},
		answers: { 204: NO_CONTENT }
	}
];

const sinkOperations: OperationSpec[] = [
	{
		operationId: 'listSinks',
		method: 'get',
		path: '/api/sinks',
		summary: 'Every echo sink',
		description: 'Newest first. Editors and admins only: what sinks record may hold credentials.',
		tag: 'Echo sinks',
		answers: { 200: jsonAnswer('The sinks.', SinkListSchema) }
	},
	{
		operationId: 'createSink',
		method: 'post',
		path: '/api/sinks',
		summary: 'Create an echo sink',
		description:
			'A new address `/sink/<key>/` with a secret key. It answers `200 {}` at once unless `answer` says otherwise (`delayMs` up to 30000 waits before answering).',
		tag: 'Echo sinks',
		body: {
			schema: CreateSinkSchema,
			example: {
				name: 'SMS endpoint',
				answer: { status: 200, contentType: 'application/json', body: '{"sms_id":"42"}' }
			}
		},
		answers: { 201: jsonAnswer('The new sink.', SinkOneSchema) }
	},
	{
		operationId: 'getSink',
		method: 'get',
		path: '/api/sinks/{key}',
		summary: 'A sink and the requests it received',
		description: 'It keeps its newest 100 requests; the `Cookie` header is never recorded.',
		tag: 'Echo sinks',
		params: { path: sinkKey },
		answers: { 200: jsonAnswer('The sink and its requests, newest first.', SinkWithRequestsSchema) }
	},
	{
		operationId: 'updateSink',
		method: 'put',
		path: '/api/sinks/{key}',
		summary: 'Rename a sink or change what it answers',
		description:
			'Any of `name` and `answer`; what the sink answers changes at once for the next request.',
		tag: 'Echo sinks',
		params: { path: sinkKey },
		body: { schema: UpdateSinkSchema, example: { name: 'SMS endpoint (slow)' } },
		answers: { 200: jsonAnswer('The sink.', SinkOneSchema) }
	},
	{
		operationId: 'deleteSink',
		method: 'delete',
		path: '/api/sinks/{key}',
		summary: 'Delete a sink and what it recorded',
		description: 'Its address answers 404 from then on.',
		tag: 'Echo sinks',
		params: { path: sinkKey },
		answers: { 204: NO_CONTENT }
	},
	{
		operationId: 'clearSinkRequests',
		method: 'delete',
		path: '/api/sinks/{key}/requests',
		summary: 'Forget the requests a sink received',
		description: 'The sink stays, with its address and its answer; what it recorded is gone.',
		tag: 'Echo sinks',
		params: { path: sinkKey },
		answers: { 204: NO_CONTENT }
	},
	{
		operationId: 'streamSinkRequests',
		method: 'get',
		path: '/api/sinks/{key}/events',
		summary: 'The requests a sink receives, as server-sent events',
		description:
			'One `request` event per request received, its `id:` the request’s id and its data the request as `GET /api/sinks/{key}` lists it. `Last-Event-ID` (or `?after=<id>`) first sends every kept request after that id, oldest first. A comment every 25 s keeps the stream open; as the server stops, a last `reconnect` event.' +
			ACCESS_ENDS +
			FALLS_BEHIND,
		tag: 'Echo sinks',
		params: { path: sinkKey, ...RESUME },
		// An `after` that is not an id is no resumption point, never a 400.
		invalidInput: false,
		answers: { 200: eventStream(STREAM_ENDS) }
	}
];

const sandboxOperations: OperationSpec[] = [
	{
		operationId: 'listSandboxes',
		method: 'get',
		path: '/api/sandboxes',
		summary: 'Every push sandbox of the team',
		description: 'Newest first, each with its absolute `pushUrl`.',
		tag: 'Push sandboxes',
		answers: { 200: jsonAnswer('The sandboxes.', SandboxListSchema) }
	},
	{
		operationId: 'createSandbox',
		method: 'post',
		path: '/api/sandboxes',
		summary: 'Create a push sandbox',
		description:
			'A push gateway inside the app at `<origin>/sandbox/<key>` (192 random bits), answering as the contract’s Errors table says. Every setting of its simulated upstream is optional.',
		tag: 'Push sandboxes',
		body: {
			schema: CreateSandboxSchema,
			example: { name: 'Staging gateway', defaultPlatform: 'platformA13' }
		},
		answers: { 201: jsonAnswer('The new sandbox.', SandboxOneSchema) }
	},
	{
		operationId: 'getSandbox',
		method: 'get',
		path: '/api/sandboxes/{id}',
		summary: 'One push sandbox',
		description: 'Its name, its push address and its simulated upstream’s settings.',
		tag: 'Push sandboxes',
		params: { path: sandboxId },
		answers: { 200: jsonAnswer('The sandbox.', SandboxOneSchema) }
	},
	{
		operationId: 'updateSandbox',
		method: 'patch',
		path: '/api/sandboxes/{id}',
		summary: 'Rename a sandbox or change its simulated upstream',
		description: 'Any of the settings; unknown fields are refused.',
		tag: 'Push sandboxes',
		params: { path: sandboxId },
		body: { schema: UpdateSandboxSchema, example: { upstreamError: true } },
		answers: { 200: jsonAnswer('The sandbox.', SandboxOneSchema) }
	},
	{
		operationId: 'deleteSandbox',
		method: 'delete',
		path: '/api/sandboxes/{id}',
		summary: 'Delete a sandbox and its pushes',
		description: 'Its address answers 404 from then on.',
		tag: 'Push sandboxes',
		params: { path: sandboxId },
		answers: { 204: NO_CONTENT }
	},
	{
		operationId: 'rotateSandboxKey',
		method: 'post',
		path: '/api/sandboxes/{id}/rotate',
		summary: 'Give a sandbox a new key and so a new pushUrl',
		description: 'The old address answers 404 from then on.',
		tag: 'Push sandboxes',
		params: { path: sandboxId },
		answers: { 200: jsonAnswer('The sandbox with its new `pushUrl`.', SandboxOneSchema) }
	},
	{
		operationId: 'listSandboxPushes',
		method: 'get',
		path: '/api/sandboxes/{id}/pushes',
		summary: 'The requests a sandbox answered, newest first',
		description:
			'It keeps its newest 500, each with the body and the answer up to 64 KiB and the details of the first 100 elements.',
		tag: 'Push sandboxes',
		params: { path: sandboxId, query: SandboxPushesQuerySchema },
		answers: { 200: jsonAnswer('The recorded requests.', SandboxPushListSchema) }
	},
	{
		operationId: 'streamSandboxPushes',
		method: 'get',
		path: '/api/sandboxes/{id}/events',
		summary: 'The requests a sandbox answers, as server-sent events',
		description:
			'One `push` event per recorded request, its `id:` the push id and its data the push as `GET /api/sandboxes/{id}/pushes` lists it. `Last-Event-ID` (or `?after=<id>`) first sends every kept push after that id, oldest first; with several instances on PostgreSQL, what any of them records arrives within a second.' +
			ACCESS_ENDS +
			FALLS_BEHIND,
		tag: 'Push sandboxes',
		params: { path: sandboxId, ...RESUME },
		// An `after` that is not an id is no resumption point, never a 400.
		invalidInput: false,
		answers: { 200: eventStream(STREAM_ENDS) }
	}
];

const pushOperations: OperationSpec[] = [
	{
		operationId: 'sendPush',
		method: 'post',
		path: '/api/push',
		summary: 'Send a composed push and judge the answer',
		description:
			'Sends `body` as it is (compact JSON) to `/pnm2/<endpoint>` of one of the team’s sandboxes (delivered inside the app and recorded) or of a real `{push_url}` (through the outbound policy and limits of test calls), and answers the request as sent, the response as received and a verdict per element. Audited as `push.sent` without the body.',
		tag: 'Push composer',
		body: {
			schema: PushSendInputSchema,
			example: {
				endpoint: 'send',
				body: {
					verb: 'NotifyTextMessage',
					AppId: 'com.example.app',
					DeviceToken: 'a1b2c3d4',
					Selector: '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12:1',
					Badge: 1
				},
				target: { kind: 'url', url: 'https://push.example.com/gateway' },
				platform: 'platformA13'
			}
		},
		answers: {
			200: jsonAnswer(
				'The push as sent and answered; when nothing came back, `response` is null and `error` says why.',
				PushSendAnswerSchema
			),
			429: TOO_MANY_CALLS
		},
		errors: { 404: '`not_found`: no such sandbox.' }
	}
];

const flowName = z.object({
	name: z
		.enum(FLOW_NAMES)
		.meta({ description: 'The flow; any other name is `404`.', example: 'send-message' })
});

const flowOperations: OperationSpec[] = [
	{
		operationId: 'runFlow',
		method: 'post',
		path: '/api/flows/{name}',
		summary: 'Run one of the platform’s journeys end to end',
		description:
			'Runs the platform’s calls in order, each step’s answer feeding the next, over a saved profile (`profileId`) or an unsaved document (`document`, with `draftOf` to keep the run with the profile it is a draft of). Each step is sent as a test call is; the run holds one of your calls in flight. `200` also when a step failed: `ok` says whether the journey went as the contract wants. A missing input, or a placeholder a template uses that the flow does not fill, is `400 missing_values`, nothing sent.\n\n- `registration` (`phoneNumber`, `pin`): Phone Number Verifier with `%phoneNumber%`; then the external provisioning call (`initialProvisioning` when `InitialProvisioningUrl` is set, else `extSSOProv`, URL by priority) with `%account[cloud_username]%`/`%username%` = number, `%account[cloud_password]%`/`%password%` = PIN, plus the verifier’s `%key%`s (number and PIN win over a key of the same name; `externalProvisioningOnSSODisabled` is ignored; an answer that is no account document fails the wizard).\n- `sso` (`account[cloud_username]`, `account[cloud_password]`; optional `cloud_id`, networkId’s default): the external provisioning call (skipped by `externalProvisioningOnSSODisabled` = 1, or when no URL is set), then External Authentication with `%username%`/`%password%` from the account document or the device (a non-2xx or other answer is ignored; an unreachable provisioning URL stops the sign-in).\n- `contacts` (the event payloads the templates use): Invitation Accepted, then New Smart Contact, each one whose URL is set (both are sent: they are independent).\n- `send-message` (`sms_to`, a list: one call per recipient; `sms_body`): Send Message once per recipient.\n- `app-start` (`selector`, `pushToken`, `pushappid`; `sandboxId`): Push Token Reporter (made once more when it fails; with `pushTokenOther` and `platform` = `platformA13`, a first report with a null `pushTokenOther`, then one with the value), then a `NotifyTextMessage` (Badge 1, Sound `default`) to the reported token and selector, sent to the sandbox; with `push` = `NotifyReprovision` that push instead (only AppId, DeviceToken and Selector: the device reloads its configuration); any other `push` is `400 invalid_input`.',
		tag: 'Flows',
		params: { path: flowName },
		body: {
			schema: FlowInputSchema,
			example: {
				document: { services: { sendMessage: SMS_SETTINGS } },
				values: { sms_to: ['+14155550123', '+447700900123'], sms_body: 'Hello' }
			}
		},
		answers: {
			200: jsonAnswer('The run, every step with the contract row that decided it.', FlowRunSchema),
			400: jsonAnswer(
				'`invalid_input` (`issues` says why); `missing_values`: the flow needs values that were not given (`missing` names them); nothing was sent.',
				MissingValuesErrorSchema
			),
			429: TOO_MANY_CALLS
		},
		errors: { 404: '`not_found`: no such flow, profile or sandbox.' }
	},
	{
		operationId: 'runMessagingJourney',
		method: 'post',
		path: '/api/flows/messaging',
		summary: 'Send a message from one virtual phone to another through the provider',
		description:
			'Both phones report their push tokens (Push Token Reporter), the sender sends to the recipient’s username (Send Message, with `content_type` and `disposition_notification`: a text asking for delivery and display notifications unless given), the journey waits for the provider’s NotifyTextMessage at the profile’s sandbox (its push gateway URL, or `sandboxId`) for `pushTimeoutMs`, the recipient fetches (Fetch Messages), fetches again as on coming to the foreground, and the sender’s second device (`secondDevice`) syncs. Each step as the other flows give it; `result` holds the verdict and every finding with its rule. With `continueFrom` (a run of yours), the phones go on from where that run left them: their ids, their conversation. Kept with the flow runs; holds one of your calls in flight.',
		tag: 'Flows',
		body: {
			schema: MessagingInputSchema,
			example: {
				profileId: '6f1c2a9e-0b7d-4c3e-9a51-2d8e4f6b7c10',
				values: {
					sender: { username: 'alice', password: 'alice-password' },
					recipient: { username: 'bob', password: 'bob-password' },
					sms_body: 'Dinner at 7?',
					secondDevice: true
				}
			}
		},
		answers: {
			200: jsonAnswer('The run, its verdict and its findings.', MessagingRunSchema),
			400: jsonAnswer(
				'`invalid_input` (`issues` says why); `missing_values`: no sandbox to watch (`missing: [{ name: "sandboxId" }]`), or a template uses a value neither the phones nor the profile give (`missing` names them); nothing was sent.',
				MissingValuesErrorSchema
			),
			429: TOO_MANY_CALLS
		},
		errors: {
			404: '`not_found`: no such profile or sandbox, or `continueFrom` names no messaging run of yours in this profile and sandbox.'
		}
	},
	{
		operationId: 'streamMessagingRun',
		method: 'get',
		path: '/api/flows/messaging/live/{key}',
		summary: 'A messaging run as it happens, as server-sent events',
		description:
			'Open it with a key of your own (16 to 64 letters, digits, `-` or `_`), then run `POST /api/flows/messaging` with `live` set to it: one `journey` event per step (`{"kind": "step", "phone", "step"}`, as the run lists it) and per change of a phone (`{"kind": "state", "phone", "state"}`), then the kept run (`{"kind": "done", "run"}`), each `id:` counting from 1. A stream opened late first gets everything its key kept (its last 200 items, for 10 minutes after the last one, of the caller’s 20 newest keys, within a budget for all keys); `Last-Event-ID` (or `?after=<id>`) resumes after that id. Only the caller’s own keys are read. With several instances on one PostgreSQL, a stream on any of them follows a run on any other; the kept run is in `GET /api/profiles/{id}/flows/{runId}` on every one.' +
			ACCESS_ENDS +
			FALLS_BEHIND,
		tag: 'Flows',
		params: {
			path: z.object({ key: z.string().meta({ description: 'The key the run is followed by.' }) }),
			...RESUME
		},
		invalidInput: false,
		answers: { 200: eventStream(STREAM_ENDS) },
		errors: { 404: '`not_found`: the key is not 16 to 64 letters, digits, `-` or `_`.' }
	},
	{
		operationId: 'listFlowRuns',
		method: 'get',
		path: '/api/profiles/{id}/flows',
		summary: 'The flows run on a profile and its drafts',
		description: 'Newest first; the last 100 are kept.',
		tag: 'Flows',
		params: { path: z.object({ id: z.string().meta({ description: 'The profile’s id.' }) }) },
		answers: { 200: jsonAnswer('The runs.', FlowRunListSchema) }
	},
	{
		operationId: 'getFlowRun',
		method: 'get',
		path: '/api/profiles/{id}/flows/{runId}',
		summary: 'One run of a flow on a profile',
		description: 'With `record`: its steps and result as the run answered them.',
		tag: 'Flows',
		params: {
			path: z.object({
				id: z.string().meta({ description: 'The profile’s id.' }),
				runId: z.string().meta({ description: 'The run’s id.' })
			})
		},
		answers: { 200: jsonAnswer('The run.', FlowRunRecordSchema) }
	}
];

// The addresses a provider's servers call, by the secret key in the path.

const gatewayKey = z.object({
	key: z.string().meta({ description: 'The sandbox’s secret key (32 characters, base64url).' })
});

function gatewayAnswer(description: string, headers?: Answer['headers']): Answer {
	return jsonAnswer(description, GatewayResponseSchema, headers);
}

/** The answers every request to a sandbox address may get before the gateway reads it. */
const GATEWAY_REFUSALS: Record<number, Answer> = {
	404: gatewayAnswer(
		'No such sandbox (a wrong or rotated key) or no such endpoint; nothing recorded.'
	),
	413: gatewayAnswer('The body is over 1 MiB (1,048,576 bytes); nothing recorded.', {
		Connection: { description: '`close`.', required: false }
	}),
	429: gatewayAnswer(
		'More requests per second than the sandbox’s `rateLimit`; nothing recorded.',
		RETRY_AFTER
	),
	503: gatewayAnswer('The database does not answer; nothing recorded.', RETRY_AFTER)
};

const PUSH_EXAMPLE = {
	verb: 'NotifyTextMessage',
	AppId: 'com.example.app',
	DeviceToken: 'a1b2c3d4',
	Selector: '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12:1',
	Badge: 1
};

const BAD_REQUEST = gatewayAnswer(
	'`{ status: 400, response }`: a method other than POST; a Content-Type other than `application/json` (parameters allowed; form posts included, whatever their Origin); invalid JSON; `send` not one object; `multisend` `null` or not a list or object. Recorded.'
);
const GATEWAY_FAULT = gatewayAnswer(
	'`{ status: 500, response }`: the sandbox’s `gatewayFault` is on and a push reached the upstream.'
);

const ANY_METHOD: Method[] = ['get', 'post', 'put', 'patch', 'delete'];
const capital = (word: string) => word[0].toUpperCase() + word.slice(1);

const gatewayOperations: OperationSpec[] = [
	{
		operationId: 'sandboxSend',
		method: 'post',
		path: '/sandbox/{key}/pnm2/send',
		summary: 'A push sandbox’s gateway: one push',
		description:
			'What a provider’s server calls, at its `{push_url}` with `/pnm2/send`: no session and no Origin, the key is the credential. Answered as the contract’s Errors table says (the catalogue’s `PUSH_GATEWAY_OUTCOMES`), in the gateway’s own shape, and recorded: HTTP 200 with one response object whose `status` is 200 (accepted upstream, not delivered), 400 (verb, AppId or DeviceToken missing; no push), 404 (missing data: Selector per verb, Badge on platform A 13+, an application id not in `appIds`; or a token in `unregisteredTokens`: stop sending to it) or 500 (`upstreamError`). Another method is answered HTTP 400 `{ status: 400, response }` and another path below the key 404, as the contract says.',
		tag: 'Gateway',
		access: 'public',
		params: { path: gatewayKey },
		body: {
			schema: PushRequestSchema,
			description: 'One push object; anything else is answered as the contract says.',
			example: PUSH_EXAMPLE
		},
		answers: {
			200: gatewayAnswer('The response object of the push.'),
			400: BAD_REQUEST,
			500: GATEWAY_FAULT,
			...GATEWAY_REFUSALS
		}
	},
	{
		operationId: 'sandboxMultisend',
		method: 'post',
		path: '/sandbox/{key}/pnm2/multisend',
		summary: 'A push sandbox’s gateway: several pushes',
		description:
			'As `/pnm2/send`, for a list of push objects: HTTP 200 with a list of response objects, one per element, in order; one object counts as a list of one. `null`, or a body that is not a list or an object, is HTTP 400.',
		tag: 'Gateway',
		access: 'public',
		params: { path: gatewayKey },
		body: {
			schema: z.union([z.array(PushRequestSchema), PushRequestSchema]),
			description: 'A list of push objects (one object counts as a list of one).',
			example: [PUSH_EXAMPLE, { ...PUSH_EXAMPLE, DeviceToken: 'e5f6a7b8' }]
		},
		answers: {
			200: jsonAnswer('A response object per element, in order.', z.array(GatewayResponseSchema)),
			400: BAD_REQUEST,
			500: GATEWAY_FAULT,
			...GATEWAY_REFUSALS
		}
	}
];

/** What a sink answers: whatever its users chose, never run as a page of the app. */
const SINK_ANSWER: Answer = {
	description:
		'The answer the sink’s users chose (`200 {}` by default): their status (200 to 599), Content-Type and body. The request is recorded first.',
	content: { 'application/json': z.unknown(), '*/*': z.unknown() },
	headers: {
		'Content-Security-Policy': {
			description: "`sandbox; default-src 'none'`: the answer never runs as a page of the app.",
			required: true,
			schema: { type: 'string' }
		}
	}
};

const NO_SUCH_SINK: Answer = {
	description:
		'`not_found`: no such sink (a wrong key, or a deleted sink). A sink whose users chose 404 answers their own body.',
	content: { 'application/json': ErrorSchema, '*/*': z.unknown() }
};

/** The database does not answer: the app's error page, as for every page outside `/api`. */
const SINK_OUTAGE: Answer = {
	description: 'The database does not answer: the error page; nothing was recorded.',
	content: { 'text/html': z.string() },
	headers: RETRY_AFTER
};

const sinkAddressOperations: OperationSpec[] = [
	{ path: '/sink/{key}', name: 'callSink', params: sinkKey, where: 'its address' },
	{
		path: '/sink/{key}/{path}',
		name: 'callSinkPath',
		params: sinkKey.extend({
			path: z
				.string()
				.meta({ description: 'Any path below the key; it may stand for several segments.' })
		}),
		where: 'any path below its address'
	}
].flatMap(({ path, name, params, where }) =>
	ANY_METHOD.map((method): OperationSpec => ({
		operationId: `${name}${capital(method)}`,
		method,
		path,
		summary: `An echo sink, ${method.toUpperCase()} to ${where}`,
		description:
			'Anyone with the address may call it (no session). Every request (any method, any path and query after the key, any body) is recorded, the `Cookie` header left out, and answered as the sink’s users chose.',
		tag: 'Gateway',
		access: 'public',
		params: { path: params },
		...(method === 'get' || method === 'delete'
			? {}
			: {
					body: {
						mediaType: '*/*',
						schema: z.unknown(),
						required: false,
						description: 'Any body; the first 256 KiB are recorded.',
						example: '{"to":"+14155550123","body":"Hello"}'
					}
				}),
		answers: {
			200: SINK_ANSWER,
			// Statuses the app itself would give, here the sink's users' own when they chose them.
			400: SINK_ANSWER,
			404: NO_SUCH_SINK,
			503: SINK_OUTAGE,
			default: SINK_ANSWER
		}
	}))
);

/**
 * What the gateway answers to a method or a path the contract does not define: HTTP 400 to
 * another method at an endpoint, 404 to another path below the key; nothing is recorded.
 */
const gatewayRefusals: OperationSpec[] = [
	...['send', 'multisend'].flatMap((endpoint) =>
		ANY_METHOD.filter((m) => m !== 'post').map((method): OperationSpec => ({
			operationId: `sandbox${capital(endpoint)}${capital(method)}`,
			method,
			path: `/sandbox/{key}/pnm2/${endpoint}`,
			summary: `A push sandbox’s gateway refuses ${method.toUpperCase()}`,
			description:
				'Only POST is defined: another method is answered HTTP 400 in the gateway’s shape.',
			tag: 'Gateway',
			access: 'public',
			params: { path: gatewayKey },
			answers: { 400: BAD_REQUEST, ...GATEWAY_REFUSALS }
		}))
	),
	...ANY_METHOD.map((method): OperationSpec => ({
		operationId: `sandboxOther${capital(method)}`,
		method,
		path: '/sandbox/{key}/{path}',
		summary: `A push sandbox’s other addresses (${method.toUpperCase()})`,
		description:
			'Any path below the key other than `/pnm2/send` and `/pnm2/multisend` (it may stand for several segments) is answered 404 in the gateway’s shape.',
		tag: 'Gateway',
		access: 'public',
		params: {
			path: gatewayKey.extend({
				path: z.string().meta({ description: 'Any other path below the key.' })
			})
		},
		answers: { ...GATEWAY_REFUSALS }
	}))
];

export const callOperations: OperationSpec[] = [
	...testCallOperations,
	...sinkOperations,
	...sandboxOperations,
	...pushOperations,
	...flowOperations,
	...gatewayOperations,
	...gatewayRefusals,
	...sinkAddressOperations
];
