import { z } from 'zod';
import {
	PreviewSchema,
	ProfileAnswerSchema,
	ProfileBackup,
	ProfileListSchema,
	RevisionDiffSchema,
	RevisionListSchema,
	SaveConflictSchema,
	SavedProfileSchema,
	XmlImportReviewSchema
} from '$lib/api-schemas/profiles';
import {
	BackupWithSecretsSchema,
	CreateProfileSchema,
	DiffQuerySchema,
	ExportXmlQuerySchema,
	ExportXmlWithSecretsSchema,
	ImportXmlSchema,
	PatchProfileSchema,
	RestoreBackupSchema,
	SaveProfileSchema
} from '../../profiles/api';
import { PreviewInputSchema } from '../../profiles/preview';
import { jsonAnswer, NO_CONTENT, type Answer, type OperationSpec } from '../contract';

const ProfilePath = z.object({
	id: z.string().meta({ description: 'The profile’s id.' })
});

const RevisionPath = ProfilePath.extend({
	rev: z.string().meta({ description: 'The revision’s number.' })
});

/** `POST /api/import?profile=`: the profile to show the changes against. */
const ImportQuery = z.object({
	profile: z
		.string()
		.optional()
		.meta({ description: 'A profile’s id: also show what importing into its head changes.' })
});

const ListQuery = z.object({
	deleted: z
		.string()
		.optional()
		.meta({ description: '`1`: list the deleted profiles (restorable) instead.' })
});

/** Every download names its file. */
const DOWNLOAD: Answer['headers'] = {
	'Content-Disposition': {
		description:
			'`attachment`, the file named after the profile (`filename`, ASCII, and `filename*`, UTF-8).',
		required: true,
		schema: { type: 'string', pattern: '^attachment; ' }
	}
};

/** A document as the examples send it: one service, one scenario, no secrets. */
const EXAMPLE_DOCUMENT = {
	version: 1,
	services: {
		sendMessage: {
			genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%',
			genericSmsSendPostData: '{"to":"%sms_to%","body":"%sms_body%"}',
			genericSmsSendContentType: 'application/json'
		}
	},
	push: { gatewayUrl: '', appId: '', target: 'unknown' },
	scenarios: [{ name: 'Text message', values: { sms_to: '+14155550123', sms_body: 'Hello' } }],
	rawSubstitution: false,
	preservedXml: []
};

const EXAMPLE_XML =
	'<?xml version="1.0" encoding="UTF-8"?>\n<account>\n\t<genericSmsSendUrl>https://sms.example.com/send?to=%sms_to%</genericSmsSendUrl>\n\t<codec>opus</codec>\n</account>\n';

const SAVED = jsonAnswer(
	'Saved as a new revision; `merged` says how, when it was merged with newer revisions.',
	SavedProfileSchema
);

const CONFLICT = jsonAnswer(
	'`conflict`: a newer revision changed some of the same fields differently; nothing was written.',
	SaveConflictSchema
);

/** Profiles, their revisions, import and export, backups and the preview. */
export const profileOperations: OperationSpec[] = [
	{
		operationId: 'listProfiles',
		method: 'get',
		path: '/api/profiles',
		summary: 'List the profiles',
		description:
			'Every profile, by name, without its document; `?deleted=1` lists the deleted ones instead, which can be restored.',
		tag: 'Profiles',
		params: { query: ListQuery },
		answers: { 200: jsonAnswer('The profiles.', ProfileListSchema) }
	},
	{
		operationId: 'createProfile',
		method: 'post',
		path: '/api/profiles',
		summary: 'Create a profile',
		description:
			'Creates a profile (revision 1): empty, from `document`, or as a copy of the head of `duplicateOf` with its stored secrets. `message` defaults to `Created` (`Duplicated` for a copy).',
		tag: 'Profiles',
		body: {
			schema: CreateProfileSchema,
			example: { name: 'Example SMS provider', document: EXAMPLE_DOCUMENT }
		},
		answers: { 201: jsonAnswer('The new profile.', ProfileAnswerSchema) },
		errors: { 404: '`not_found`: the profile to duplicate does not exist.' }
	},
	{
		operationId: 'getProfile',
		method: 'get',
		path: '/api/profiles/{id}',
		summary: 'A profile at its head revision',
		description: 'Secret sample values are answered as `••••••••`.',
		tag: 'Profiles',
		params: { path: ProfilePath },
		answers: { 200: jsonAnswer('The profile.', ProfileAnswerSchema) }
	},
	{
		operationId: 'saveProfile',
		method: 'put',
		path: '/api/profiles/{id}',
		summary: 'Save a new revision',
		description:
			'Saves `document` as a new revision on top of `baseRevision`. A secret sent as `••••••••` keeps its stored value; an empty string removes it. When someone saved since, the save is merged with the head field by field: fields only the head changed keep its value, and fields both changed differently are a conflict, answered 409 with both versions and nothing written. Send the save again with `choices` for each conflicting path and `theirsRevision` = `current.revision` to settle them.',
		tag: 'Profiles',
		params: { path: ProfilePath },
		body: {
			schema: SaveProfileSchema,
			example: { baseRevision: 1, document: EXAMPLE_DOCUMENT, message: 'Send as JSON' }
		},
		answers: { 200: SAVED, 409: CONFLICT }
	},
	{
		operationId: 'updateProfile',
		method: 'patch',
		path: '/api/profiles/{id}',
		summary: 'Rename a profile, or restore a deleted one',
		description:
			'`name` renames the profile; `"deleted": false` restores a deleted one. Neither makes a revision.',
		tag: 'Profiles',
		params: { path: ProfilePath },
		body: { schema: PatchProfileSchema, example: { name: 'Example SMS provider (staging)' } },
		answers: { 200: jsonAnswer('The profile at its head revision.', ProfileAnswerSchema) }
	},
	{
		operationId: 'deleteProfile',
		method: 'delete',
		path: '/api/profiles/{id}',
		summary: 'Delete a profile',
		description:
			'The profile is then listed under `?deleted=1` and can be restored with `PATCH` `{ "deleted": false }`.',
		tag: 'Profiles',
		params: { path: ProfilePath },
		answers: { 204: NO_CONTENT }
	},
	{
		operationId: 'listRevisions',
		method: 'get',
		path: '/api/profiles/{id}/revisions',
		summary: 'The revisions of a profile',
		description: 'Newest first: number, author, time and message, without the documents.',
		tag: 'Profiles',
		params: { path: ProfilePath },
		answers: { 200: jsonAnswer('The revisions.', RevisionListSchema) }
	},
	{
		operationId: 'getRevision',
		method: 'get',
		path: '/api/profiles/{id}/revisions/{rev}',
		summary: 'A profile as it was at one revision',
		description: 'Secret sample values are answered as `••••••••`.',
		tag: 'Profiles',
		params: { path: RevisionPath },
		answers: { 200: jsonAnswer('The profile at that revision.', ProfileAnswerSchema) }
	},
	{
		operationId: 'restoreRevision',
		method: 'post',
		path: '/api/profiles/{id}/revisions/{rev}/restore',
		summary: 'Restore a revision',
		description:
			'Saves that revision’s document, with its own secrets, as a new revision on top of the head. A save landing at the same moment is merged as any save is, and may answer 409.',
		tag: 'Profiles',
		params: { path: RevisionPath },
		answers: { 200: SAVED, 409: CONFLICT }
	},
	{
		operationId: 'diffRevisions',
		method: 'get',
		path: '/api/profiles/{id}/diff',
		summary: 'The differences between two revisions',
		description:
			'Field by field from revision `from` to revision `to`; each change names its field by a stable `path` and a `label` in the catalogue’s words. Secret values are masked.',
		tag: 'Profiles',
		params: { path: ProfilePath, query: DiffQuerySchema },
		answers: { 200: jsonAnswer('The changes.', RevisionDiffSchema) }
	},
	{
		operationId: 'exportProfileXml',
		method: 'get',
		path: '/api/profiles/{id}/export.xml',
		summary: 'Export the head revision as XML',
		description:
			'A download of the head revision in one XML form: `provisioning` (the default) or `account`. Credentials of kept XML are left out. Values are written as element text, XML-escaped (CR as `&#13;`), never CDATA or attributes, in catalogue order; kept elements at their place. Recorded in the audit log as `profile.exported`.',
		tag: 'Import and export',
		params: { path: ProfilePath, query: ExportXmlQuerySchema },
		answers: {
			200: {
				description: 'The XML.',
				content: { 'application/xml': z.string() },
				headers: DOWNLOAD
			}
		},
		errors: {
			422: '`not_exportable`: a setting holds what XML 1.0 cannot carry; `issues` names it.'
		}
	},
	{
		operationId: 'exportProfileXmlWithSecrets',
		method: 'post',
		path: '/api/profiles/{id}/export.xml/secrets',
		summary: 'Export the head revision as XML, credentials included',
		description:
			'As the export, with the credentials of the kept XML (`<password>` of an imported account document) in clear. Recorded in the audit log as `profile.exported_with_secrets`.',
		tag: 'Import and export',
		params: { path: ProfilePath },
		body: { schema: ExportXmlWithSecretsSchema, example: { form: 'account', confirm: true } },
		answers: {
			200: {
				description: 'The XML, with credentials.',
				content: { 'application/xml': z.string() },
				headers: DOWNLOAD
			}
		},
		errors: {
			422: '`not_exportable`: a setting holds what XML 1.0 cannot carry; `issues` names it.'
		}
	},
	{
		operationId: 'getPortalSheet',
		method: 'get',
		path: '/api/profiles/{id}/portal.md',
		summary: 'The portal field sheet',
		description:
			'A download of the portal settings of the head revision (those never in the XML), as Markdown.',
		tag: 'Import and export',
		params: { path: ProfilePath },
		answers: {
			200: {
				description: 'The sheet.',
				content: { 'text/markdown': z.string() },
				headers: DOWNLOAD
			}
		}
	},
	{
		operationId: 'reviewXmlImport',
		method: 'post',
		path: '/api/import',
		summary: 'Read XML without saving it',
		description:
			'Reads XML in either form or as a bare list of settings (the body itself, `application/xml` or `text/xml`, UTF-8) and answers the settings, the kept elements and the issues found; credentials of kept elements are masked. With `?profile=`, also what importing it into that profile’s head would change. Saves nothing.\n\nCDATA is text, CR LF and lone CR become LF, an empty element leaves a setting unset, and the same value twice is one value. Kept as written, with a warning: a known setting with attributes or children, and a known name at the wrong place (not imported). Unknown elements keep their index (moving up, never past the end); a bare list’s go after the existing ones. Dropped with a warning: comments, processing instructions, loose text and attributes of `provisioning`, `account`, `core`; an outer element’s namespace declarations are not carried in.',
		tag: 'Import and export',
		params: { query: ImportQuery },
		body: {
			mediaType: 'application/xml',
			schema: z.string(),
			example: EXAMPLE_XML,
			description: 'The XML document (at most 8 MiB).'
		},
		answers: { 200: jsonAnswer('What the XML holds.', XmlImportReviewSchema) },
		errors: {
			400: '`invalid_xml`: the XML cannot be read (not well-formed, a DOCTYPE, not UTF-8, too deep, …); each issue says where.',
			404: '`not_found`: no profile with the id of `?profile`.',
			415: '`unsupported_media_type`: the body is not sent as XML.'
		}
	},
	{
		operationId: 'importProfileXml',
		method: 'post',
		path: '/api/profiles/{id}/import',
		summary: 'Import XML as a new revision',
		description:
			'Applies the XML to the document at `baseRevision` and saves the result as a new revision. A setting the XML gives several values needs a choice in `choices` (keyed `service.key`, the index of the candidate). The XML is read again against `baseRevision` (the reviewed revision); on an older one the result is merged with the head as a save is. An import never changes portal settings, scenarios or push settings.',
		tag: 'Import and export',
		params: { path: ProfilePath },
		body: { schema: ImportXmlSchema, example: { baseRevision: 1, xml: EXAMPLE_XML } },
		answers: { 200: SAVED, 409: CONFLICT },
		errors: {
			400: '`invalid_input`: the body is not acceptable; `invalid_xml`: the XML cannot be read; `unresolved_conflicts`: a setting has several values and no choice; `not_storable`: the result is more than a profile can hold (a setting over 2 MB, over 100,000 kept elements). `issues` says what and where; nothing is saved.'
		}
	},
	{
		operationId: 'backupProfile',
		method: 'get',
		path: '/api/profiles/{id}/backup',
		summary: 'Back up the head revision',
		description:
			'A download of the head revision’s whole document as JSON, secret values written as `••••••••`. Recorded in the audit log as `profile.exported` (form `backup`).',
		tag: 'Import and export',
		params: { path: ProfilePath },
		answers: { 200: jsonAnswer('The backup.', ProfileBackup, DOWNLOAD) }
	},
	{
		operationId: 'backupProfileWithSecrets',
		method: 'post',
		path: '/api/profiles/{id}/backup/secrets',
		summary: 'Back up the head revision, secrets included',
		description:
			'As the backup, with the secret values themselves. Recorded in the audit log as `profile.backup_with_secrets`.',
		tag: 'Import and export',
		params: { path: ProfilePath },
		body: { schema: BackupWithSecretsSchema, example: { confirm: true } },
		answers: { 200: jsonAnswer('The backup, with secrets.', ProfileBackup, DOWNLOAD) }
	},
	{
		operationId: 'restoreProfileBackup',
		method: 'post',
		path: '/api/profiles/{id}/backup/restore',
		summary: 'Restore a backup as a new revision',
		description:
			'Saves the backup’s document as a new revision on top of `baseRevision`, merged with the head as a save is. Secrets a backup left out keep the values stored under the same scenario names; another profile’s backup restores with a warning.',
		tag: 'Import and export',
		params: { path: ProfilePath },
		body: {
			schema: RestoreBackupSchema,
			example: {
				baseRevision: 1,
				backup: {
					format: 'provisioning-studio.profile-backup',
					version: 1,
					profile: {
						id: '0b5c3f57-2f5e-4a51-9d2c-3f1e8f0a9c11',
						name: 'Example SMS provider',
						revision: 1
					},
					exportedAt: '2025-01-01T00:00:00.000Z',
					secrets: 'left_out',
					document: EXAMPLE_DOCUMENT
				}
			}
		},
		answers: { 200: SAVED, 409: CONFLICT },
		errors: {
			400: '`invalid_input`: the body is not acceptable; `invalid_backup`: the backup cannot be read or holds more than a profile can. `issues` says what and where; nothing is saved.'
		}
	},
	{
		operationId: 'previewRequests',
		method: 'post',
		path: '/api/preview',
		summary: 'Render the requests of a service',
		description:
			'Builds the exact request(s) a service’s caller sends for these settings and values, with the same core the editor and test calls use, and the issues found. `values` are keyed by the placeholder as written between the percent signs; a per-recipient variable given as an array yields one request per element. Sends nothing.',
		tag: 'Preview',
		body: {
			schema: PreviewInputSchema,
			example: {
				service: 'sendMessage',
				settings: {
					genericSmsSendUrl: 'https://sms.example.com/send?from=%account[username]%',
					genericSmsSendPostData: '{"to":"%sms_to%","body":"%sms_body%"}',
					genericSmsSendContentType: 'application/json'
				},
				values: {
					sms_to: ['+14155550123', '+447700900123'],
					sms_body: 'Hi "there"',
					'account[username]': 'alice'
				},
				rawSubstitution: false
			}
		},
		answers: { 200: jsonAnswer('The requests and the issues.', PreviewSchema) }
	}
];
