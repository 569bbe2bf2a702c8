import { z } from '$lib/core/zod';
import { PreservedXmlSchema, ProfileBackupSchema, ProfileDocumentSchema } from '$lib/core/profile';
import { ErrorSchema, IssueSchema, Millis } from './common';

/**
 * Answers of the profile endpoints: profiles and their revisions, saves and their conflicts,
 * differences, XML import reviews, backups and the preview. The server builds its answers with
 * the types inferred here, so what it sends and what the document promises are one shape.
 */

/** The profile document, as stored and as answered (secret values masked). */
export const ProfileDocument = ProfileDocumentSchema.meta({
	id: 'ProfileDocument',
	description:
		'One provider’s whole configuration: settings by service and configuration key, push settings, scenarios of sample values, the raw-substitution switch and the kept XML.'
});

export { IssueSchema };

/** A profile at one revision (`ProfileView` on the server). */
export const ProfileSchema = z
	.object({
		id: z.string(),
		name: z.string(),
		revision: z.number().int().meta({ description: 'The revision shown.' }),
		headRevision: z.number().int().meta({ description: 'The newest revision.' }),
		createdAt: Millis,
		updatedAt: Millis,
		deletedAt: Millis.nullable().meta({ description: 'When it was deleted; null if it is not.' }),
		author: z.string().nullable().meta({ description: 'Who saved this revision.' }),
		message: z.string().nullable().meta({ description: 'The revision’s message.' }),
		savedAt: Millis.meta({ description: 'When this revision was saved.' }),
		document: ProfileDocument
	})
	.meta({ id: 'Profile', description: 'A profile at one revision, its secret values masked.' });
export type Profile = z.infer<typeof ProfileSchema>;

/** `{ profile }`: an answer holding one profile. */
export const ProfileAnswerSchema = z
	.object({ profile: ProfileSchema })
	.meta({ id: 'ProfileAnswer' });
export type ProfileAnswer = z.infer<typeof ProfileAnswerSchema>;

/** A profile in the list (the store's `ProfileRow`). */
export const ProfileListItemSchema = z
	.object({
		id: z.string(),
		name: z.string(),
		createdAt: Millis,
		createdBy: z.number().int().nullable().meta({ description: 'The id of the user who made it.' }),
		deletedAt: Millis.nullable(),
		headRevision: z.number().int(),
		updatedAt: Millis
	})
	.meta({ id: 'ProfileListItem' });

/** `GET /api/profiles`. */
export const ProfileListSchema = z
	.object({ profiles: z.array(ProfileListItemSchema) })
	.meta({ id: 'ProfileList' });
export type ProfileList = z.infer<typeof ProfileListSchema>;

/** A save on an older revision, merged with the head (`Merged` on the server). */
export const MergedSchema = z
	.object({
		base: z.number().int().meta({ description: 'The revision the save was based on.' }),
		theirs: z.number().int().meta({ description: 'The head it was merged with.' }),
		fromTheirs: z
			.array(z.string())
			.meta({ description: 'The fields that took the head’s value, by path.' }),
		chosen: z.array(z.string()).meta({ description: 'The conflicts settled by `choices`.' })
	})
	.meta({ id: 'Merged', description: 'How a save on an older revision was merged with the head.' });
export type Merged = z.infer<typeof MergedSchema>;

/** A saved revision: the profile, and how it was merged when it was. */
export const SavedProfileSchema = z
	.object({ profile: ProfileSchema, merged: MergedSchema.optional() })
	.meta({ id: 'SavedProfile' });

/** A field both a save and the head changed differently. */
export const MergeConflictSchema = z
	.object({
		path: z.string().meta({ description: 'The field, as a diff’s path.' }),
		label: z.string().meta({ description: 'The field in the screens’ words.' }),
		base: z.string().optional().meta({ description: 'Absent where the field did not exist.' }),
		mine: z.string().optional(),
		theirs: z.string().optional(),
		secret: z.boolean().meta({ description: 'A secret’s values are shown as the mask.' })
	})
	.meta({
		id: 'MergeConflict',
		description: 'A side is absent where the field does not exist there; secrets are masked.'
	});

/** A save refused: the head as it is, what was sent, and the fields both changed. */
export const SaveConflictSchema = ErrorSchema.extend({
	current: ProfileSchema,
	yours: ProfileDocument,
	conflicts: z.array(MergeConflictSchema)
}).meta({
	id: 'SaveConflict',
	description:
		'`conflict`: someone saved first and nothing was overwritten. `current` is the head as it is now, `yours` the document sent (its secrets masked), `conflicts` the fields both changed. Send the save again with `choices` for every conflicting path and `theirsRevision` = `current.revision`.'
});
export type SaveConflict = Omit<z.infer<typeof SaveConflictSchema>, 'error' | 'issues'>;

/** A revision in the list (without its document). */
export const RevisionSummarySchema = z
	.object({
		profileId: z.string(),
		revision: z.number().int(),
		authorId: z.number().int().nullable(),
		authorName: z.string().nullable(),
		createdAt: Millis,
		message: z.string().nullable()
	})
	.meta({ id: 'RevisionSummary' });

/** `GET /api/profiles/:id/revisions`. */
export const RevisionListSchema = z
	.object({ revisions: z.array(RevisionSummarySchema).meta({ description: 'Newest first.' }) })
	.meta({ id: 'RevisionList' });
export type RevisionList = z.infer<typeof RevisionListSchema>;

/** One field that differs between two documents. */
export const FieldChangeSchema = z
	.object({
		path: z.string().meta({
			description:
				'Where the field is in the document, stable: `services.sendMessage.genericSmsSendUrl`, `scenarios["Text message"].values.sms_to`, `preservedXml[0]`; a scenario added or removed is a change of `scenarios["Text message"]` with an empty value.'
		}),
		label: z.string().meta({
			description:
				'The field in the catalogue’s words: `Send Message · URL`, `Scenario “Text message” · %sms_to%`, `Kept XML element <codec> in provisioning/account/core`.'
		}),
		kind: z.enum(['added', 'removed', 'changed']),
		before: z.string().optional(),
		after: z.string().optional().meta({ description: 'A kept element’s value is its XML.' })
	})
	.meta({ id: 'FieldChange', description: 'One field that differs; secret values masked.' });

/** `GET /api/profiles/:id/diff`. */
export const RevisionDiffSchema = z
	.object({ from: z.number().int(), to: z.number().int(), changes: z.array(FieldChangeSchema) })
	.meta({ id: 'RevisionDiff' });
export type RevisionDiff = z.infer<typeof RevisionDiffSchema>;

/** A backup file (`GET /api/profiles/:id/backup`). */
export const ProfileBackup = ProfileBackupSchema.extend({ document: ProfileDocument }).meta({
	id: 'ProfileBackup',
	description:
		'A whole revision’s document as JSON; secret values are the mask unless `secrets` is `included`. A key no part of a backup (`scenarioz`, a later version’s setting) is left out on restore and named, with path, line and column, as a `backup_unknown_key` warning in the review and by `provisioning-studio check`.'
});

/** A setting the XML gave several different values. */
export const ImportConflictSchema = z
	.object({
		service: z.string(),
		key: z.string(),
		candidates: z
			.array(
				z.object({
					element: z.string().meta({ description: 'The element it came from.' }),
					line: z.number().int(),
					value: z.string()
				})
			)
			.meta({ description: 'Apply one with `choices`: `"<service>.<key>": <its index>`.' })
	})
	.meta({
		id: 'ImportConflict',
		description:
			'A setting given several values: `genericSmsPostData` beside `genericSmsSendPostData`, `genericSmsContentType` beside `genericSmsSendContentType`, or a repeated setting.'
	});

/** `POST /api/import`: what the XML holds, and against a profile what importing it changes. */
export const XmlImportReviewSchema = z
	.object({
		form: z
			.enum(['provisioning', 'account', 'fragment'])
			.meta({ description: 'The shape the XML had (`fragment`: a bare list of settings).' }),
		services: z.record(z.string(), z.record(z.string(), z.string())).meta({
			description:
				'The settings found, by service id and configuration key, each value a string exactly as written (`007` stays `007`).'
		}),
		preservedXml: z.array(PreservedXmlSchema).meta({
			description:
				'Unknown elements (`{ path, index, xml }`), kept as written, credentials masked, and exported at their place.'
		}),
		conflicts: z.array(ImportConflictSchema),
		issues: z.array(IssueSchema).meta({
			description:
				'With line and column. `xml_unknown_kept` says how many unknown elements are kept; `xml_account_values` names the kept elements that are the profile’s account values (`%account[apiUser]%`).'
		}),
		baseRevision: z
			.number()
			.int()
			.optional()
			.meta({ description: 'With `?profile`: the revision the changes are against.' }),
		changes: z
			.array(FieldChangeSchema)
			.optional()
			.meta({ description: 'With `?profile`: what importing it would change.' })
	})
	.meta({ id: 'XmlImportReview' });
export type XmlImportReview = z.infer<typeof XmlImportReviewSchema>;

/** One request a service's caller sends, as the preview shows it. */
export const PreviewRequestSchema = z
	.object({
		method: z.string(),
		url: z.string(),
		headers: z
			.record(z.string(), z.string())
			.meta({ description: 'By name; repeated names joined by ", ".' }),
		body: z.string().nullable(),
		recipient: z
			.string()
			.optional()
			.meta({ description: 'The recipient this request is for (one request per recipient).' }),
		curl: z.string().meta({ description: 'The same request as a cURL command.' })
	})
	.meta({ id: 'PreviewRequest' });
export type PreviewRequest = z.infer<typeof PreviewRequestSchema>;

/** `POST /api/preview`. */
export const PreviewSchema = z
	.object({
		requests: z.array(PreviewRequestSchema).meta({
			description:
				'Empty when the service is not called (no URL, or `externalProvisioningOnSSODisabled` is 1); an issue says why.'
		}),
		issues: z.array(IssueSchema)
	})
	.meta({ id: 'Preview' });
export type Preview = z.infer<typeof PreviewSchema>;
