import { z } from '$lib/core/zod';
import { RUN_FLOW_NAMES } from '$lib/core/catalogue/flows';
import {
	GatewayInterpretationSchema,
	GatewayResponseObjectSchema,
	PushElementVerdictSchema,
	PushEndpointSchema,
	PushIssueSchema,
	PushOutcomeIdSchema,
	PushRequestSchema,
	PushTargetSchema
} from '$lib/core/push';
import { ErrorSchema, IssueSchema, Millis, ProblemSchema } from './common';
import { PreviewRequestSchema } from './profiles';

/**
 * The answers of test calls, echo sinks, push sandboxes and their gateway, the push composer and
 * flows: what the server sends, field by field.
 */

const HeaderFieldSchema = z.object({ name: z.string(), value: z.string() });

const BodyEncodingSchema = z
	.enum(['text', 'base64'])
	.meta({ description: '`base64` when the bytes are not UTF-8 text (or hold a NUL).' });

/** Why a request has no response: refused before it was sent, or failed on its way. */
const CallErrorSchema = z.object({
	code: z.string().meta({
		description:
			'`blocked_scheme`, `blocked_userinfo`, `blocked_port`, `blocked_method`, `blocked_address`, `invalid_header`, `invalid_url` (refused, nothing sent); `dns_failed`, `dns_timeout`, `connect_refused`, `connect_timeout`, `connect_failed`, `tls_failed`, `headers_timeout`, `body_timeout`, `timeout`, `cancelled`, `upstream_error`.'
	}),
	message: z.string(),
	rule: z.string().optional().meta({
		description:
			'With `blocked_address`: the address rule that refused it (`loopback`, `private`, `linkLocal`, `metadata`, `carrierGradeNat`, `reserved`, …).'
	}),
	address: z.string().optional().meta({ description: 'The address that was refused.' })
});

/** A request as built and sent (secrets masked): the preview's request, as it went out. */
export const SentRequestSchema = PreviewRequestSchema.meta({
	id: 'SentRequest',
	description: 'A request as built and sent, secrets masked.'
});

/** A response as received, shown as data. */
export const ReceivedResponseSchema = z
	.object({
		status: z.number().int(),
		statusText: z.string(),
		headers: z.array(HeaderFieldSchema),
		body: z.string().meta({ description: 'Text, or base64 (`bodyEncoding`).' }),
		bodyEncoding: BodyEncodingSchema,
		truncated: z.boolean().meta({ description: 'The body was cut at the size limit.' }),
		size: z.object({
			received: z.number().int().meta({ description: 'Bytes received on the wire.' }),
			body: z.number().int().meta({ description: 'Bytes of the body once decoded.' })
		}),
		contentType: z.string().nullable(),
		timings: z
			.object({
				dns: z.number().nullable(),
				connect: z.number().nullable(),
				tls: z.number().nullable(),
				firstByte: z.number().nullable(),
				total: z.number()
			})
			.meta({ description: 'Milliseconds of each step; null for a step that did not happen.' }),
		address: z
			.object({
				ip: z.string(),
				port: z.number().int(),
				family: z.union([z.literal(4), z.literal(6)])
			})
			.nullable()
			.meta({ description: 'The address connected to; null for this app’s own sink.' }),
		via: z
			.enum(['network', 'sink'])
			.meta({ description: '`sink`: this app’s own echo sink, answered inside the app.' }),
		redirect: z
			.object({ location: z.string() })
			.nullable()
			.meta({ description: 'A 3xx is shown, never followed.' }),
		decodeError: z
			.string()
			.nullable()
			.meta({ description: 'The Content-Encoding could not be decoded to its end.' })
	})
	.meta({ id: 'ReceivedResponse', description: 'A response as received, secrets masked.' });

const ShownSource = z.enum(['message', 'bodyPrefix']);

const FetchedMessageSchema = z.object({
	smsId: z.string(),
	direction: z.enum(['received', 'sent']),
	party: z
		.string()
		.meta({ description: 'The sender of a received message, the recipient of a sent one.' }),
	sendingDate: z.string(),
	text: z.string().meta({ description: 'The first 200 characters of sms_text.' }),
	cut: z.boolean(),
	contentType: z.string(),
	dispositionNotification: z.string().nullable(),
	displayed: z.boolean().nullable(),
	thread: z.string().meta({ description: 'The stream id, else the party.' })
});

/** Fetch Messages: what the app shows, and the ids it sends next time. */
const FetchedMessagesSchema = z
	.object({
		shape: z.enum(['modern', 'legacy']),
		format: z.enum(['json', 'xml']),
		date: z.string().nullable().meta({
			description: 'The answer’s date; one too long to read is shown cut to 64 characters.'
		}),
		received: z.number().int(),
		sent: z.number().int(),
		newMessages: z.number().int(),
		threads: z
			.array(
				z.object({
					thread: z.string(),
					received: z.number().int(),
					sent: z.number().int(),
					unread: z.number().int(),
					last: FetchedMessageSchema
				})
			)
			.meta({ description: 'At most 50, each with its last message.' }),
		moreThreads: z.number().int().meta({ description: 'Threads beyond the 50 listed.' }),
		nextLastKnownSmsId: z.string().nullable().meta({ description: 'null: unchanged.' }),
		nextLastKnownSentSmsId: z.string().nullable().meta({ description: 'null: unchanged.' }),
		summary: z.string()
	})
	.meta({
		id: 'FetchedMessages',
		description:
			'Fetch Messages: what the app shows and the ids it sends next time; a success when the app reads the answer. A text over 10,000 characters is named (`fetch_text_long`, info); an answer that cannot be read is `silentlyIgnore` instead.'
	});

const ShownFormat = z.enum(['json', 'xml']).nullable();

/** Balance Checker: the balance text the app shows, or why it shows none. */
const BalanceReadingSchema = z
	.object({
		shown: z.string().nullable().meta({ description: 'null: the app shows no balance.' }),
		format: ShownFormat,
		verdict: z.string()
	})
	.meta({
		id: 'BalanceReading',
		description: 'Balance Checker: a success when the app shows a text.'
	});

/** Rate Checker: the rate texts the app shows beside the number, or why it shows none. */
const RateReadingSchema = z
	.object({
		shown: z.array(
			z.object({
				text: z.enum(['call', 'message', 'rate']),
				label: z.string(),
				value: z.string()
			})
		),
		format: ShownFormat,
		verdict: z.string()
	})
	.meta({
		id: 'RateReading',
		description:
			'Rate Checker: the texts the app shows beside the number (a success when it shows one); the call’s `smartUri` selects the smart rates.'
	});

/** Initial provisioning: the settings the app merges from the `<account>` answer, or why it stops. */
const ProvisioningAnswerSchema = z
	.object({
		outcome: z.enum(['merged', 'failed']),
		shownToUser: z.string().nullable(),
		settings: z.array(
			z.object({
				key: z.string(),
				value: z.string().meta({ description: 'A credential’s value is the mask.' }),
				line: z.number().int(),
				secret: z.boolean(),
				webService: z
					.boolean()
					.meta({ description: 'A web service’s key, readable into a profile.' })
			})
		),
		webServiceKeys: z.array(z.string()),
		importFragment: z.string().nullable().meta({
			description:
				'The web-service elements as written, credentials left out: XML for the import review.'
		}),
		verdict: z.string()
	})
	.meta({
		id: 'ProvisioningAnswer',
		description:
			'Initial provisioning: the settings the app merges from the `<account>` answer (its credentials masked as the call’s secrets are); a success when `outcome` is `merged`.'
	});
/** Web Service Contacts: what the app does with its list, and what the next refresh asks. */
const ContactsReadingSchema = z
	.object({
		outcome: z.enum(['replaced', 'unchanged', 'kept', 'unchecked']),
		contacts: z.number().int(),
		entries: z.number().int(),
		lastModified: z
			.string()
			.nullable()
			.meta({ description: 'Sent back as If-Modified-Since at the next refresh.' }),
		verdict: z.string()
	})
	.meta({
		id: 'ContactsReading',
		description:
			'Web Service Contacts: a success when the app ends with a current list (a `304` too); the sample value `lastModified` is sent as If-Modified-Since.'
	});

/** What the service's caller does with a response. */
const CallerActionSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('success') }),
	z.object({ kind: z.literal('storeSmsId'), smsId: z.string() }),
	z.object({ kind: z.literal('showUser'), text: z.string(), source: ShownSource }),
	z.object({ kind: z.literal('showGenericError') }),
	z.object({ kind: z.literal('silentlyIgnore') }),
	z.object({ kind: z.literal('retryLater') }),
	z.object({
		kind: z.literal('phoneNumbers'),
		result: z.object({
			numbers: z.array(z.string()),
			invalid: z.array(z.string()),
			uri: z.string(),
			uriDefaulted: z.boolean(),
			networkId: z.string(),
			networkIdDefaulted: z.boolean(),
			summary: z.string()
		})
	}),
	z.object({
		kind: z.literal('provisioningAccount'),
		result: z.object({
			username: z.string().nullable(),
			hasPassword: z.boolean(),
			summary: z.string()
		})
	}),
	z.object({ kind: z.literal('fetchedMessages'), result: FetchedMessagesSchema }),
	z.object({ kind: z.literal('balance'), result: BalanceReadingSchema }),
	z.object({ kind: z.literal('rate'), result: RateReadingSchema }),
	z.object({
		kind: z.literal('report'),
		delivered: z.boolean().meta({
			description:
				'Account Removal and Push Notification Reporter: whether the app counts the report as delivered (a 2xx). Warnings `reporter_not_2xx`, `reporter_html_answer`, note `reporter_body_large`; nothing is ever shown to the user.'
		}),
		duty: z.string().nullable().meta({
			description:
				'What the provider should do with a delivered report (delete the selector’s tokens; count the push test or delivery); null: not delivered.'
		})
	}),
	z.object({ kind: z.literal('provisioningAnswer'), result: ProvisioningAnswerSchema }),
	z.object({ kind: z.literal('contacts'), result: ContactsReadingSchema }),
	z.object({ kind: z.literal('pushResults'), result: GatewayInterpretationSchema }),
	z.object({
		kind: z.literal('wizardNext'),
		placeholders: z
			.record(z.string(), z.string())
			.meta({ description: 'The `%key%` values the wizard’s next step can use.' })
	}),
	z.object({ kind: z.literal('wizardStays') }),
	z.object({ kind: z.literal('wizardMessageBox'), text: z.string(), source: ShownSource })
]);

/** The core's interpretation of a response. */
export const InterpretationSchema = z
	.object({
		success: z.boolean().meta({
			description:
				'Whether the caller counts it a success by the service’s rule (`rule` says which).'
		}),
		rule: z.string().meta({ description: 'The success rule applied, in words.' }),
		action: CallerActionSchema.meta({
			description:
				'What the caller does, by `kind`: the contract’s services `success`, `storeSmsId`, `showUser`, `showGenericError`, `silentlyIgnore`, `retryLater`, `phoneNumbers`, `provisioningAccount`, `wizardNext`, `wizardStays`, `wizardMessageBox`; the services beyond it `fetchedMessages`, `balance`, `rate`, `report`, `provisioningAnswer`, `contacts`; the gateway `pushResults`.'
		}),
		summary: z.string().meta({ description: 'One sentence: what the caller does.' }),
		shownToUser: z
			.string()
			.nullable()
			.meta({ description: 'The exact text the user is shown; null when nothing is.' }),
		issues: z.array(IssueSchema).meta({
			description:
				'What the caller would misread. Send Message adds `error_flag_with_2xx`, `message_id_not_sms_id` (warnings) and `error_flag_style` (info).'
		}),
		shape: z
			.object({
				shape: z.object({
					id: z.enum([
						'xml-sms-id',
						'json-sms-id',
						'message-id',
						'error-flag',
						'empty',
						'error-message',
						'other'
					]),
					label: z.string(),
					reading: z.string()
				}),
				errorFlag: z
					.object({ value: z.string(), description: z.string().optional() })
					.optional()
					.meta({ description: 'The error flag found, with what it says.' })
			})
			.optional()
			.meta({ description: 'Send Message only: the answer shape seen in practice it matched.' })
	})
	.meta({
		id: 'Interpretation',
		description: 'What the service’s caller does with a response (the core’s interpreter).'
	});

/** One request of a test call: its response and interpretation, or why there is none. */
export const CallResultSchema = z
	.union([
		z.object({
			request: SentRequestSchema,
			response: ReceivedResponseSchema,
			interpretation: InterpretationSchema
		}),
		z.object({ request: SentRequestSchema, error: CallErrorSchema })
	])
	.meta({ id: 'CallResult' });

/** `POST /api/test-calls`, 200. */
export const TestCallAnswerSchema = z
	.object({
		id: z.number().int().meta({ description: 'The call’s id in your history.' }),
		calls: z.array(CallResultSchema).meta({
			description:
				'One per request sent, in order; a Digest challenge answered adds its second exchange, its `Authorization` masked.'
		}),
		issues: z.array(ProblemSchema).meta({ description: 'The build’s issues, secrets masked.' })
	})
	.meta({ id: 'TestCallAnswer' });
export type TestCallAnswerBody = z.infer<typeof TestCallAnswerSchema>;

const TestCallSummaryFields = {
	id: z.number().int(),
	at: Millis,
	service: z.string(),
	profileId: z.string().nullable(),
	scenario: z.string().nullable(),
	method: z.string().nullable().meta({ description: 'The first request’s method.' }),
	url: z.string().nullable().meta({ description: 'The first request’s URL, secrets masked.' }),
	requestId: z
		.string()
		.nullable()
		.optional()
		.meta({ description: 'The X-Request-Id of the request that made the call.' }),
	outcomes: z
		.array(
			z.object({
				status: z.number().int().optional(),
				error: z.string().optional(),
				success: z.boolean().optional()
			})
		)
		.meta({ description: 'How each request ended: a status and its success, or an error code.' })
};

/** A line of the history (`GET /api/test-calls`). */
export const TestCallSummarySchema = z
	.object(TestCallSummaryFields)
	.meta({ id: 'TestCallSummary' });
export type TestCallSummary = z.infer<typeof TestCallSummarySchema>;

/** `GET /api/test-calls`, 200. */
export const TestCallListSchema = z.object({ calls: z.array(TestCallSummarySchema) });
export type TestCallList = z.infer<typeof TestCallListSchema>;

/** `GET /api/test-calls/{id}`, 200: a call of the history with its whole answer. */
export const TestCallEntrySchema = z.object({
	call: z
		.object({
			...TestCallSummaryFields,
			answer: z.object({ calls: z.array(CallResultSchema), issues: z.array(ProblemSchema) })
		})
		.meta({ id: 'TestCall' })
});
export type TestCallEntry = z.infer<typeof TestCallEntrySchema>;

// Echo sinks

/** What a sink answers. */
export const SinkAnswerSchema = z
	.object({
		status: z.number().int().min(200).max(599),
		contentType: z.string().meta({ description: 'Empty: no Content-Type.' }),
		body: z.string(),
		delayMs: z.number().int().meta({ description: 'How long it waits before answering.' })
	})
	.meta({ id: 'SinkAnswer', description: 'What a sink answers every request.' });

/** A sink. */
export const SinkSchema = z
	.object({
		key: z.string().meta({ description: 'The secret key in its address.' }),
		name: z.string(),
		createdAt: Millis,
		path: z.string().meta({ description: '`/sink/<key>/`: prefix it with the app’s origin.' }),
		answer: SinkAnswerSchema
	})
	.meta({ id: 'Sink', description: 'An echo sink.' });
export type SinkBody = z.infer<typeof SinkSchema>;

/** A request a sink received. */
export const SinkRequestSchema = z
	.object({
		id: z.number().int(),
		at: Millis,
		method: z.string(),
		path: z.string().meta({ description: 'The path after `/sink/<key>`, with the query.' }),
		headers: z
			.array(HeaderFieldSchema)
			.meta({ description: 'As received; `Cookie` and the app’s API tokens not recorded.' }),
		body: z.string(),
		bodyEncoding: BodyEncodingSchema,
		size: z.number().int().meta({ description: 'Bytes received.' }),
		truncated: z.boolean().meta({ description: 'Only the first 256 KiB are recorded.' }),
		via: z
			.enum(['network', 'test_call'])
			.meta({ description: '`test_call`: a test call of this app, delivered inside it.' }),
		ip: z.string().nullable()
	})
	.meta({ id: 'SinkRequest', description: 'A request a sink received.' });
export type SinkRequestBody = z.infer<typeof SinkRequestSchema>;

export const SinkListSchema = z.object({ sinks: z.array(SinkSchema) });
export type SinkList = z.infer<typeof SinkListSchema>;
export const SinkOneSchema = z.object({ sink: SinkSchema });
export type SinkOne = z.infer<typeof SinkOneSchema>;
export const SinkWithRequestsSchema = z.object({
	sink: SinkSchema,
	requests: z.array(SinkRequestSchema).meta({ description: 'Newest first.' })
});
export type SinkWithRequests = z.infer<typeof SinkWithRequestsSchema>;

// Push sandboxes

/** The simulated upstream push service of a sandbox. */
export const SandboxSettingsViewSchema = z
	.object({
		appIds: z.array(z.string()),
		unregisteredTokens: z.array(z.string()),
		upstreamError: z.boolean(),
		gatewayFault: z.boolean(),
		platforms: z.record(z.string(), PushTargetSchema),
		defaultPlatform: PushTargetSchema,
		rateLimit: z.number().int()
	})
	.meta({
		id: 'SandboxSettings',
		description:
			'The simulated upstream push service; each field as `POST /api/sandboxes` describes it.'
	});

/** A push sandbox. */
export const SandboxSchema = z
	.object({
		id: z.string(),
		name: z.string(),
		pushUrl: z.string().meta({ description: '`<origin>/sandbox/<key>`: the `{push_url}`.' }),
		ownerId: z.number().int().nullable(),
		createdAt: Millis,
		updatedAt: Millis,
		settings: SandboxSettingsViewSchema
	})
	.meta({ id: 'Sandbox', description: 'A push gateway inside the app.' });
export type SandboxBody = z.infer<typeof SandboxSchema>;

/** A request a sandbox answered, as recorded. */
export const SandboxPushSchema = z
	.object({
		id: z.number().int(),
		at: Millis,
		endpoint: PushEndpointSchema,
		method: z.string(),
		contentType: z.string().nullable(),
		body: z.string().meta({ description: 'As received, at most 64 KiB.' }),
		bodyEncoding: BodyEncodingSchema,
		size: z.number().int(),
		truncated: z.boolean(),
		httpStatus: z.number().int(),
		response: z.string().meta({ description: 'The JSON answer as sent, at most 64 KiB.' }),
		responseTruncated: z.boolean(),
		trace: z
			.array(
				z.object({
					index: z.number().int().nullable(),
					outcome: PushOutcomeIdSchema,
					status: z.number().int(),
					issues: z.array(PushIssueSchema)
				})
			)
			.meta({
				description:
					'The Errors-table row of the request (`index` null) or of each element, the first 100.'
			}),
		pushes: z
			.array(
				z.object({
					index: z.number().int(),
					request: PushRequestSchema,
					target: PushTargetSchema,
					issues: z.array(PushIssueSchema)
				})
			)
			.meta({ description: 'The pushes accepted upstream, with their device’s platform.' }),
		elements: z.number().int(),
		elementsOmitted: z.number().int(),
		ip: z.string().nullable()
	})
	.meta({ id: 'SandboxPush', description: 'A request a sandbox answered, as recorded.' });
export type SandboxPushBody = z.infer<typeof SandboxPushSchema>;

export const SandboxListSchema = z.object({ sandboxes: z.array(SandboxSchema) });
export type SandboxList = z.infer<typeof SandboxListSchema>;
export const SandboxOneSchema = z.object({ sandbox: SandboxSchema });
export type SandboxOne = z.infer<typeof SandboxOneSchema>;
export const SandboxPushListSchema = z.object({
	pushes: z.array(SandboxPushSchema).meta({ description: 'Newest first.' })
});
export type SandboxPushList = z.infer<typeof SandboxPushListSchema>;

/** The gateway's response object (the contract's worked examples call `status` `code`). */
export const GatewayResponseSchema = GatewayResponseObjectSchema.meta({
	id: 'GatewayResponse',
	description: 'The push gateway’s response object: `status` and the `response` text.'
});

// Push composer

/** A push request as sent to the gateway. */
export const PushHttpRequestSchema = z
	.object({
		method: z.literal('POST'),
		url: z.string(),
		headers: z.array(HeaderFieldSchema),
		body: z.string()
	})
	.meta({ description: 'The exact request sent (what “Copy as cURL” copies).' });

/** A gateway's response as received by the composer. */
export const PushResponseSchema = z.object({
	status: z.number().int(),
	headers: z.array(HeaderFieldSchema),
	body: z.string(),
	bodyEncoding: BodyEncodingSchema,
	truncated: z.boolean(),
	ms: z.number().meta({ description: 'Milliseconds from sending to the end of the answer.' }),
	via: z.enum(['sandbox', 'network']).meta({ description: '`sandbox`: delivered inside the app.' })
});

/** The verdicts of a gateway's answer, one per element sent. */
export const PushVerdictsSchema = z.object({
	endpoint: PushEndpointSchema,
	httpStatus: z.number().int(),
	elements: z
		.array(PushElementVerdictSchema)
		.meta({ description: 'One verdict per element sent, in order.' }),
	summary: z.string()
});

/** `POST /api/push`, 200. */
export const PushSendAnswerSchema = z
	.object({
		request: PushHttpRequestSchema,
		target: z.discriminatedUnion('kind', [
			z.object({ kind: z.literal('sandbox'), id: z.string(), name: z.string() }).meta({
				description: 'Delivered inside the app and recorded as any push the sandbox receives.'
			}),
			z.object({
				kind: z.literal('url'),
				origin: z.string().meta({ description: 'The URL’s origin only.' })
			})
		]),
		response: PushResponseSchema.nullable().meta({
			description: 'Null when nothing came back (`error` says why).'
		}),
		verdicts: PushVerdictsSchema.nullable(),
		error: CallErrorSchema.nullable().meta({ description: 'The test calls’ codes.' })
	})
	.meta({ id: 'PushSendAnswer', description: 'A composed push as sent and as answered.' });
export type PushSendAnswerBody = z.infer<typeof PushSendAnswerSchema>;

// Flows

const DecisionSchema = z.object({
	status: z.enum(['ok', 'ignored', 'failed', 'skipped']).meta({
		description:
			'`ignored`: silently ignored, as the contract says; `failed`: the flow stops (except for the independent steps of `contacts` and `send-message`); `skipped`: no call, and `text` says why.'
	}),
	text: z.string().meta({ description: 'What happened and what the user sees.' }),
	shownToUser: z.string().nullable()
});

const ContractRowSchema = z.object({
	id: z.string(),
	table: z.enum([
		'States and transitions',
		'Events',
		'Errors',
		'Limits',
		'External Authentication',
		'Push Token Reporter',
		'Push gateway: single push',
		'Beyond the contract: Fetch Messages',
		'Beyond the contract: Account Removal Reporter'
	]),
	text: z.string()
});

/** One step of a flow run. */
export const FlowStepSchema = z
	.object({
		service: z.string(),
		request: z
			.union([SentRequestSchema, PushHttpRequestSchema])
			.nullable()
			.meta({ description: 'As sent, secrets masked; null when nothing was sent.' }),
		response: z.union([ReceivedResponseSchema, PushResponseSchema]).nullable(),
		verdicts: PushVerdictsSchema.nullable()
			.optional()
			.meta({ description: 'App start’s push step: the verdict of each element.' }),
		received: z
			.object({
				recordId: z.number().int(),
				at: Millis,
				token: z.string(),
				push: z.record(z.string(), z.unknown()),
				status: z.number().int()
			})
			.nullable()
			.optional()
			.meta({
				description:
					'The messaging journey’s wait: the push the recipient’s phone received at the sandbox (null when none came).'
			}),
		interpretation: InterpretationSchema.nullable(),
		error: z.object({ code: z.string(), message: z.string() }).nullable().meta({
			description:
				'Why no response came: a test call’s refusal or failure (`https_required`, `invalid_header`, `blocked_*`, `connect_refused`, `*_timeout`, …).'
		}),
		filled: z
			.record(z.string(), z.string())
			.meta({ description: 'The values the flow filled in for this step, secrets masked.' }),
		decision: DecisionSchema,
		contractRow: ContractRowSchema
	})
	.meta({
		id: 'FlowStep',
		description: 'A step of a flow, with the contract row that decided it.'
	});

const FlowResultSchema = z.record(z.string(), z.unknown()).meta({
	description:
		'What the journey gave: `wizard` (registration: `page`, `provisioned`, `messageBox`, `placeholders`); `sso` (`credentials` with where `%username%` and `%password%` came from, `authentication` with `numbers`, `uri`, `networkId` and whether defaulted, `impaired`: what stops working when External Authentication fails); `smsIds` (send-message); or the `push` sent (app start).'
});

const FlowDraftSchema = z.object({ baseRevision: z.number().int().nullable() }).nullable().meta({
	description:
		'Set for a run of a profile’s unsaved draft (`baseRevision` null when not given); null otherwise.'
});

/** `POST /api/flows/{name}`, 200. */
export const FlowRunSchema = z
	.object({
		id: z.number().int(),
		flow: z.enum(RUN_FLOW_NAMES),
		ok: z.boolean().meta({ description: 'Whether the journey went as the contract wants.' }),
		draft: FlowDraftSchema,
		steps: z.array(FlowStepSchema),
		result: FlowResultSchema
	})
	.meta({ id: 'FlowRun', description: 'A flow run, every step answered.' });
export type FlowRunBody = z.infer<typeof FlowRunSchema>;

const PhoneMessageSchema = z.object({
	smsId: z.string(),
	direction: z.enum(['received', 'sent']),
	party: z.string(),
	sendingDate: z.string(),
	text: z.string(),
	contentType: z.string(),
	dispositionNotification: z.string().nullable(),
	thread: z.string(),
	ticks: z.object({ sent: z.boolean(), pushed: z.boolean(), fetched: z.boolean() })
});

/** A virtual phone as a journey leaves it. */
export const PhoneStateSchema = z
	.object({
		identity: z.object({
			label: z.string().meta({ description: '`recipient`, `sender` or `sender-second`.' }),
			username: z.string(),
			displayName: z.string(),
			device: z.enum(['main', 'second']),
			selector: z.string(),
			pushToken: z.string(),
			pushTokenIncomingCall: z.string(),
			appId: z.string(),
			appIdIncomingCall: z.string()
		}),
		started: z.boolean(),
		lastKnownSmsId: z.string(),
		lastKnownSentSmsId: z.string(),
		messages: z
			.array(PhoneMessageSchema)
			.meta({ description: 'The newest messages (at most 200), oldest first.' }),
		messagesOmitted: z.number().int()
	})
	.meta({
		id: 'PhoneState',
		description: 'A virtual phone: its account, tokens, ids and conversation.'
	});

/** One finding of a messaging round. */
export const MessagingFindingSchema = z
	.object({
		check: z.string().meta({ description: 'The check’s id (see docs/messaging.md).' }),
		severity: z.enum(['error', 'warning', 'info']),
		message: z.string(),
		rule: z.string().meta({ description: 'The rule behind the check, as its source writes it.' }),
		source: z
			.object({
				kind: z.enum(['contract', 'docs', 'providers', 'inference']),
				ref: z.string()
			})
			.meta({ description: 'Only a `contract` or `docs` rule makes an error.' })
	})
	.meta({ id: 'MessagingFinding', description: 'What a messaging round found, with its rule.' });

/** `POST /api/flows/messaging`, 200. */
export const MessagingRunSchema = FlowRunSchema.extend({
	result: z.object({
		verdict: z.string().meta({ description: 'The round in one sentence.' }),
		findings: z.array(MessagingFindingSchema),
		phones: z.array(PhoneStateSchema),
		sandbox: z.object({ id: z.string(), name: z.string() }),
		smsId: z.string().nullable().meta({ description: 'The sms_id Send Message answered.' }),
		pushes: z.object({
			seen: z
				.number()
				.int()
				.meta({ description: 'Push elements the sandbox answered during the round.' }),
			omitted: z.number().int().meta({ description: 'Of them, those not checked one by one.' })
		})
	})
}).meta({
	id: 'MessagingRun',
	description: 'A messaging journey run: its steps, verdict and findings.'
});

const FlowRunSummaryFields = {
	id: z.number().int(),
	flow: z.string(),
	at: Millis,
	ok: z.boolean(),
	by: z.string().nullable().meta({ description: 'The e-mail of who ran it.' }),
	draft: FlowDraftSchema,
	steps: z.array(
		z.object({ service: z.string(), status: z.enum(['ok', 'ignored', 'failed', 'skipped']) })
	)
};

/** A line of a profile's runs. */
export const FlowRunSummarySchema = z.object(FlowRunSummaryFields).meta({ id: 'FlowRunSummary' });

export const FlowRunListSchema = z.object({
	runs: z.array(FlowRunSummarySchema).meta({ description: 'Newest first.' })
});
export type FlowRunList = z.infer<typeof FlowRunListSchema>;

/** `GET /api/profiles/{id}/flows/{runId}`, 200. */
export const FlowRunRecordSchema = z.object({
	run: z
		.object({
			...FlowRunSummaryFields,
			record: z.object({ steps: z.array(FlowStepSchema), result: FlowResultSchema })
		})
		.meta({ id: 'FlowRunRecord', description: 'A kept run, with its steps as answered.' })
});
export type FlowRunRecordBody = z.infer<typeof FlowRunRecordSchema>;

/** `400 missing_values` of a flow: the values it needs that were not given. */
export const MissingValuesErrorSchema = ErrorSchema.extend({
	missing: z
		.array(
			z.object({
				name: z.string(),
				service: z
					.string()
					.nullable()
					.optional()
					.meta({ description: 'The service whose template uses it; null for a flow input.' })
			})
		)
		.optional()
		.meta({ description: 'With `missing_values`: each value to give.' })
}).meta({
	id: 'MissingValuesError',
	description: 'The Error shape; with `missing_values` it names each value the flow needs.'
});
