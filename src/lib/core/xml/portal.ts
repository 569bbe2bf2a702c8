import { PORTAL_KEYS } from '../catalogue/placement';
import { samePortalField, type FieldName } from '../catalogue/same-fields';
import type { ProfileDocument } from '../profile/schema';

/**
 * The portal field sheet: the settings an admin types into the portal rather than the XML, each
 * with the portal step it goes in, its value, and the service it belongs to.
 */

/** One portal field. */
export interface PortalField {
	service: string;
	serviceTitle: string;
	key: string;
	label: string;
	/** Where it goes in the portal (the form step). */
	step: string;
	description: string;
	/** The profile's value; empty when unset. */
	value: string;
	/** Other entries' names for this same portal field (listed once, under its own name). */
	alsoNamed: FieldName[];
	/** Why the sheet cannot give one value: another name of the field holds a different one. */
	differs: string | null;
}

/** The portal fields of a profile, in catalogue order; a field two entries name is listed once. */
export function portalSheet(document: ProfileDocument): PortalField[] {
	const services = document.services as Record<string, Record<string, string> | undefined>;
	const valueOf = (service: string, key: string) => {
		const own = services[service];
		return own && Object.hasOwn(own, key) ? own[key] : '';
	};
	return PORTAL_KEYS.flatMap(({ service, key }) => {
		const same = samePortalField(service.id, key.key);
		// Another entry's name for the field is listed under the field's own (first) name.
		if (same && same.field.names[0].key !== key.key) return [];
		const own = valueOf(service.id, key.key);
		const others = (same?.others ?? []).map((n) => ({ name: n, value: valueOf(n.service, n.key) }));
		const value = own || (others.find((o) => o.value !== '')?.value ?? '');
		const other = others.find((o) => o.value !== '' && o.value !== value);
		return [
			{
				service: service.id,
				serviceTitle: service.title,
				key: key.key,
				label: key.label,
				step: key.location.kind === 'portal' ? key.location.step : '',
				description: same ? `${key.description} ${same.field.uses}` : key.description,
				value,
				alsoNamed: same?.others ?? [],
				differs: other
					? `The profile holds another value for this one portal field: ${other.name.key} of ${other.name.serviceTitle} is “${other.value}”. The portal keeps one: make them the same.`
					: null
			}
		];
	});
}

/** A fenced code block that no run of backticks in `text` can close early. */
function fenced(text: string): string {
	const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
	const fence = '`'.repeat(Math.max(3, longest + 1));
	return `${fence}text\n${text}\n${fence}`;
}

/** Markdown text, with characters that Markdown reads as formatting escaped. */
function plain(text: string): string {
	return text.replace(/[\\`*_{}[\]<>#|]/g, (c) => `\\${c}`);
}

/**
 * The sheet as Markdown: one section per portal step, one entry per field with its value in a
 * code block (any text, backticks included, comes through unchanged).
 */
export function portalSheetMarkdown(name: string, revision: number, fields: PortalField[]): string {
	const lines = [
		`# Portal fields of ${plain(name)} (revision ${revision})`,
		'',
		'These settings are typed into the portal, not into the additional provisioning XML.'
	];
	const steps = [...new Set(fields.map((f) => f.step))];
	for (const step of steps) {
		lines.push('', `## ${plain(step)}`);
		for (const field of fields.filter((f) => f.step === step)) {
			const also = field.alsoNamed.map((n) => `; also \`${n.key}\` of ${plain(n.serviceTitle)}`);
			lines.push(
				'',
				`### ${plain(field.serviceTitle)}: ${plain(field.label)} (\`${field.key}\`${also.join('')})`
			);
			lines.push('', plain(field.description), '');
			if (field.differs) lines.push(`**${plain(field.differs)}**`, '');
			lines.push(field.value === '' ? '_Not set._' : fenced(field.value));
		}
	}
	return lines.join('\n') + '\n';
}
