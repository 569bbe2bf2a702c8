import Ajv from 'ajv-draft-04';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { FIXTURES } from './helpers';

/**
 * The schemas the reports of `check` are validated against: SARIF against the official SARIF
 * 2.1.0 JSON schema (OASIS, as shipped by @microsoft/jest-sarif), JUnit against the schema of
 * the format Ant writes and Jenkins reads (fixtures/schemas/junit.xsd, written for this project).
 */

const require = createRequire(import.meta.url);
const SARIF_SCHEMA = JSON.parse(
	readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')
) as object;
// One pattern of the official schema is not valid in unicode mode; formats are not checked.
const validateSarif = new Ajv({
	strict: false,
	unicodeRegExp: false,
	validateFormats: false
}).compile(SARIF_SCHEMA);

const JUNIT_XSD = {
	fileName: 'junit.xsd',
	contents: readFileSync(path.join(FIXTURES, 'schemas/junit.xsd'), 'utf8')
};

/** Validates a JUnit report against the XSD: libxml2's errors, none when it is valid. */
export async function junitErrors(xml: string): Promise<string[]> {
	const result = await validateXML({
		xml: [{ fileName: 'report.xml', contents: xml }],
		schema: [JUNIT_XSD]
	});
	return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

/** Validates a SARIF log against the SARIF 2.1.0 schema: the errors, none when it is valid. */
export function sarifErrors(log: unknown): string[] {
	if (validateSarif(log) === true) return [];
	return (validateSarif.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
