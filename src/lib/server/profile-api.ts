import { json } from '@sveltejs/kit';
import { z } from 'zod';
import { ProfileDocumentSchema } from '$lib/core/profile';
import { apiError } from './http';
import type { SaveOutcome } from './profiles';

/** Request bodies of the profile endpoints, and how save outcomes are answered. */

/** A profile name. */
export const ProfileNameSchema = z.string().trim().min(1).max(200);

/** POST /api/profiles */
export const CreateProfileSchema = z.object({
	name: ProfileNameSchema,
	document: ProfileDocumentSchema.optional(),
	duplicateOf: z.string().uuid().optional(),
	message: z.string().max(500).optional()
});

/** PUT /api/profiles/:id */
export const SaveProfileSchema = z.object({
	baseRevision: z.number().int().positive(),
	document: ProfileDocumentSchema,
	message: z.string().max(500).optional()
});

/** PATCH /api/profiles/:id */
export const PatchProfileSchema = z
	.object({ name: ProfileNameSchema.optional(), deleted: z.literal(false).optional() })
	.refine((v) => v.name !== undefined || v.deleted !== undefined, {
		message: 'Send a new name, or deleted: false to restore a deleted profile.'
	});

/** 200 with the profile, 404, or 409 with both versions. */
export function saveResponse(outcome: SaveOutcome): Response {
	if (outcome.ok) return json({ profile: outcome.profile });
	if (outcome.reason === 'not_found') return apiError(404, 'not_found', 'No such profile.');
	return apiError(
		409,
		'conflict',
		`Someone saved revision ${outcome.conflict.current.revision} first; nothing was overwritten.`,
		outcome.conflict
	);
}
