import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from '$lib/core/zod';
import type { Issue } from '$lib/core/issues';
import {
	makeBackup,
	newDocument,
	type FieldChange,
	type MergeConflict,
	type ProfileBackup as CoreBackup
} from '$lib/core/profile';
import { importXml, type ImportConflict } from '$lib/core/xml';
import { preview } from '$lib/server/profiles/preview';
import type { ProfileRow, RevisionRow } from '$lib/server/store/types';
import {
	FieldChangeSchema,
	ImportConflictSchema,
	IssueSchema,
	MergeConflictSchema,
	PreviewSchema,
	ProfileBackup,
	ProfileListItemSchema,
	RevisionSummarySchema,
	XmlImportReviewSchema
} from './profiles';

/**
 * The answer schemas are the shapes the server sends: the types the core and the store build
 * answers from are the schemas' types exactly (a field added on one side fails the type check),
 * and answers built by the server's own code pass through the schemas unchanged.
 */

describe('the profile answers', () => {
	it('have the types of what the core and the store make', () => {
		expectTypeOf<z.infer<typeof ProfileListItemSchema>>().toEqualTypeOf<ProfileRow>();
		expectTypeOf<z.infer<typeof RevisionSummarySchema>>().toEqualTypeOf<
			Omit<RevisionRow, 'document' | 'secrets'>
		>();
		expectTypeOf<z.infer<typeof FieldChangeSchema>>().toEqualTypeOf<FieldChange>();
		expectTypeOf<z.infer<typeof MergeConflictSchema>>().toEqualTypeOf<MergeConflict>();
		expectTypeOf<z.infer<typeof ImportConflictSchema>>().toEqualTypeOf<ImportConflict>();
		expectTypeOf<z.infer<typeof IssueSchema>>().toEqualTypeOf<Issue>();
		expectTypeOf<z.infer<typeof ProfileBackup>>().toEqualTypeOf<CoreBackup>();
		expect(true).toBe(true);
	});

	it('describe a preview exactly', () => {
		const answer = preview({
			service: 'sendMessage',
			settings: {
				genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%&x=%smart%',
				genericSmsSendPostData: '{"to":"%sms_to%"}',
				genericSmsSendContentType: 'application/json'
			},
			values: { sms_to: ['+14155550123', '+447700900123'] },
			rawSubstitution: false
		});
		expect(answer.requests).toHaveLength(2);
		expect(answer.issues.length).toBeGreaterThan(0);
		expect(PreviewSchema.parse(answer)).toEqual(answer);
	});

	it('describe a backup and an XML review exactly', () => {
		const backup = makeBackup(
			{ id: 'p1', name: 'Acme', revision: 3 },
			newDocument(),
			'left_out',
			new Date(0)
		);
		expect(ProfileBackup.parse(backup)).toEqual(backup);
		const imported = importXml(
			'<account>\n\t<genericSmsSendUrl>https://a.example/</genericSmsSendUrl>\n\t<genericSmsSendUrl>https://b.example/</genericSmsSendUrl>\n\t<codec>opus</codec>\n</account>'
		);
		if (!imported.ok) throw new Error('The XML was refused.');
		const review = { ...imported.value, issues: imported.issues };
		expect(review.conflicts).toHaveLength(1);
		expect(XmlImportReviewSchema.parse(review)).toEqual(review);
	});
});
