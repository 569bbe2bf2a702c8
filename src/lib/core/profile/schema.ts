import { z } from '../zod';
import { PartySchema } from '../catalogue/schema';
import { SCENARIO_PRESETS } from '../catalogue/scenarios';
import { SERVICES } from '../catalogue/services';
import { isSecretKey } from './secret-keys';

/**
 * A profile: one provider's whole configuration, stored as one validated document. Settings
 * are keyed by service id, then by the contract's configuration key; scenarios hold sample
 * values keyed by the placeholder as written between the percent signs.
 */

/** Largest template value accepted (a 1 MB body plus room). */
export const MAX_SETTING_LENGTH = 2 * 1024 * 1024;

const TEMPLATE_SERVICE_IDS = SERVICES.filter((s) => s.kind === 'template').map((s) => s.id);

/** A service id of the catalogue that has templates. */
export const TemplateServiceIdSchema = z.enum(TEMPLATE_SERVICE_IDS as [string, ...string[]]);

/** One service's settings: configuration key → text. */
export const ServiceSettingsSchema = z.record(
	z.string().min(1).max(100),
	z.string().max(MAX_SETTING_LENGTH)
);
export type ServiceSettings = z.infer<typeof ServiceSettingsSchema>;

/** A scenario value: text, several recipients, or the parties of a list variable. */
export const ScenarioValueSchema = z.union([
	z.string().max(MAX_SETTING_LENGTH),
	z.array(z.string().max(10_000)).max(100),
	z.array(PartySchema).max(1000)
]);

/** A named set of sample values. A secret (a password) is text, so that it can be sealed. */
export const ScenarioSchema = z.object({
	name: z.string().trim().min(1).max(100),
	values: z.record(z.string().min(1).max(200), ScenarioValueSchema).superRefine((values, ctx) => {
		for (const [key, value] of Object.entries(values)) {
			if (isSecretKey(key) && typeof value !== 'string') {
				ctx.addIssue({ code: 'custom', path: [key], message: `${key} is a secret: send text.` });
			}
		}
	})
});
export type Scenario = z.infer<typeof ScenarioSchema>;

/** Where pushes go and for which target platform they are checked. */
export const PushSettingsSchema = z
	.object({
		gatewayUrl: z.string().max(2000).default('').meta({
			description:
				'Where the provider’s server sends pushes: the contract’s `{push_url}`, without `/pnm2/send`.'
		}),
		appId: z.string().max(500).default('').meta({ description: 'Sent as `AppId`.' }),
		target: z
			.enum(['platformA13', 'platformAOlder', 'platformB', 'unknown'])
			.default('unknown')
			.meta({ description: 'The platform pushes are checked for.' })
	})
	.meta({ description: 'Stored as given; in no XML form, and in the backup.' });

/** An element of imported XML the product does not know, kept to be written back on export. */
export const PreservedXmlSchema = z.object({
	/** Where it sat, as an element path (`provisioning/account/core`). */
	path: z.string().max(500),
	/** Its position among its siblings. */
	index: z.number().int().min(0),
	/** The element, serialised. */
	xml: z.string().max(MAX_SETTING_LENGTH)
});

/** The whole profile document. */
export const ProfileDocumentSchema = z.object({
	version: z.literal(1).default(1),
	services: z.partialRecord(TemplateServiceIdSchema, ServiceSettingsSchema).default({}).meta({
		description: 'Each service’s settings, keyed by the contract’s configuration key names.'
	}),
	push: PushSettingsSchema.default({ gatewayUrl: '', appId: '', target: 'unknown' }),
	// Secrets are stored by scenario name, so names are unique.
	scenarios: z
		.array(ScenarioSchema)
		.max(100)
		.default([])
		.superRefine((scenarios, ctx) => {
			const seen = new Set<string>();
			scenarios.forEach((scenario, i) => {
				if (seen.has(scenario.name)) {
					ctx.addIssue({
						code: 'custom',
						path: [i, 'name'],
						message: `Two scenarios are named "${scenario.name}": give each its own name.`
					});
				}
				seen.add(scenario.name);
			});
		})
		.meta({
			description:
				'Named sets of sample values (`{ name, values }`). Secret values (`account[password]`, `account[cloud_password]`, `password`) are sealed at rest and answered as `••••••••`; a save sending `••••••••` back keeps the stored value, another value replaces it, an empty string removes it.'
		}),
	rawSubstitution: z.boolean().default(false),
	preservedXml: z.array(PreservedXmlSchema).max(100_000).default([]).meta({
		description:
			'Elements of imported XML the app does not know (`{ path, index, xml }`), kept as written and exported at their place.'
	})
});
export type ProfileDocument = z.infer<typeof ProfileDocumentSchema>;

/** An empty profile document. */
export function emptyDocument(): ProfileDocument {
	return ProfileDocumentSchema.parse({});
}

/** A new profile: no settings yet, and the standard scenarios to preview them with. */
export function newDocument(): ProfileDocument {
	return ProfileDocumentSchema.parse({
		scenarios: SCENARIO_PRESETS.map((p) => ({ name: p.name, values: p.values }))
	});
}
