import { z } from '../zod';

/**
 * The shapes of the catalogue: the contract written as data. Every rule a service follows (who
 * calls it, its configuration keys, variables, method, content types, success and failure) is
 * a field here, so the UI, completion, lint, preview, interpretation and XML mapping all read
 * one source.
 */

/** Who sends the request: the app, the SSO server, the contacts server, or the provider. */
export const CallerSchema = z.enum(['app', 'sso', 'contacts', 'provider']);
export type Caller = z.infer<typeof CallerSchema>;

/**
 * Where a rule comes from: the contract; the platform's public documentation (`ref` names the
 * page, e.g. `api/client/fetch_messages_modern`); real providers' implementations; or an
 * inference. Only the first two may make an error: the others make a warning at most.
 */
export const SourceKindSchema = z.enum(['contract', 'docs', 'providers', 'inference']);
export type SourceKind = z.infer<typeof SourceKindSchema>;

/** A rule's source and a short reference text (the page, the implementations, the reasoning). */
export const SourceSchema = z.object({ kind: SourceKindSchema, ref: z.string() });
export type Source = z.infer<typeof SourceSchema>;

/** Where a variable's value comes from. */
export const ScopeSchema = z.enum(['service', 'account', 'global']);
export type Scope = z.infer<typeof ScopeSchema>;

/** A party of `%interestedParties%`. */
export const PartySchema = z.object({ username: z.string(), device: z.string() });
export type Party = z.infer<typeof PartySchema>;

/** A sample or scenario value: a string, or a list of parties for list variables. */
export const SampleValueSchema = z.union([z.string(), z.array(PartySchema)]);
export type SampleValue = z.infer<typeof SampleValueSchema>;

/** One template variable: `name` is written `%name%`, or `%account[name]%` for account scope. */
export const VariableSchema = z.object({
	name: z.string(),
	scope: ScopeSchema,
	meaning: z.string(),
	sample: SampleValueSchema,
	secret: z.boolean().default(false),
	/** `list`: expands to a JSON array or an XML list depending on the body's content type. */
	kind: z.enum(['string', 'list']).default('string'),
	/** The caller sends one request per value (one recipient per call). */
	perRecipient: z.boolean().default(false),
	/** Older spelling still recognised, reported as deprecated. */
	alias: z.string().optional(),
	/** Where the variable comes from; absent, the contract. */
	source: SourceSchema.optional()
});
export type Variable = z.infer<typeof VariableSchema>;

/** What a configuration key holds. */
export const KeyRoleSchema = z.enum([
	'url',
	'postData',
	'contentType',
	'method',
	'customHeaders',
	'flag',
	'fallbackUrl',
	/** A whole number the app reads as it is (an interval, a length): not a template. */
	'number',
	/** The user name the app answers an HTTP authentication challenge with: not a template. */
	'authUsername',
	/** Its password: a secret, sealed, write-only and never shown or exported by default. */
	'authPassword',
	/** An XPath expression the app reads an XML answer with: not a template. */
	'xpath'
]);
export type KeyRole = z.infer<typeof KeyRoleSchema>;

/** Where the admin puts a key: the additional provisioning XML, or a portal form. */
export const KeyLocationSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('accountXml'), path: z.string() }),
	z.object({ kind: z.literal('portal'), step: z.string() })
]);
export type KeyLocation = z.infer<typeof KeyLocationSchema>;

/** One configuration key of a service, with the contract's name. */
export const ConfigKeySchema = z.object({
	key: z.string(),
	role: KeyRoleSchema,
	label: z.string(),
	location: KeyLocationSchema,
	description: z.string(),
	/** The value the app uses when the key is not set (numbers only). */
	default: z.string().optional(),
	/** Where the key comes from; absent, the contract. */
	source: SourceSchema.optional()
});
export type ConfigKey = z.infer<typeof ConfigKeySchema>;

/**
 * A header the app adds itself from what it kept of an earlier answer (`If-Modified-Since` from
 * the last `Last-Modified`): a test call sends it when the sample value `from` is not empty.
 */
export const AppHeaderSchema = z.object({ name: z.string(), from: z.string() });
export type AppHeader = z.infer<typeof AppHeaderSchema>;

/** A key the contract calls deprecated, and the key that replaces it. */
export const DeprecatedKeySchema = z.object({
	key: z.string(),
	replacement: z.string(),
	note: z.string()
});
export type DeprecatedKey = z.infer<typeof DeprecatedKeySchema>;

/** HTTP methods that appear in the contract. */
export const MethodSchema = z.enum(['GET', 'HEAD', 'POST', 'PUT']);
export type Method = z.infer<typeof MethodSchema>;

/** How the request method is chosen. */
export const MethodRuleSchema = z.discriminatedUnion('kind', [
	/** GET when the post data template is empty, POST when it is filled. */
	z.object({ kind: z.literal('byBody') }),
	/** A method key chooses; unset, it is by body; the body is not sent with `bodyIgnoredFor`. */
	z.object({
		kind: z.literal('configurable'),
		methods: z.array(MethodSchema),
		bodyIgnoredFor: z.array(MethodSchema)
	}),
	/** Always this method; the body is required. */
	z.object({ kind: z.literal('fixed'), method: MethodSchema })
]);
export type MethodRule = z.infer<typeof MethodRuleSchema>;

/** Request content types: the default when none is set (null: not shown) and the allowed ones. */
export const ContentTypeRuleSchema = z.object({
	default: z.string().nullable(),
	allowed: z.array(z.string()).nullable()
});
export type ContentTypeRule = z.infer<typeof ContentTypeRuleSchema>;

/** Which statuses are success, and what a successful body must be. */
export const SuccessRuleSchema = z.object({
	status: z.discriminatedUnion('kind', [
		z.object({ kind: z.literal('2xx') }),
		z.object({ kind: z.literal('exact'), status: z.number().int() })
	]),
	/** `any`; `validOrAbsent`: a body that cannot be parsed is a failure; `matchesContentType`. */
	body: z.enum(['any', 'validOrAbsent', 'matchesContentType'])
});
export type SuccessRule = z.infer<typeof SuccessRuleSchema>;

/** What the caller does with a failed call. */
export const FailureRuleSchema = z.enum([
	/** The body's `message`, else the first `shownBodyChars` characters of the raw body. */
	'showMessageOrBodyPrefix',
	/** The body's `message`, else a generic error message. */
	'showMessageOrGeneric',
	/** Nothing happens and nothing is shown. */
	'silentlyIgnore',
	/** Nothing is shown; the call counts as failed and is made again later. */
	'ignoreAndRetry',
	/** Like showMessageOrBodyPrefix, in the registration wizard's message box. */
	'wizardMessageBox',
	/** The push gateway: the provider's own code reads the response objects. */
	'providerDecides'
]);
export type FailureRule = z.infer<typeof FailureRuleSchema>;

/** What the caller reads from a successful body. */
export const ResponseBodySchema = z.enum([
	'smsId',
	'phoneNumbers',
	'provisioningAccount',
	'keyValueMap',
	'notParsed',
	'pushResults',
	/** Fetch Messages: received and sent messages, read as the app reads them. */
	'fetchedMessages',
	/** Balance Checker: the balance text the app shows. */
	'balance',
	/** Rate Checker: the rate texts the app shows beside the number. */
	'rate',
	/** The reporters beyond the contract: only the status is read; the provider acts on the call. */
	'report',
	/** Initial provisioning: the `<account>` document the app merges, or why it stops. */
	'provisioningAnswer',
	/** Web Service Contacts: the contacts list, or 304 for the one the app has. */
	'contacts'
]);
export type ResponseBody = z.infer<typeof ResponseBodySchema>;

/** The rules of a service that can carry a source of their own. */
export const RuleNameSchema = z.enum([
	'variableSet',
	'accountKeys',
	'globals',
	'method',
	'contentType',
	'success',
	'failure',
	'responseBody',
	'limits'
]);
export type RuleName = z.infer<typeof RuleNameSchema>;

/** A remark an admin should see, as text, or with where it comes from. */
export const RemarkSchema = z.union([
	z.string(),
	z.object({ text: z.string(), source: SourceSchema })
]);
export type Remark = z.infer<typeof RemarkSchema>;

/** One service of the contract, or of the platform beyond it (with its sources). */
export const ServiceSchema = z.object({
	id: z.string(),
	title: z.string(),
	caller: CallerSchema,
	purpose: z.string(),
	/** Provider-implemented services have templates; the push gateway has a fixed path. */
	kind: z.enum(['template', 'gateway']),
	endpoint: z.object({ method: MethodSchema, path: z.string() }).optional(),
	keys: z.array(ConfigKeySchema),
	deprecatedKeys: z.array(DeprecatedKeySchema),
	/** Names (as written between the percent signs) of the variables this service defines. */
	variables: z.array(VariableSchema),
	/** Account keys the caller fills; `all` for every documented one, `none` when no account. */
	accountKeys: z.union([z.literal('all'), z.literal('none'), z.array(z.string())]),
	/** Global parameters the caller fills: `all` documented ones or `none`. */
	globals: z.enum(['all', 'none']),
	/** `fixed`: only the names above are recognised (an unknown name is an error). */
	variableSet: z.enum(['open', 'fixed']),
	method: MethodRuleSchema,
	contentType: ContentTypeRuleSchema,
	success: SuccessRuleSchema,
	failure: FailureRuleSchema,
	responseBody: ResponseBodySchema,
	limits: z.object({
		httpsOnly: z.boolean(),
		recipientsPerCall: z.number().int().nullable(),
		shownBodyChars: z.number().int().nullable()
	}),
	/** Headers the app adds itself (see {@link AppHeaderSchema}). */
	appHeaders: z.array(AppHeaderSchema).optional(),
	/** Remarks an admin should see beside the settings (from the contract unless they say). */
	remarks: z.array(RemarkSchema),
	/** Set when the contract marks the service as not yet supported by the client. */
	notYetSupported: z.boolean().optional(),
	/** Where the service comes from; absent, the contract. */
	source: SourceSchema.optional(),
	/** Rules whose source differs from the service's own. */
	ruleSources: z.partialRecord(RuleNameSchema, SourceSchema).optional()
});
export type Service = z.infer<typeof ServiceSchema>;
