import { z } from '../zod';
import { lineColumn, type Issue, type Result } from '../issues';
import { ProfileDocumentSchema, type ProfileDocument } from './schema';

/**
 * A profile backup: the whole document of one revision as JSON, lossless. Secret sample values
 * are left out (written as the mask) unless an admin included them; restoring a backup whose
 * secrets were left out keeps the profile's stored secrets under the same scenario names.
 */

/** The `format` field of every backup. */
export const BACKUP_FORMAT = 'provisioning-studio.profile-backup';

/** A backup file. */
export const ProfileBackupSchema = z.object({
	format: z.literal(BACKUP_FORMAT),
	version: z.literal(1),
	profile: z.object({
		id: z.string().max(100),
		name: z.string().max(200),
		revision: z.number().int().positive()
	}),
	exportedAt: z.string().max(40),
	secrets: z.enum(['left_out', 'included']).meta({
		description:
			'`left_out`: secret values are the mask, and restoring keeps the secrets the profile has under the same scenario names; `included`: the values themselves.'
	}),
	document: ProfileDocumentSchema
});
export type ProfileBackup = z.infer<typeof ProfileBackupSchema>;

/** A backup of one revision's document. */
export function makeBackup(
	profile: { id: string; name: string; revision: number },
	document: ProfileDocument,
	secrets: ProfileBackup['secrets'],
	at: Date
): ProfileBackup {
	return {
		format: BACKUP_FORMAT,
		version: 1,
		profile: { id: profile.id, name: profile.name, revision: profile.revision },
		exportedAt: at.toISOString(),
		secrets,
		document
	};
}

class ReservedKey extends Error {}

/** Where `quoted` (a JSON string) first stands as a key at or after `from`; -1 if nowhere. */
function keyPlace(text: string, quoted: string, from: number): number {
	for (let at = text.indexOf(quoted, from); at >= 0; at = text.indexOf(quoted, at + 1)) {
		if (/^\s*:/.test(text.slice(at + quoted.length, at + quoted.length + 100))) return at;
	}
	return -1;
}

/** The most keys a backup's review names as left out; the rest are counted in the last. */
const LEFT_OUT_NAMED = 20;

/**
 * The keys of a backup that are no part of a profile backup (a misspelt `scenarioz`, a setting
 * of a later version): reading drops them, so each is a warning with its place, never silent.
 * Found by comparing what was read with what the schema kept, at every level.
 */
function leftOutKeys(text: string, read: unknown, kept: unknown): Issue[] {
	const found: string[][] = [];
	const walk = (raw: unknown, value: unknown, path: string[]) => {
		if (Array.isArray(raw) && Array.isArray(value)) {
			raw.forEach((item, i) => walk(item, value[i], [...path, String(i)]));
		} else if (raw && value && typeof raw === 'object' && typeof value === 'object') {
			for (const [key, item] of Object.entries(raw)) {
				if (Object.hasOwn(value, key))
					walk(item, (value as Record<string, unknown>)[key], [...path, key]);
				else found.push([...path, key]);
			}
		}
	};
	walk(read, kept, []);
	let searchFrom = 0;
	const issues = found.slice(0, LEFT_OUT_NAMED).map<Issue>((path) => {
		const name = path[path.length - 1];
		const at = keyPlace(text, JSON.stringify(name), searchFrom);
		if (at >= 0) searchFrom = at;
		const where = at >= 0 ? lineColumn(text, at) : undefined;
		return {
			code: 'backup_unknown_key',
			severity: 'warning',
			message: `${path.join('.')} is not part of a profile backup and is left out${where ? ` (line ${where.line}, column ${where.column})` : ''}.`,
			field: name,
			...(at >= 0 ? { from: at, to: at + JSON.stringify(name).length } : {})
		};
	});
	if (found.length > LEFT_OUT_NAMED) {
		issues.push({
			code: 'backup_unknown_key',
			severity: 'warning',
			message: `${found.length - LEFT_OUT_NAMED} more keys are not part of a profile backup and are left out.`
		});
	}
	return issues;
}

function invalid(message: string): Issue {
	return { code: 'backup_invalid', severity: 'error', message };
}

/**
 * Reads a backup file's text. Not JSON (with the line and column), a `__proto__` key, or a
 * document that does not validate are refused with what is wrong and where; keys that are no
 * part of a backup are warnings (they are left out).
 */
export function parseBackup(text: string): Result<ProfileBackup> {
	let data: unknown;
	try {
		data = JSON.parse(text, (key, value: unknown) => {
			if (key === '__proto__') throw new ReservedKey();
			return value;
		});
	} catch (error) {
		if (error instanceof ReservedKey) {
			const at = lineColumn(text, text.indexOf('"__proto__"'));
			return {
				ok: false,
				issues: [invalid(`The key "__proto__" is refused (line ${at.line}, column ${at.column}).`)]
			};
		}
		const message = error instanceof Error ? error.message : '';
		const position = /position (\d+)/.exec(message);
		const at = lineColumn(text, position ? Number(position[1]) : text.length);
		return {
			ok: false,
			issues: [
				invalid(`The backup is not valid JSON (line ${at.line}, column ${at.column}): ${message}`)
			]
		};
	}
	const parsed = ProfileBackupSchema.safeParse(data);
	if (parsed.success) {
		return { ok: true, value: parsed.data, issues: leftOutKeys(text, data, parsed.data) };
	}
	return {
		ok: false,
		issues: parsed.error.issues
			.slice(0, 20)
			.map((i) =>
				invalid(
					i.path.length
						? `${i.path.map(String).join('.')}: ${i.message}`
						: `Not a profile backup: ${i.message}`
				)
			)
	};
}
