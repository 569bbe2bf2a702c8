import {
	deprecatedXmlKeyNamed,
	portalKeyNamed,
	XML_FORMS,
	xmlKeyNamed,
	type XmlForm,
	type XmlFormRule
} from '../catalogue/placement';
import type { Issue, Result } from '../issues';
import type { ProfileDocument } from '../profile/schema';
import { containerPaths, SETTINGS_PATH, toStoredPath } from './forms';
import { declaredAccountKeys } from './account';
import type { XmlElement } from './element';
import { DEFAULT_XML_LIMITS, parseXml, type XmlLimits } from './parse';
import { tagEnd, type ElementSpan } from './spans';

/**
 * Reading XML into a profile's settings: either form, or a bare fragment of settings. Known
 * settings become values (strings, exactly as written); everything else is kept as written, with
 * its position, to be exported in place. Nothing is saved here: the result is reviewed first.
 */

/** Which shape the XML had. */
export type ImportForm = XmlForm | 'fragment';

/** An element kept as written, with its place (the stored form of `preservedXml`). */
export type PreservedElement = ProfileDocument['preservedXml'][number];

/** One value offered for a setting that was given more than once. */
export interface ImportCandidate {
	/** The element it came from (a deprecated spelling shows as such). */
	element: string;
	line: number;
	value: string;
}

/** A setting given with different values: the admin chooses one before applying. */
export interface ImportConflict {
	service: string;
	key: string;
	candidates: ImportCandidate[];
}

/** What an XML document holds, in the profile's terms. */
export interface ImportedXml {
	form: ImportForm;
	/** Settings by service id, then configuration key; conflicting ones are left out. */
	services: Record<string, Record<string, string>>;
	preservedXml: PreservedElement[];
	conflicts: ImportConflict[];
}

interface Occurrence extends ImportCandidate {
	service: string;
	key: string;
	/** Set for a deprecated spelling: why it is renamed. */
	note?: string;
}

/**
 * A deprecated spelling is imported under its replacement, with a warning; given beside the
 * replacement with the same value (as some providers do to be safe), one warning says both are
 * one value. Different values are a conflict, reported by {@link settle}.
 */
function warnDeprecated(walk: Walk, list: Occurrence[]): void {
	for (const old of list) {
		if (old.note === undefined) continue;
		const twin = list.find((o) => o.note === undefined && o.value === old.value);
		warn(
			walk,
			'deprecated_key_renamed',
			twin
				? `<${old.element}> (line ${old.line}) is deprecated and repeats <${twin.element}> (line ${twin.line}) with the same value: it is imported once, as ${old.key}. ${old.note}`
				: `<${old.element}> (line ${old.line}) is deprecated: it is imported as ${old.key}. ${old.note}`
		);
	}
}

interface Walk {
	source: string;
	issues: Issue[];
	occurrences: Map<string, Occurrence[]>;
	preserved: PreservedElement[];
	unknown: number;
	lineStarts?: number[];
}

/** The line an element starts on: a binary search over line starts, found once per import. */
function lineOf(walk: Walk, span: ElementSpan): number {
	if (!walk.lineStarts) {
		walk.lineStarts = [0];
		for (let i = walk.source.indexOf('\n'); i !== -1; i = walk.source.indexOf('\n', i + 1)) {
			walk.lineStarts.push(i + 1);
		}
	}
	const starts = walk.lineStarts;
	let low = 0;
	let high = starts.length - 1;
	while (low < high) {
		const mid = (low + high + 1) >> 1;
		if (starts[mid] <= span.start) low = mid;
		else high = mid - 1;
	}
	return low + 1;
}

function warn(walk: Walk, code: string, message: string, severity: Issue['severity'] = 'warning') {
	walk.issues.push({ code, severity, message });
}

function preserve(walk: Walk, span: ElementSpan, path: string, index: number): void {
	walk.preserved.push({ path, index, xml: walk.source.slice(span.start, span.end) });
}

/** Text and comments directly inside a container are not kept: say so. */
function checkGaps(walk: Walk, name: string, span: ElementSpan): void {
	const open = tagEnd(walk.source, span.start + 1);
	if (walk.source[open - 2] === '/') return;
	const close = walk.source.lastIndexOf('</', span.end - 1);
	const bounds = [open, ...span.children.flatMap((c) => [c.start, c.end]), close];
	let comments = false;
	let text = false;
	for (let i = 0; i < bounds.length; i += 2) {
		const gap = walk.source.slice(bounds[i], bounds[i + 1]);
		if (gap.includes('<!--')) comments = true;
		if (/\S/.test(gap.replace(/<!--[\s\S]*?-->|<\?[\s\S]*?\?>/g, ''))) text = true;
	}
	const where = name === '' ? 'outside the elements' : `directly inside <${name}>`;
	if (comments) warn(walk, 'xml_comment_dropped', `Comments ${where} are not kept.`, 'info');
	if (text) warn(walk, 'xml_text_dropped', `Text ${where} is not kept: only elements are.`);
}

function readSetting(
	walk: Walk,
	element: XmlElement,
	span: ElementSpan,
	path: string,
	index: number
): void {
	const line = lineOf(walk, span);
	const known = xmlKeyNamed(element.name);
	const deprecated = deprecatedXmlKeyNamed(element.name);
	const portal = portalKeyNamed(element.name);
	if (!known && !deprecated) {
		preserve(walk, span, path, index);
		if (portal) {
			warn(
				walk,
				'portal_key_in_xml',
				`<${element.name}> (line ${line}) is set in the portal, under "${portal.key.location.kind === 'portal' ? portal.key.location.step : ''}", not in this XML, so the platform does not read it here. It is kept as written and not imported.`
			);
		} else walk.unknown++;
		return;
	}
	if (element.children.length > 0 || Object.keys(element.attributes).length > 0) {
		preserve(walk, span, path, index);
		warn(
			walk,
			'setting_not_read',
			`<${element.name}> (line ${line}) has attributes or child elements, so it is not read as a setting; it is kept as written.`
		);
		return;
	}
	const service = (known ?? deprecated)!.service.id;
	const key = known ? known.key.key : deprecated!.deprecated.replacement;
	const id = `${service}\u0000${key}`;
	const list = walk.occurrences.get(id) ?? [];
	const note = deprecated?.deprecated.note;
	list.push({ service, key, element: element.name, line, value: element.text, note });
	walk.occurrences.set(id, list);
}

/** Reads a container's children: settings (at the settings path), the next container, the rest kept. */
function readContainer(
	walk: Walk,
	element: XmlElement,
	span: ElementSpan,
	rule: XmlFormRule | null,
	depth: number
): void {
	const paths = rule ? containerPaths(rule) : [];
	const formPath = rule ? paths[depth] : null;
	const stored = formPath === null ? SETTINGS_PATH : toStoredPath(formPath, rule!)!;
	const atSettings = rule === null || depth === paths.length - 1;
	const nextName = atSettings ? null : paths[depth + 1].split('/').pop();
	if (rule && Object.keys(element.attributes).length > 0) {
		warn(walk, 'xml_attribute_dropped', `The attributes of <${element.name}> are not kept.`);
	}
	checkGaps(walk, rule ? element.name : '', span);
	let descended = false;
	element.children.forEach((child, index) => {
		const childSpan = span.children[index];
		if (atSettings) return readSetting(walk, child, childSpan, stored, index);
		if (child.name === nextName && !descended) {
			descended = true;
			return readContainer(walk, child, childSpan, rule, depth + 1);
		}
		preserve(walk, childSpan, stored, index);
		const misplaced = xmlKeyNamed(child.name) ?? deprecatedXmlKeyNamed(child.name);
		if (misplaced) {
			warn(
				walk,
				'setting_misplaced',
				`<${child.name}> (line ${lineOf(walk, childSpan)}) is not where the platform reads settings (${rule!.settingsPath}); it is kept as written and not imported.`
			);
		} else walk.unknown++;
	});
}

/** Settings given once (or always with the same value) become values; the others conflicts. */
function settle(walk: Walk): Pick<ImportedXml, 'services' | 'conflicts'> {
	const services: Record<string, Record<string, string>> = {};
	const conflicts: ImportConflict[] = [];
	for (const list of walk.occurrences.values()) {
		const { service, key } = list[0];
		warnDeprecated(walk, list);
		const given = list.filter((o) => o.value !== '');
		const distinct = given.filter((o, i) => given.findIndex((g) => g.value === o.value) === i);
		if (distinct.length === 0) {
			warn(walk, 'setting_empty', `<${list[0].element}> is empty: ${key} is left unset.`, 'info');
		} else if (distinct.length === 1) {
			(services[service] ??= {})[key] = distinct[0].value;
		} else {
			const where = distinct.map((c) => `<${c.element}> on line ${c.line}`).join(', ');
			warn(
				walk,
				'setting_conflict',
				`${key} is given ${distinct.length} different values (${where}): choose one.`
			);
			conflicts.push({
				service,
				key,
				candidates: distinct.map(({ element, line, value }) => ({ element, line, value }))
			});
		}
	}
	return { services, conflicts };
}

/**
 * More than one element at the top is read only as a bare list of settings: when none of them is
 * a name the catalogue knows, it is a document with a second root element, which XML refuses.
 */
function unnamedList(
	top: XmlElement,
	span: ElementSpan,
	place: (offset: number) => { line: number; column: number }
): Issue | null {
	if (top.children.length < 2) return null;
	const known = (name: string) =>
		xmlKeyNamed(name) ?? deprecatedXmlKeyNamed(name) ?? portalKeyNamed(name);
	if (top.children.some((child) => known(child.name))) return null;
	const { line, column } = place(span.children[1].start);
	return {
		code: 'xml_invalid',
		severity: 'error',
		message: `Not well-formed XML: there is content after the root element, and none of the elements is a setting this product knows, so it is not a list of settings either (line ${line}, column ${column})`
	};
}

/**
 * Reads XML (the additional provisioning XML, an `<account>` document, or a bare fragment of
 * settings). Fails only when the XML cannot be read (not well-formed, DOCTYPE, too deep, too
 * large, reserved names), with line and column; every other problem is an issue of the result.
 */
export function importXml(
	text: string,
	limits: XmlLimits = DEFAULT_XML_LIMITS
): Result<ImportedXml> {
	const parsed = parseXml(text, limits, { fragment: true });
	if (!parsed.ok) return { ok: false, issues: [parsed.issue] };
	const notAList = unnamedList(parsed.root, parsed.span, parsed.place);
	if (notAList) return { ok: false, issues: [notAList] };
	const walk: Walk = {
		source: parsed.source,
		issues: [],
		occurrences: new Map(),
		preserved: [],
		unknown: 0
	};
	const top = parsed.root;
	const topSpan = parsed.span;
	const only = top.children.length === 1 ? top.children[0] : null;
	const rule = only ? Object.values(XML_FORMS).find((r) => r.root === only.name) : undefined;
	if (only && rule) {
		checkGaps(walk, '', topSpan);
		readContainer(walk, only, topSpan.children[0], rule, 0);
	} else {
		readContainer(walk, top, topSpan, null, 0);
	}
	const { services, conflicts } = settle(walk);
	// One order for the same content, whatever the traversal: containers outermost first.
	const depth = (path: string) => path.split('/').length;
	walk.preserved.sort((a, b) => depth(a.path) - depth(b.path) || a.index - b.index);
	const declared = declaredAccountKeys(walk.preserved);
	if (declared.length > 0) {
		walk.unknown -= declared.length;
		const secrets = declared.filter((d) => d.secret).map((d) => `<${d.name}>`);
		warn(
			walk,
			'xml_account_values',
			`${declared.length === 1 ? 'One account value' : `${declared.length} account values`} (${declared.map((d) => `<${d.name}>`).join(', ')}) ${declared.length === 1 ? 'is' : 'are'} kept as written; templates can use them as %account[name]% and the preview fills them in.${secrets.length ? ` ${secrets.join(', ')} ${secrets.length > 1 ? 'are credentials' : 'is a credential'}: stored as a secret, never shown, exported only with secrets.` : ''}`,
			'info'
		);
	}
	if (walk.unknown > 0) {
		warn(
			walk,
			'xml_unknown_kept',
			walk.unknown === 1
				? 'One element this product does not know is kept as written and exported at the same place.'
				: `${walk.unknown} elements this product does not know are kept as written and exported at the same place.`,
			'info'
		);
	}
	if (Object.keys(services).length === 0 && conflicts.length === 0) {
		warn(walk, 'xml_no_settings', 'No setting this product knows was found in the XML.');
	}
	return {
		ok: true,
		value: {
			form: rule ? rule.form : 'fragment',
			services,
			preservedXml: walk.preserved,
			conflicts
		},
		issues: walk.issues
	};
}
