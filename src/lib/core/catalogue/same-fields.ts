/**
 * Portal fields that two catalogue entries name: the contract's External provisioning on SSO
 * falls back to "the initial provisioning URL", which is the portal's one Initial provisioning
 * URL field (`InitialProvisioningUrl`), spelt in the contract's entry with a lower-case initial.
 * Kept as data, apart from the services, so that the editor's first page can read it alone.
 */

/** One key naming the field: its service and the key as that entry spells it. */
export interface FieldName {
	service: string;
	serviceTitle: string;
	key: string;
}

/** One portal field named by more than one entry; the first name is the portal's own. */
export interface SamePortalField {
	names: readonly [FieldName, ...FieldName[]];
	/** What each entry does with the field, said beside its first name. */
	uses: string;
}

export const SAME_PORTAL_FIELDS: readonly SamePortalField[] = [
	{
		names: [
			{
				service: 'initialProvisioning',
				serviceTitle: 'Initial provisioning',
				key: 'InitialProvisioningUrl'
			},
			{
				service: 'extSSOProv',
				serviceTitle: 'External provisioning on SSO',
				key: 'initialProvisioningUrl'
			}
		],
		uses: 'The app calls it from the sign-in screen; External provisioning on SSO calls this same field when neither extSSOProvUrl nor the reprovisioning URL is set.'
	}
];

/** The field a service's key names along with other entries, and those other names; or null. */
export function samePortalField(
	service: string,
	key: string
): { field: SamePortalField; others: FieldName[] } | null {
	for (const field of SAME_PORTAL_FIELDS) {
		if (field.names.some((n) => n.service === service && n.key === key)) {
			const others = field.names.filter((n) => n.service !== service || n.key !== key);
			return { field, others };
		}
	}
	return null;
}
