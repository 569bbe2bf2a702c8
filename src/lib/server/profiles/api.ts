import { json } from '@sveltejs/kit';
import { z } from 'zod';
import { ProfileDocument } from '$lib/api-schemas/profiles';
import { XML_FORMS, type XmlForm } from '$lib/core/catalogue';
import type { Issue } from '$lib/core/issues';
import { apiError } from '../http/body';
import type { SaveOutcome } from './';

/** Request bodies of the profile endpoints, and how save outcomes are answered. */

/** A profile name. */
export const ProfileNameSchema = z.string().trim().min(1).max(200);

/** POST /api/profiles */
export const CreateProfileSchema = z.object({
	name: ProfileNameSchema,
	document: ProfileDocument.optional(),
	duplicateOf: z.string().uuid().optional(),
	message: z.string().max(500).optional()
});

/** PUT /api/profiles/:id */
export const SaveProfileSchema = z.object({
	baseRevision: z.number().int().positive().meta({
		description:
			'The revision the save started from; a save on an older one is merged with the head.'
	}),
	document: ProfileDocument,
	message: z.string().max(500).optional(),
	choices: z
		.record(z.string().max(1000), z.enum(['mine', 'theirs']))
		.optional()
		.meta({
			description:
				'After a 409: the side each conflicting field takes (`"<path>": "mine" | "theirs"`), one for every path of `conflicts`.'
		}),
	theirsRevision: z.number().int().positive().optional().meta({
		description:
			'After a 409: `current.revision`. The choices hold only while it is the head; a newer save is merged again.'
	})
});

/** PATCH /api/profiles/:id */
export const PatchProfileSchema = z
	.object({ name: ProfileNameSchema.optional(), deleted: z.literal(false).optional() })
	.refine((v) => v.name !== undefined || v.deleted !== undefined, {
		message: 'Send a new name, or deleted: false to restore a deleted profile.'
	});

/** GET /api/profiles/:id/diff: two revision numbers. */
export const DiffQuerySchema = z.object({
	from: z.coerce.number().int().positive().meta({ description: 'The revision to compare from.' }),
	to: z.coerce.number().int().positive().meta({ description: 'The revision to compare to.' })
});

/** The XML forms a profile is exported in. */
const XmlFormSchema = z.enum(Object.keys(XML_FORMS) as [XmlForm, ...XmlForm[]], {
	message: 'Choose "provisioning" or "account".'
});

/** GET /api/profiles/:id/export.xml */
export const ExportXmlQuerySchema = z.object({
	form: XmlFormSchema.default('provisioning').meta({
		description:
			'`provisioning` (the default): the account-level settings (Send Message, Media Reference Send, Push Token Reporter, `extSSOProv*`, `externalProvisioningOnSSODisabled`) under `provisioning/account/core`; `account`: the same as the children of an `<account>` document, as an external provisioning answer carries them. Portal settings are never in the XML.'
	})
});

/** POST /api/profiles/:id/export.xml/secrets */
export const ExportXmlWithSecretsSchema = z.object({
	form: XmlFormSchema.default('provisioning'),
	confirm: z.literal(true, { message: 'Send { "confirm": true } to include secret values.' })
});

/** POST /api/profiles/:id/backup/secrets */
export const BackupWithSecretsSchema = z.object({
	confirm: z.literal(true, { message: 'Send { "confirm": true } to include secret values.' })
});

/**
 * 200 with the profile (and, when it was merged with newer revisions, what it took from them),
 * 404, or 409 with both versions and the fields both changed.
 */
export function saveResponse(outcome: SaveOutcome): Response {
	if (outcome.ok) {
		return json(
			outcome.merged
				? { profile: outcome.profile, merged: outcome.merged }
				: { profile: outcome.profile }
		);
	}
	if (outcome.reason === 'not_found') return apiError(404, 'not_found', 'No such profile.');
	const { current, conflicts } = outcome.conflict;
	const fields = conflicts.map((c) => c.label);
	const which = fields.length
		? ` Both changed ${fields.length === 1 ? 'one field' : `${fields.length} fields`}: ${fields.join(', ')}; choose a side for each.`
		: '';
	return apiError(
		409,
		'conflict',
		`Someone saved revision ${current.revision} first; nothing was overwritten.${which}`,
		outcome.conflict
	);
}

/** POST /api/profiles/:id/import */
export const ImportXmlSchema = z.object({
	baseRevision: z.number().int().positive(),
	xml: z
		.string()
		.max(8 * 1024 * 1024)
		.meta({
			description:
				'Either XML form or a bare list of setting elements. A whole document replaces the profile’s XML settings and kept elements; a bare list sets only what it holds.'
		}),
	choices: z.record(z.string().max(200), z.number().int().min(0)).default({}).meta({
		description:
			'The chosen candidate of each conflict, keyed `service.key`: `"sendMessage.genericSmsSendPostData": 1`.'
	})
});

/** POST /api/profiles/:id/backup/restore */
export const RestoreBackupSchema = z.object({
	baseRevision: z.number().int().positive(),
	backup: z.unknown()
});

/** 400 for input that cannot be read or applied, with the core's issues (line and column). */
export function unreadable(code: string, issues: Issue[]): Response {
	return apiError(400, code, issues[0]?.message ?? 'The input cannot be read.', { issues });
}
