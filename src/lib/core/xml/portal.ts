import { PORTAL_KEYS } from '../catalogue/placement';
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
}

/** The portal fields of a profile, in catalogue order. */
export function portalSheet(document: ProfileDocument): PortalField[] {
	const services = document.services as Record<string, Record<string, string> | undefined>;
	return PORTAL_KEYS.map(({ service, key }) => {
		const own = services[service.id];
		return {
			service: service.id,
			serviceTitle: service.title,
			key: key.key,
			label: key.label,
			step: key.location.kind === 'portal' ? key.location.step : '',
			description: key.description,
			value: own && Object.hasOwn(own, key.key) ? own[key.key] : ''
		};
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
			lines.push('', `### ${plain(field.serviceTitle)}: ${plain(field.label)} (\`${field.key}\`)`);
			lines.push('', plain(field.description), '');
			lines.push(field.value === '' ? '_Not set._' : fenced(field.value));
		}
	}
	return lines.join('\n') + '\n';
}
