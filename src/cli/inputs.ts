import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
	DEPRECATED_XML_KEYS,
	elementTag,
	PORTAL_KEYS,
	SCENARIO_PRESETS,
	SERVICES,
	vocabularyOf,
	XML_KEYS
} from '$lib/core/catalogue';
import { FLOWS } from '$lib/core/catalogue/flows';
import { GALLERY, type GalleryTemplate } from '$lib/core/catalogue/gallery';
import { lineColumn, type Issue } from '$lib/core/issues';
import {
	BACKUP_FORMAT,
	emptyDocument,
	parseBackup,
	ProfileDocumentSchema,
	type ProfileDocument,
	type Scenario
} from '$lib/core/profile';
import { interpretResponse } from '$lib/core/response';
import {
	applyImport,
	conflictId,
	decodeXmlBytes,
	declaredAccountKeys,
	escapeXmlText,
	exportXml,
	importXml
} from '$lib/core/xml';
import { SETTINGS_PATH } from '$lib/core/xml/forms';
import { jsonLocator, jsonPlace, xmlLocator, type Locator } from './locate';
import type { FileResult, Finding, Place } from './model';

/**
 * Reading the inputs of `check`: the additional provisioning XML (either form, or a fragment),
 * a JSON backup, or a directory of them, through the same import and backup reading as the
 * app; and the scenarios each is rendered with.
 */

/** A profile read from one file. */
export interface LoadedProfile {
	file: string;
	kind: Exclude<FileResult['kind'], null>;
	document: ProfileDocument;
	/** The scenarios to render with, and where they came from. */
	scenarios: Scenario[];
	scenarioSource: string;
	/** What reading the file found (import notes, unknown keys). */
	findings: Finding[];
	locate: Locator;
}

/** An input that cannot be read at all: exit code 3 (a missing scenario file, no profiles, …). */
export class InputError extends Error {
	constructor(
		readonly file: string,
		message: string,
		readonly place?: Place
	) {
		super(message);
	}
}

/** The scenario file next to an XML file: `acme.xml` → `acme.scenarios.json`. */
export function scenarioFileFor(file: string): string {
	const parsed = path.parse(file);
	return path.join(parsed.dir, `${parsed.name}.scenarios.json`);
}

const SCENARIO_FILE_SUFFIX = '.scenarios.json';

/**
 * A scenario file: `{ "scenarios": [{ "name": …, "values": { "sms_body": … } }] }`, read by the
 * profile document's own rules for scenarios (unique names, secrets as text).
 */
const ScenarioFileSchema = z.object({
	scenarios: ProfileDocumentSchema.shape.scenarios.refine((list) => list.length > 0, {
		message: 'give at least one scenario'
	})
});

/** Where a message of the core places itself: `(line 3, column 7)`. */
export function placeIn(message: string): Place | undefined {
	const full = /line (\d+), column (\d+)/.exec(message);
	if (full) return { line: Number(full[1]), column: Number(full[2]) };
	const line = /line (\d+)/.exec(message);
	return line ? { line: Number(line[1]), column: 1 } : undefined;
}

function readText(file: string): string {
	try {
		return readFileSync(file, 'utf8');
	} catch (error) {
		throw new InputError(file, cannotRead(error));
	}
}

function cannotRead(error: unknown): string {
	const code = (error as NodeJS.ErrnoException).code;
	if (code === 'ENOENT') return 'No such file or directory.';
	if (code === 'EACCES') return 'Permission denied.';
	if (code === 'EISDIR')
		return 'Is a directory, not a file (only check reads directories of profiles).';
	return error instanceof Error ? error.message : String(error);
}

/** Reads a scenario file; a missing or invalid one is an {@link InputError}. */
export function readScenarioFile(file: string): Scenario[] {
	const text = readText(file);
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (error) {
		const message = error instanceof Error ? error.message : '';
		const position = /position (\d+)/.exec(message);
		const at = lineColumn(text, position ? Number(position[1]) : text.length);
		throw new InputError(file, `The scenario file is not valid JSON: ${message}`, at);
	}
	const shape = `Expected {"scenarios": [{"name": "…", "values": {"sms_body": "…"}}]}.`;
	// A key the file does not have a use for is refused, not dropped: a misspelt "values" would
	// otherwise render the samples without a word.
	for (const { path: at, key, known } of unknownScenarioKeys(data)) {
		throw new InputError(
			file,
			`Not a scenario file (${[...at, key].map(String).join('.')}: unknown key "${key}"; ${known.length > 1 ? `the keys are ${known.map((k) => `"${k}"`).join(' and ')}` : `the only key is "${known[0]}"`}). ${shape}`,
			jsonPlace(text, [...at, key])
		);
	}
	const parsed = ScenarioFileSchema.safeParse(data);
	if (!parsed.success) {
		const first = parsed.error.issues[0];
		const where = first.path.length ? `${first.path.map(String).join('.')}: ` : '';
		// A value's union says only "Invalid input": say what a value may be.
		const what =
			first.path.length === 4 && first.path[2] === 'values' && first.code === 'invalid_union'
				? 'a value is text, a list of texts (one request per sms_to), or a list of {"username", "device"} (interestedParties)'
				: first.message;
		throw new InputError(
			file,
			`Not a scenario file (${where}${what}). ${shape}`,
			jsonPlace(text, first.path)
		);
	}
	return parsed.data.scenarios;
}

/** Keys of a scenario file's objects that are not its keys (`scenarios`; `name`, `values`). */
function unknownScenarioKeys(
	data: unknown
): { path: (string | number)[]; key: string; known: string[] }[] {
	const isObject = (v: unknown): v is Record<string, unknown> =>
		typeof v === 'object' && v !== null && !Array.isArray(v);
	if (!isObject(data)) return [];
	const found: { path: (string | number)[]; key: string; known: string[] }[] = [];
	for (const key of Object.keys(data)) {
		if (key !== 'scenarios') found.push({ path: [], key, known: ['scenarios'] });
	}
	if (Array.isArray(data.scenarios)) {
		data.scenarios.forEach((scenario: unknown, index) => {
			if (!isObject(scenario)) return;
			for (const key of Object.keys(scenario)) {
				if (key !== 'name' && key !== 'values') {
					found.push({ path: ['scenarios', index], key, known: ['name', 'values'] });
				}
			}
		});
	}
	return found;
}

const KNOWN_NAMES = [
	...XML_KEYS.map((p) => p.key.key),
	...DEPRECATED_XML_KEYS.map((d) => d.deprecated.key),
	...PORTAL_KEYS.map((p) => p.key.key)
];

/** Edit distance with transpositions, stopping early past `limit`. */
function distance(a: string, b: string, limit: number): number {
	if (Math.abs(a.length - b.length) > limit) return limit + 1;
	const rows: number[][] = [];
	for (let i = 0; i <= a.length; i++) {
		rows.push([i]);
		for (let j = 1; j <= b.length; j++) {
			if (i === 0) {
				rows[0][j] = j;
				continue;
			}
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
				best = Math.min(best, rows[i - 2][j - 2] + 1);
			}
			rows[i][j] = best;
		}
	}
	return rows[a.length][b.length];
}

/** The setting an unknown element name was most likely meant to be (a typo or wrong case). */
export function nearestKey(name: string): string | undefined {
	if (name.length < 6) return undefined;
	// Two keys may differ only in case (InitialProvisioningUrl, initialProvisioningUrl): a name
	// the catalogue knows as written is that key, never a misspelling of the other.
	if (KNOWN_NAMES.includes(name)) return name;
	let best: { key: string; d: number } | undefined;
	for (const key of KNOWN_NAMES) {
		const d = key.toLowerCase() === name.toLowerCase() ? 0 : distance(name, key, 2);
		if (d <= 2 && (!best || d < best.d)) best = { key, d };
	}
	return best?.key;
}

function fromIssue(file: string, issue: Issue): Finding {
	return {
		file,
		severity: issue.severity,
		code: issue.code,
		message: issue.message,
		place: placeIn(issue.message),
		key: issue.field
	};
}

/**
 * Elements of the settings element that are no setting are the profile's own account values
 * (`<apiUser>`): a name one typo away from a setting is almost surely a misspelt setting, which
 * the platform would ignore.
 */
function misspeltKeys(file: string, text: string, document: ProfileDocument): Finding[] {
	const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
	const findings: Finding[] = [];
	let from = 0;
	for (const kept of document.preservedXml) {
		const at = normalised.indexOf(kept.xml, from);
		if (at !== -1) from = at + kept.xml.length;
		if (kept.path !== SETTINGS_PATH) continue;
		const name = elementTag(kept.xml);
		const meant = name ? nearestKey(name) : undefined;
		if (!name || !meant || meant === name) continue;
		findings.push({
			file,
			severity: 'error',
			code: 'unknown_key',
			message: `<${name}> is not a setting the platform knows: did you mean <${meant}>? As written it is only an account value (%account[${name}]%): the platform does not read it as a setting.`,
			key: name,
			place: at === -1 ? undefined : lineColumn(normalised, at)
		});
	}
	return findings;
}

function loadXml(file: string, bytes: Uint8Array): LoadedProfile {
	const decoded = decodeXmlBytes(bytes);
	if (!decoded.ok) {
		throw new InputError(file, decoded.issue.message, placeIn(decoded.issue.message));
	}
	return loadXmlText(file, decoded.text);
}

function loadXmlText(file: string, text: string): LoadedProfile {
	const imported = importXml(text);
	if (!imported.ok) {
		const issue = imported.issues[0];
		throw new InputError(file, issue.message, placeIn(issue.message));
	}
	const choices = Object.fromEntries(imported.value.conflicts.map((c) => [conflictId(c), 0]));
	const applied = applyImport(emptyDocument(), imported.value, choices);
	if (!applied.ok) throw new InputError(file, applied.issues.map((i) => i.message).join(' '));
	const findings = imported.issues.map((issue) => fromIssue(file, issue));
	// A conflict is read with its first value: the platform's choice is not the contract's to say.
	for (const finding of findings) {
		if (finding.code === 'setting_conflict') finding.severity = 'error';
	}
	findings.push(...misspeltKeys(file, text, applied.value));
	return {
		file,
		kind: imported.value.form,
		document: applied.value,
		scenarios: [],
		scenarioSource: '',
		findings,
		locate: xmlLocator(text)
	};
}

function loadBackup(file: string, text: string): LoadedProfile {
	const backup = parseBackup(text);
	if (!backup.ok) {
		const message = backup.issues.map((i) => i.message).join(' ');
		throw new InputError(file, message, placeIn(message) ?? backupIssuePlace(text, message));
	}
	const findings = backup.issues.map((issue) => fromIssue(file, issue));
	return {
		file,
		kind: 'backup',
		document: backup.value.document,
		scenarios: backup.value.document.scenarios,
		scenarioSource: 'the backup',
		findings,
		locate: jsonLocator(text)
	};
}

/**
 * Where in a backup's JSON the first of the core's schema issues is: they begin with the path
 * (`document.services: Unrecognized key: "sendSms"`), a key it does not know is placed on that key.
 */
function backupIssuePlace(text: string, message: string): Place | undefined {
	const match = /^([^\s:]+): (?:Unrecognized keys?: "([^"]+)")?/.exec(message);
	if (!match) return undefined;
	const path: (string | number)[] = match[1]
		.split('.')
		.map((step) => (/^\d+$/.test(step) ? Number(step) : step));
	if (match[2]) path.push(match[2]);
	return jsonPlace(text, path);
}

/**
 * Values of a scenario file named by no placeholder this profile's templates could use (a
 * service's, a flow's, or the profile's own account values): a warning on the name in the file,
 * with the name meant when one is a typo away. Such a value is never sent.
 */
function unknownValueNames(loaded: LoadedProfile, scenarioFile: string): Finding[] {
	const declared = declaredAccountKeys(loaded.document.preservedXml);
	const known = new Set<string>([
		...SERVICES.filter((s) => s.kind === 'template').flatMap((service) =>
			vocabularyOf(service, declared).entries.map((e) => e.key)
		),
		...Object.values(FLOWS).flatMap((flow) => flow.inputs.map((i) => i.name))
	]);
	let text: string | undefined;
	const findings: Finding[] = [];
	loaded.scenarios.forEach((scenario, index) => {
		for (const name of Object.keys(scenario.values)) {
			if (known.has(name)) continue;
			let meant: string | undefined;
			let closest = 3;
			for (const candidate of known) {
				const d = distance(name, candidate, 2);
				if (d < closest) [meant, closest] = [candidate, d];
			}
			text ??= readText(scenarioFile);
			findings.push({
				file: scenarioFile,
				severity: 'warning',
				code: 'unknown_scenario_value',
				message: `"${name}" in scenario "${scenario.name}" is no placeholder of this profile's templates or flows, so it is never sent.${meant ? ` Did you mean "${meant}"?` : ''}`,
				key: name,
				scenarios: [scenario.name],
				place: jsonPlace(text, ['scenarios', index, 'values', name])
			});
		}
	});
	return findings;
}

/** The gallery's templates, by id. */
export const GALLERY_IDS = GALLERY.map((t) => t.id);

/** A gallery template as the `<account>` document a provider would start from. */
export function galleryXml(template: GalleryTemplate): string {
	const document = emptyDocument();
	document.services = template.services as ProfileDocument['services'];
	document.preservedXml = Object.entries(template.accountValues ?? {}).map(
		([name, value], index) => ({
			path: SETTINGS_PATH,
			index,
			xml: value === '' ? `<${name}/>` : `<${name}>${escapeXmlText(value)}</${name}>`
		})
	);
	const exported = exportXml(document, 'account', { credentials: 'include' });
	if (!exported.ok) throw new Error(`Gallery template ${template.id} does not export.`);
	return exported.value;
}

/**
 * A gallery template read as a profile (`gallery/<id>.xml`), with its notes, and what its
 * provider's answer means to the platform, as findings.
 */
export function loadGallery(template: GalleryTemplate): LoadedProfile {
	const file = `gallery/${template.id}.xml`;
	const loaded = loadXmlText(file, galleryXml(template));
	loaded.scenarios = builtInScenarios();
	loaded.scenarioSource = 'built-in';
	const notes: Finding[] = template.notes.map((message) => ({
		file,
		severity: 'info',
		code: 'gallery_note',
		message
	}));
	const answer = template.answer;
	if (answer) {
		const headers: Record<string, string> = answer.contentType
			? { 'content-type': answer.contentType }
			: {};
		const reading = interpretResponse(answer.service, {
			status: answer.status,
			headers,
			body: answer.body
		});
		const shown = answer.body === '' ? 'an empty body' : answer.body;
		notes.push({
			file,
			severity: 'info',
			code: 'gallery_answer',
			service: answer.service,
			message: `A handler in this style answers HTTP ${answer.status} with ${shown}: ${reading.summary}`
		});
		if (answer.misread) {
			notes.push({
				file,
				severity: 'warning',
				code: 'gallery_answer_misread',
				service: answer.service,
				message: answer.misread
			});
		}
	}
	loaded.findings.unshift(...notes);
	return loaded;
}

/** The built-in scenarios (the presets a new profile starts with). */
export function builtInScenarios(): Scenario[] {
	return SCENARIO_PRESETS.map((p) => ({
		name: p.name,
		values: { ...p.values } as Scenario['values']
	}));
}

/**
 * Reads one profile file, with its scenarios: `scenarioFile` when given, else the file's own
 * `<name>.scenarios.json` when present, else a backup's scenarios, else the built-in ones.
 */
export function loadProfile(file: string, scenarioFile?: string): LoadedProfile {
	let bytes: Buffer;
	try {
		bytes = readFileSync(file);
	} catch (error) {
		throw new InputError(file, cannotRead(error));
	}
	const json = file.toLowerCase().endsWith('.json');
	const loaded = json ? loadBackup(file, bytes.toString('utf8')) : loadXml(file, bytes);
	const beside = scenarioFileFor(file);
	return withScenarios(loaded, scenarioFile ?? (existsFile(beside) ? beside : undefined));
}

/**
 * A backup's text that is no file here (a profile stored on a server, `render --profile`) read
 * as a profile named `label`, with its own scenarios unless `scenarioFile` is given.
 */
export function loadBackupText(label: string, text: string, scenarioFile?: string): LoadedProfile {
	return withScenarios(loadBackup(label, text), scenarioFile);
}

function withScenarios(loaded: LoadedProfile, scenarioFile: string | undefined): LoadedProfile {
	if (scenarioFile) {
		loaded.scenarios = readScenarioFile(scenarioFile);
		loaded.scenarioSource = scenarioFile;
		loaded.findings.push(...unknownValueNames(loaded, scenarioFile));
	} else if (loaded.scenarios.length === 0) {
		loaded.scenarios = builtInScenarios();
		loaded.scenarioSource = 'built-in';
	}
	return loaded;
}

function existsFile(file: string): boolean {
	try {
		return statSync(file).isFile();
	} catch {
		return false;
	}
}

function isProfileFile(file: string): boolean {
	const lower = file.toLowerCase();
	if (lower.endsWith('.xml')) return true;
	if (!lower.endsWith('.json') || lower.endsWith(SCENARIO_FILE_SUFFIX)) return false;
	// Other JSON in a directory (package.json, …) is not a profile: only backups are read.
	try {
		return readFileSync(file, 'utf8').slice(0, 4096).includes(BACKUP_FORMAT);
	} catch {
		return false;
	}
}

function walkDirectory(dir: string, out: string[]): void {
	const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
		a.name < b.name ? -1 : a.name > b.name ? 1 : 0
	);
	for (const entry of entries) {
		if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) walkDirectory(full, out);
		else if (entry.isFile() && isProfileFile(full)) out.push(full);
	}
}

/**
 * The profile files named by the arguments: files as given, directories searched (recursively,
 * hidden folders and node_modules skipped) for `.xml` files and JSON backups.
 */
export function expandInputs(args: readonly string[]): string[] {
	const files: string[] = [];
	for (const arg of args) {
		let stat;
		try {
			stat = statSync(arg);
		} catch (error) {
			throw new InputError(arg, cannotRead(error));
		}
		if (!stat.isDirectory()) {
			files.push(arg);
			continue;
		}
		const found: string[] = [];
		walkDirectory(arg, found);
		if (found.length === 0) {
			throw new InputError(
				arg,
				'No profiles in this directory: expected .xml files (provisioning XML, an <account> document or a fragment) or JSON backups.'
			);
		}
		files.push(...found);
	}
	return files;
}

/** Reads text for commands that take one file (`export`). */
export { readText };
