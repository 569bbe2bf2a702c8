import { z } from 'zod';
import { findService, sampleValues } from '$lib/core/catalogue';
import { declaredAccountKeys } from '$lib/core/xml/account';
import {
	isSecretKey,
	isSecretSetting,
	SECRET_MASK,
	SETTING_SECRETS,
	TemplateServiceIdSchema
} from '$lib/core/profile';
import {
	buildRequests,
	secretsUsed,
	shownOrigin,
	type BuildInput,
	type Values
} from '$lib/core/request';
import type { ServerContext } from '../platform/context';
import { PreviewInputSchema } from '../profiles/preview';
import { headDocument, headSecretOrigins } from '../profiles';

/**
 * What a test call sends, from either body of `POST /api/test-calls`: the preview's body
 * (settings and values as the editor has them), or a saved profile, a service and a scenario.
 */

const CallId = z.string().uuid().optional().meta({
	description: 'A UUID of yours, to cancel the call with `DELETE /api/test-calls/running/{callId}`.'
});

/**
 * The preview's body. `secretsFrom` names the saved profile the editor shows, whose history the
 * call is kept in; with a scenario, values sent as the mask are filled from its stored values (a
 * profile with no named scenario has none stored).
 */
export const InlineCallSchema = PreviewInputSchema.extend({
	callId: CallId,
	secretsFrom: z
		.object({ profileId: z.string().uuid(), scenario: z.string().min(1).max(100).optional() })
		.optional()
		.meta({
			description:
				'Keeps the call in that saved profile’s history; with `scenario`, a value sent as `••••••••` takes that scenario’s stored secret, but only when every request goes to an origin the saved profile sends the service to.'
		})
});

/** A saved profile's service, with one of its scenarios. */
export const ProfileCallSchema = z
	.object({
		profileId: z.string().uuid(),
		service: TemplateServiceIdSchema,
		scenario: z.string().min(1).max(100),
		callId: CallId
	})
	.meta({
		description:
			'A saved profile’s service, with its scenario’s values over the catalogue’s samples.'
	});

function schemaFor(value: unknown) {
	const isProfile = typeof value === 'object' && value !== null && 'profileId' in value;
	return isProfile ? ProfileCallSchema : InlineCallSchema;
}

/** `POST /api/test-calls`: a body with `profileId` names a saved profile, else it is inline. */
export const TestCallInputSchema = z.unknown().transform((value, ctx) => {
	// Validated once: the issues of the schema that applies are the answer's issues.
	const parsed = schemaFor(value).safeParse(value);
	if (parsed.success) return parsed.data as TestCallInput;
	for (const issue of parsed.error.issues) {
		ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
	}
	return z.NEVER;
});

/**
 * Either body as the API's document describes it: `TestCallInputSchema` parses with the schema
 * the body's `profileId` picks, so its issues are that schema's alone.
 */
export const TestCallBodySchema = z.union([ProfileCallSchema, InlineCallSchema]);

/** Either body, parsed. */
export type TestCallInput = z.infer<typeof InlineCallSchema> | z.infer<typeof ProfileCallSchema>;

/** What to build, and where it came from (for the history). */
export interface ResolvedCall {
	build: BuildInput & { service: string };
	profileId: string | null;
	scenario: string | null;
}

/** Why a call cannot be made at all (answered 400 or 404 before anything is sent). */
export class CallInputError extends Error {
	constructor(
		readonly status: 400 | 404,
		readonly code: string,
		message: string
	) {
		super(message);
	}
}

async function scenarioOf(ctx: ServerContext, profileId: string, name: string) {
	const document = await headDocument(ctx, profileId);
	if (!document) throw new CallInputError(404, 'not_found', 'No such profile.');
	const scenario = document.scenarios.find((s) => s.name === name);
	if (!scenario) {
		throw new CallInputError(404, 'not_found', `The profile has no scenario named "${name}".`);
	}
	return { document, scenario };
}

/** The origins of the requests, each with its form as shown (a secret in a host masked). */
function origins(input: BuildInput): Map<string, string> {
	const found = new Map<string, string>();
	for (const request of buildRequests(input).requests) {
		try {
			found.set(new URL(request.url).origin, shownOrigin(request));
		} catch {
			// not a URL: the call is refused later, with the URL named
		}
	}
	return found;
}

/**
 * Every stored secret a request carries must go to an origin it is bound to: one of the URLs the
 * profile had when the secret was typed (a URL changed since never takes the secret along).
 */
async function checkBindings(
	ctx: ServerContext,
	build: BuildInput & { service: string },
	from: { profileId: string; scenario: string },
	stored: ReadonlySet<string>
): Promise<void> {
	if (!stored.size) return;
	const bindings = await headSecretOrigins(ctx, from.profileId);
	const bound = Object.hasOwn(bindings, from.scenario) ? bindings[from.scenario] : {};
	for (const request of buildRequests(build).requests) {
		const origin = URL.canParse(request.url) ? new URL(request.url).origin : request.url;
		for (const key of secretsUsed(request)) {
			if (!stored.has(key)) continue;
			const allowed = Object.hasOwn(bound, key) ? bound[key] : [];
			if (!allowed.includes(origin)) {
				throw new CallInputError(
					400,
					'secret_origin',
					`The stored %${key}% was typed for ${allowed.join(', ') || 'no address of this profile'}; it is not sent to ${shownOrigin(request)}. Type the value again (and save) to use it with this URL.`
				);
			}
		}
	}
}

/** The service's secret settings (a Digest password) that hold a value, by key. */
function secretSettings(build: BuildInput & { service: string }): string[] {
	return Object.keys(build.settings).filter(
		(key) => isSecretSetting(build.service, key) && (build.settings[key] ?? '') !== ''
	);
}

/**
 * A stored secret setting answers only the origins it was typed for, as a stored value does:
 * a Digest password never answers a challenge from a URL changed since it was saved.
 */
async function checkSettingBindings(
	ctx: ServerContext,
	build: BuildInput & { service: string },
	profileId: string,
	keys: readonly string[]
): Promise<void> {
	if (!keys.length) return;
	const bindings = await headSecretOrigins(ctx, profileId);
	const bound = Object.hasOwn(bindings, SETTING_SECRETS) ? bindings[SETTING_SECRETS] : {};
	for (const request of buildRequests(build).requests) {
		const origin = URL.canParse(request.url) ? new URL(request.url).origin : request.url;
		for (const key of keys) {
			const slot = `${build.service}/${key}`;
			const allowed = Object.hasOwn(bound, slot) ? bound[slot] : [];
			if (!allowed.includes(origin)) {
				throw new CallInputError(
					400,
					'secret_origin',
					`The stored ${key} was typed for ${allowed.join(', ') || 'no address of this profile'}; it is not used with ${shownOrigin(request)}. Type it again (and save) to use it with this URL.`
				);
			}
		}
	}
}

/** Secret settings sent as the mask take the saved profile's, where they are bound. */
async function fillSecretSettings(
	ctx: ServerContext,
	build: BuildInput & { service: string },
	profileId: string
): Promise<BuildInput & { service: string }> {
	const masked = secretSettings(build).filter((key) => build.settings[key] === SECRET_MASK);
	if (!masked.length) return build;
	const document = await headDocument(ctx, profileId);
	if (!document) throw new CallInputError(404, 'not_found', 'No such profile.');
	const saved = document.services[build.service as keyof typeof document.services] ?? {};
	const settings = { ...build.settings };
	const filled = masked.filter((key) => (saved[key] ?? '') !== '');
	for (const key of filled) settings[key] = saved[key];
	const result = { ...build, settings };
	await checkSettingBindings(ctx, result, profileId, filled);
	return result;
}

/**
 * Values sent as the mask take the saved scenario's secrets, but only when every request goes
 * to an origin the saved profile sends this service to: a stored password is never sent
 * somewhere else than where it was saved for.
 */
async function fillSecrets(
	ctx: ServerContext,
	build: BuildInput & { service: string },
	from: { profileId: string; scenario: string }
): Promise<BuildInput & { service: string }> {
	const masked = Object.keys(build.values).filter((k) => build.values[k] === SECRET_MASK);
	if (!masked.length) return build;
	const { document, scenario } = await scenarioOf(ctx, from.profileId, from.scenario);
	const values: Values = { ...build.values };
	const filled = new Set<string>();
	for (const key of masked) {
		const stored = scenario.values[key];
		if (typeof stored === 'string' && stored !== '') {
			values[key] = stored;
			filled.add(key);
		}
	}
	await checkBindings(ctx, { ...build, values }, from, filled);
	const saved = origins({
		service: build.service,
		settings: document.services[build.service as keyof typeof document.services] ?? {},
		values
	});
	for (const [origin, shown] of origins({ ...build, values })) {
		if (!saved.has(origin)) {
			throw new CallInputError(
				400,
				'secret_origin',
				`A stored secret is sent only where the saved profile sends ${build.service} (${[...saved.values()].join(', ') || 'nowhere yet'}), not to ${shown}. Save the profile first, or type the value.`
			);
		}
	}
	return { ...build, values };
}

/** The build input of a test call, with stored secrets where they may go. */
export async function resolveCall(ctx: ServerContext, input: TestCallInput): Promise<ResolvedCall> {
	if ('profileId' in input) {
		const { document, scenario } = await scenarioOf(ctx, input.profileId, input.scenario);
		const service = findService(input.service)!;
		const accountKeys = declaredAccountKeys(document.preservedXml);
		const build = {
			service: input.service,
			settings: document.services[input.service as keyof typeof document.services] ?? {},
			// As the profile editor previews it: the scenario's values over the samples (the
			// profile's own account values among them).
			values: { ...(sampleValues(service, accountKeys) as Values), ...scenario.values },
			rawSubstitution: document.rawSubstitution,
			accountKeys
		};
		const stored = Object.keys(scenario.values).filter(
			(key) => isSecretKey(key) && scenario.values[key] !== ''
		);
		await checkBindings(ctx, build, input, new Set(stored));
		await checkSettingBindings(ctx, build, input.profileId, secretSettings(build));
		return {
			build,
			profileId: input.profileId,
			scenario: input.scenario
		};
	}
	const build = {
		service: input.service,
		settings: input.settings,
		values: input.values as Values,
		rawSubstitution: input.rawSubstitution,
		accountKeys: declaredAccountKeys(input.preservedXml ?? [])
	};
	if (!input.secretsFrom) return { build, profileId: null, scenario: null };
	const { profileId, scenario } = input.secretsFrom;
	if (scenario === undefined) {
		if (!(await headDocument(ctx, profileId))) {
			throw new CallInputError(404, 'not_found', 'No such profile.');
		}
		return { build: await fillSecretSettings(ctx, build, profileId), profileId, scenario: null };
	}
	const withSettings = await fillSecretSettings(ctx, build, profileId);
	return {
		build: await fillSecrets(ctx, withSettings, { profileId, scenario }),
		profileId,
		scenario
	};
}
