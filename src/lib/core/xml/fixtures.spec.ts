import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getService, sampleValues, SERVICES } from '../catalogue';
import { emptyDocument, type ProfileDocument } from '../profile';
import { buildRequests, type Values } from '../request';
import { checkedBySecondParser } from '../../../../tests/helpers/xml';
import {
	applyImport,
	declaredAccountKeys,
	decodeXmlBytes,
	exportXml as exportOnly,
	importXml,
	type ConflictChoices
} from '.';

/** `exportXml`, with every exported document read by a second, independent XML parser. */
const exportXml = checkedBySecondParser(exportOnly);

/**
 * One folder per case under tests/fixtures/xml: `input.xml` (read as bytes, as an upload is),
 * `expected.json` (the import: the model and its issues, or the refusal), `expected-export.xml`
 * (the model applied to an empty profile and exported in the form it came in; a fragment is
 * exported as the additional provisioning XML, credentials included), for conflicts,
 * `choices.json`, and optionally `expected-preview.json` (what the editor previews and reports
 * for each imported service, the profile's own account values filling the samples).
 */

const ROOT = path.resolve(import.meta.dirname, '../../../../tests/fixtures/xml');
const CASES = readdirSync(ROOT).sort();

function read(name: string, file: string): string | undefined {
	const at = path.join(ROOT, name, file);
	return existsSync(at) ? readFileSync(at, 'utf8') : undefined;
}

/** The import of a case's input, shaped as expected.json holds it. */
function imported(name: string) {
	const decoded = decodeXmlBytes(new Uint8Array(readFileSync(path.join(ROOT, name, 'input.xml'))));
	if (!decoded.ok) return { result: { ok: false, issues: [decoded.issue] }, value: undefined };
	const result = importXml(decoded.text);
	if (!result.ok) return { result: { ok: false, issues: result.issues }, value: undefined };
	return { result: { ok: true, ...result.value, issues: result.issues }, value: result.value };
}

/**
 * What the editor previews for each service of a document: the requests built with the
 * catalogue's samples and the profile's own account values, and the issues (code, severity,
 * field) that lint and the preview show.
 */
function previewOf(document: ProfileDocument) {
	const accountKeys = declaredAccountKeys(document.preservedXml);
	const preview: Record<string, unknown> = {};
	for (const [id, settings] of Object.entries(document.services)) {
		const service = getService(id);
		const result = buildRequests({
			service,
			settings: settings ?? {},
			values: sampleValues(service, accountKeys) as Values,
			accountKeys
		});
		preview[id] = {
			requests: result.requests.map((r) => ({
				method: r.method,
				url: r.url,
				contentType: r.headers.find((h) => h.name === 'Content-Type')?.value ?? null,
				body: r.body
			})),
			issues: result.issues.map((i) => `${i.severity} ${i.code}${i.field ? ` (${i.field})` : ''}`)
		};
	}
	return preview;
}

describe('XML fixtures', () => {
	it('has cases to run', () => {
		expect(CASES.length).toBeGreaterThan(10);
	});

	it.each(CASES)('%s: the import gives expected.json', (name) => {
		const expected = JSON.parse(read(name, 'expected.json') ?? 'null');
		expect(imported(name).result).toEqual(expected);
	});

	it.each(CASES)('%s: applied to an empty profile, it exports as expected-export.xml', (name) => {
		const { value } = imported(name);
		const expected = read(name, 'expected-export.xml');
		if (!value) {
			expect(expected, 'a refused input has no export').toBeUndefined();
			return;
		}
		const choices = JSON.parse(read(name, 'choices.json') ?? '{}') as ConflictChoices;
		const applied = applyImport(emptyDocument(), value, choices);
		if (!applied.ok) throw new Error(applied.issues.map((i) => i.message).join('\n'));
		// Credentials of the kept XML are included: what goes out without them is the server's rule.
		const exported = exportXml(
			applied.value,
			value.form === 'account' ? 'account' : 'provisioning',
			{
				credentials: 'include'
			}
		);
		expect(exported.ok && exported.value).toBe(expected);
	});

	it.each(CASES.filter((name) => read(name, 'expected-preview.json') !== undefined))(
		'%s: applied, each imported service previews as expected-preview.json',
		(name) => {
			const { value } = imported(name);
			const choices = JSON.parse(read(name, 'choices.json') ?? '{}') as ConflictChoices;
			const applied = applyImport(emptyDocument(), value!, choices);
			if (!applied.ok) throw new Error(applied.issues.map((i) => i.message).join('\n'));
			expect(previewOf(applied.value)).toEqual(JSON.parse(read(name, 'expected-preview.json')!));
		}
	);

	it.each(CASES.filter((name) => read(name, 'expected-export.xml') !== undefined))(
		'%s: the export reads back to the same settings and kept elements',
		(name) => {
			const again = importXml(read(name, 'expected-export.xml')!);
			const { value } = imported(name);
			const applied = applyImport(
				emptyDocument(),
				value!,
				JSON.parse(read(name, 'choices.json') ?? '{}')
			);
			expect(again.ok && applyImport(emptyDocument(), again.value).ok).toBe(true);
			if (!again.ok || !applied.ok) return;
			const reread = applyImport(emptyDocument(), again.value);
			expect(reread.ok && reread.value).toEqual(applied.value);
		}
	);

	it("a provider's whole account XML: every account-XML service imported, no key kept unknown", () => {
		const { value, result } = imported('provider-whole-account');
		const inXml = SERVICES.filter((s) => s.keys.some((k) => k.location.kind === 'accountXml'));
		expect(Object.keys(value!.services).sort()).toEqual(inXml.map((s) => s.id).sort());
		// A catalogue key kept as written must be named as a portal key, never counted unknown.
		const portalKeys = new Set(
			SERVICES.flatMap((s) => s.keys.filter((k) => k.location.kind === 'portal').map((k) => k.key))
		);
		const kept = value!.preservedXml.map((p) => /^<([^\s>/]+)/.exec(p.xml)![1]);
		const warned = result.issues.filter((i) => i.code === 'portal_key_in_xml');
		expect(kept.filter((name) => portalKeys.has(name))).toEqual(['InitialProvisioningUrl']);
		expect(warned.map((i) => i.message)).toEqual([
			expect.stringContaining('<InitialProvisioningUrl> (line 37) is set in the portal')
		]);
		expect(kept).toEqual(['title', 'username', 'password', 'host', 'InitialProvisioningUrl']);
	});
});
