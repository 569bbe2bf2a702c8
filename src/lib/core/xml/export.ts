import {
	DEPRECATED_XML_KEYS,
	XML_FORMS,
	XML_KEYS,
	type XmlForm,
	type XmlFormRule
} from '../catalogue/placement';
import { append, type Issue, type Result } from '../issues';
import { elementTag } from '../catalogue/labels';
import type { ProfileDocument } from '../profile/schema';
import { isSecretSetting } from '../profile/secret-keys';
import { SECRET_MASK } from '../profile/secrets';
import { credentialElementName, maskedCredential } from './account';
import { xmlCharIssues } from './chars';
import { containerPaths, toFormPath } from './forms';
import { parseXml } from './parse';

/**
 * A profile's XML settings as the additional provisioning XML (`provisioning/account/core`) or
 * as an `<account>` document. Element names come only from the catalogue and from preserved
 * elements, which are written back exactly as they were imported, at their old positions.
 */

/** One setting to write: its element name and text. */
export interface XmlSetting {
	service: string;
	key: string;
	value: string;
}

const INDENT = '\t';

/** Escapes element text: `&`, `<`, `>` (so `]]>` is harmless) and CR, which parsers turn into LF. */
export function escapeXmlText(text: string): string {
	return text.replace(/[&<>\r]/g, (c) =>
		c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'
	);
}

/**
 * The settings the XML carries, in catalogue order. A deprecated key (`genericSmsPostData`) is
 * written under its replacement when that is empty, as the caller reads it; else it is left out.
 */
export function xmlSettings(document: ProfileDocument): {
	settings: XmlSetting[];
	issues: Issue[];
} {
	const issues: Issue[] = [];
	const settings: XmlSetting[] = [];
	const value = (service: string, key: string): string => {
		const all = document.services as Record<string, Record<string, string> | undefined>;
		const own = all[service];
		return own && Object.hasOwn(own, key) ? own[key] : '';
	};
	for (const { service, key } of XML_KEYS) {
		let text = value(service.id, key.key);
		for (const { deprecated } of DEPRECATED_XML_KEYS.filter(
			(d) => d.service === service && d.deprecated.replacement === key.key
		)) {
			const old = value(service.id, deprecated.key);
			if (old === '') continue;
			issues.push({
				code: 'deprecated_key',
				severity: 'warning',
				message:
					text === ''
						? `${deprecated.key} is written as ${key.key}. ${deprecated.note}`
						: `${deprecated.key} is left out: ${key.key} is set. ${deprecated.note}`,
				field: deprecated.key
			});
			if (text === '') text = old;
		}
		if (text === '') continue;
		append(issues, xmlCharIssues(text, key.key));
		settings.push({ service: service.id, key: key.key, value: text });
	}
	return { settings, issues };
}

/** A preserved element is written back only if it is still exactly one well-formed element. */
function checkPreserved(xml: string, path: string, index: number): Issue | null {
	const parsed = /^<[^!?/]/.test(xml) ? parseXml(xml) : null;
	if (parsed?.ok) return null;
	const tag = elementTag(xml);
	return {
		code: 'xml_preserved_invalid',
		severity: 'error',
		message: `The kept ${tag ? `element <${tag}>` : 'XML'} in ${path} (number ${index + 1} there) is not one well-formed element${parsed ? `: ${parsed.issue.message}` : ''}.`
	};
}

interface Child {
	/** The element's lines, not yet indented; a line may hold line breaks of a value. */
	lines: string[];
}

function element(name: string, children: Child[]): string[] {
	if (children.length === 0) return [`<${name}/>`];
	return [
		`<${name}>`,
		...children.flatMap((c) => c.lines.map((line) => INDENT + line)),
		`</${name}>`
	];
}

/** Export options: kept credential elements are written only when `credentials` is `include`. */
export interface ExportOptions {
	credentials?: 'include' | 'leave_out';
}

/**
 * Writes the profile's XML settings and preserved elements as `form`. Fails with the issues when
 * a setting holds a character XML 1.0 cannot carry or a preserved element is not well-formed;
 * preserved elements the form has no place for are left out with a warning, and so are kept
 * credentials (`<password>`) unless they are included (a masked one is never written).
 */
export function exportXml(
	document: ProfileDocument,
	form: XmlForm,
	options: ExportOptions = {}
): Result<string> {
	const rule: XmlFormRule = XML_FORMS[form];
	const { settings: all, issues } = xmlSettings(document);
	const paths = containerPaths(rule);
	const preserved = new Map<string, { index: number; xml: string }[]>();
	let omitted = 0;
	const credentials: string[] = [];
	// A secret setting (a Digest password) goes out as a kept credential does.
	const settings = all.filter((s) => {
		if (!isSecretSetting(s.service, s.key)) return true;
		if (options.credentials === 'include' && s.value !== SECRET_MASK) return true;
		credentials.push(s.key);
		return false;
	});
	for (const item of document.preservedXml) {
		const path = toFormPath(item.path, rule);
		if (path === null) {
			omitted++;
			continue;
		}
		const credential = credentialElementName(item.xml);
		if (
			credential !== null &&
			(options.credentials !== 'include' || item.xml === maskedCredential(credential, SECRET_MASK))
		) {
			credentials.push(credential);
			continue;
		}
		const problem = checkPreserved(item.xml, item.path, item.index);
		if (problem) issues.push(problem);
		const list = preserved.get(path) ?? [];
		list.push({ index: item.index, xml: item.xml });
		preserved.set(path, list);
	}
	if (omitted > 0) {
		issues.push({
			code: 'xml_preserved_omitted',
			severity: 'warning',
			message: `${omitted === 1 ? 'One kept element' : `${omitted} kept elements`} outside ${XML_FORMS.provisioning.settingsPath} ${omitted === 1 ? 'has' : 'have'} no place in the ${rule.label.toLowerCase()} and ${omitted === 1 ? 'is' : 'are'} left out.`
		});
	}
	if (credentials.length > 0) {
		const listed = [...new Set(credentials)].map((n) => `<${n}>`).join(', ');
		const count =
			credentials.length === 1
				? 'One credential element'
				: `${credentials.length} credential elements`;
		issues.push({
			code: 'xml_credentials_left_out',
			severity: 'warning',
			message:
				options.credentials === 'include'
					? `${count} (${listed}) ${credentials.length === 1 ? 'has' : 'have'} no stored value and ${credentials.length === 1 ? 'is' : 'are'} left out.`
					: `${count} (${listed}) ${credentials.length === 1 ? 'is' : 'are'} left out: ${credentials.length === 1 ? 'it is a secret' : 'they are secrets'}. Export with secrets to include them.`
		});
	}
	if (issues.some((i) => i.severity === 'error')) return { ok: false, issues };

	// Rendering and indentation do not change element text: line breaks inside values and inside
	// preserved elements are kept as they are (only element lines are indented).
	const render = (depth: number): Child => {
		const path = paths[depth];
		const name = path.split('/').pop()!;
		const children: Child[] =
			depth === paths.length - 1
				? settings.map((s) => ({ lines: [`<${s.key}>${escapeXmlText(s.value)}</${s.key}>`] }))
				: [render(depth + 1)];
		const kept = (preserved.get(path) ?? []).sort((a, b) => a.index - b.index);
		for (const item of kept) {
			children.splice(Math.min(item.index, children.length), 0, { lines: [item.xml] });
		}
		return { lines: element(name, children) };
	};
	const xml = ['<?xml version="1.0" encoding="UTF-8"?>', ...render(0).lines, ''].join('\n');
	return { ok: true, value: xml, issues };
}
