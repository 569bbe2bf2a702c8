import {
	credentialElementName,
	credentialKey,
	emptiedCredential,
	maskedCredential
} from '../xml/account';
import type { ProfileDocument } from './schema';
import { isSecretKey, isSecretSetting } from './secret-keys';

/**
 * Secret sample values (passwords) in a profile's scenarios, and credentials in its kept XML.
 * They are stored sealed, never sent back to the browser, and shown as {@link SECRET_MASK}; a
 * save that sends the mask back keeps the stored value.
 */

/** What the browser sees in place of a stored secret. */
export const SECRET_MASK = '\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022';

/**
 * Secret values by scenario name, then placeholder key. Scenario names are user text (even
 * `__proto__`), so these records have no prototype.
 */
export type SecretValues = Record<string, Record<string, string>>;

/**
 * Where credentials of the kept XML (`<password>` in an imported account document) are kept
 * among the secret values: under a name no scenario can have (scenario names are trimmed and
 * never empty), keyed by the element's place and name.
 */
export const XML_SECRETS = '';

/**
 * Where secret settings (a Digest password) are kept among the secret values: under a name no
 * scenario can have (scenario names are trimmed), keyed `service/key`.
 */
export const SETTING_SECRETS = ' settings';

/** The document's services with each secret setting's value mapped (`''` when emptied). */
export function mapSecretSettings(
	services: ProfileDocument['services'],
	map: (slot: string, value: string) => string
): ProfileDocument['services'] {
	const result: Record<string, Record<string, string>> = {};
	for (const [service, settings] of Object.entries(services)) {
		const copy: Record<string, string> = { ...settings };
		for (const [key, value] of Object.entries(settings ?? {})) {
			if (isSecretSetting(service, key)) copy[key] = map(`${service}/${key}`, value);
		}
		result[service] = copy;
	}
	return result as ProfileDocument['services'];
}

/** Takes the secrets out of a document: the document keeps empty values in their place. */
export function splitSecrets(document: ProfileDocument): {
	document: ProfileDocument;
	secrets: SecretValues;
} {
	const secrets: SecretValues = Object.create(null);
	const preservedXml = document.preservedXml.map((kept) => {
		const name = credentialElementName(kept.xml);
		if (name === null) return kept;
		const value = kept.xml === maskedCredential(name, SECRET_MASK) ? SECRET_MASK : kept.xml;
		(secrets[XML_SECRETS] ??= Object.create(null))[credentialKey(kept, name)] = value;
		return { ...kept, xml: emptiedCredential(name) };
	});
	const scenarios = document.scenarios.map((scenario) => {
		const values: typeof scenario.values = {};
		for (const [key, value] of Object.entries(scenario.values)) {
			if (isSecretKey(key) && typeof value === 'string') {
				if (value !== '') (secrets[scenario.name] ??= Object.create(null))[key] = value;
				values[key] = '';
			} else {
				values[key] = value;
			}
		}
		return { ...scenario, values };
	});
	const services = mapSecretSettings(document.services, (slot, value) => {
		if (value !== '') (secrets[SETTING_SECRETS] ??= Object.create(null))[slot] = value;
		return '';
	});
	return { document: { ...document, services, scenarios, preservedXml }, secrets };
}

/** Kept XML elements as shown outside the server: credentials as the mask. */
export function maskKeptCredentials(
	preserved: ProfileDocument['preservedXml']
): ProfileDocument['preservedXml'] {
	return preserved.map((kept) => {
		const name = credentialElementName(kept.xml);
		return name === null ? kept : { ...kept, xml: maskedCredential(name, SECRET_MASK) };
	});
}

/** Puts secrets back, as their values or as the mask. */
export function joinSecrets(
	document: ProfileDocument,
	secrets: SecretValues,
	mode: 'values' | 'mask'
): ProfileDocument {
	const xml = Object.hasOwn(secrets, XML_SECRETS) ? secrets[XML_SECRETS] : undefined;
	const preservedXml = !xml
		? document.preservedXml
		: document.preservedXml.map((kept) => {
				const name = /^<([^\s/>]+)\s*\/>$/.exec(kept.xml)?.[1];
				const key = name === undefined ? undefined : credentialKey(kept, name);
				if (key === undefined || !Object.hasOwn(xml, key)) return kept;
				return { ...kept, xml: mode === 'mask' ? maskedCredential(name!, SECRET_MASK) : xml[key] };
			});
	const scenarios = document.scenarios.map((scenario) => {
		const stored = Object.hasOwn(secrets, scenario.name) ? secrets[scenario.name] : {};
		const values = { ...scenario.values };
		for (const [key, value] of Object.entries(stored)) {
			values[key] = mode === 'mask' ? SECRET_MASK : value;
		}
		return { ...scenario, values };
	});
	const settings = Object.hasOwn(secrets, SETTING_SECRETS) ? secrets[SETTING_SECRETS] : {};
	const services = mapSecretSettings(document.services, (slot, value) =>
		!Object.hasOwn(settings, slot) ? value : mode === 'mask' ? SECRET_MASK : settings[slot]
	);
	return { ...document, services, scenarios, preservedXml };
}

/** A saved document's secrets: a value equal to the mask keeps the previously stored one. */
export function keepMaskedSecrets(incoming: SecretValues, previous: SecretValues): SecretValues {
	const result: SecretValues = Object.create(null);
	for (const [scenario, values] of Object.entries(incoming)) {
		for (const [key, value] of Object.entries(values)) {
			const kept = value === SECRET_MASK ? ownValue(ownValue(previous, scenario), key) : value;
			if (typeof kept === 'string' && kept !== '') {
				(result[scenario] ??= Object.create(null))[key] = kept;
			}
		}
	}
	return result;
}

/**
 * Where each stored secret may be sent: the origins, by scenario then key. A secret typed in
 * clear is bound to the origins the profile's URLs had in that save; a secret kept through the
 * mask keeps its binding, so changing a URL never takes a stored password along.
 */
export type SecretOrigins = Record<string, Record<string, string[]>>;

/** The bindings of a save's secrets (see {@link SecretOrigins}). */
export function bindSecrets(
	incoming: SecretValues,
	kept: SecretValues,
	previous: SecretOrigins,
	origins: readonly string[]
): SecretOrigins {
	const result: SecretOrigins = Object.create(null);
	for (const [scenario, values] of Object.entries(kept)) {
		for (const key of Object.keys(values)) {
			const typed = ownValue(ownValue(incoming, scenario), key) !== SECRET_MASK;
			const bound = typed ? [...origins] : (ownValue(ownValue(previous, scenario), key) ?? []);
			(result[scenario] ??= Object.create(null))[key] = bound;
		}
	}
	return result;
}

/** `record[key]` when it is the record's own (`constructor` or `__proto__` are not). */
function ownValue<T>(record: Record<string, T> | undefined, key: string): T | undefined {
	return record && Object.hasOwn(record, key) ? record[key] : undefined;
}
