import { SERVICES } from '../catalogue/services';
import { ACCOUNT_VARIABLES } from '../catalogue/variables';
import type { ProfileDocument } from './schema';

/**
 * Secret sample values (passwords) in a profile's scenarios. They are stored sealed, never sent
 * back to the browser, and shown as {@link SECRET_MASK}; a save that sends the mask back keeps
 * the stored value.
 */

/** What the browser sees in place of a stored secret. */
export const SECRET_MASK = '\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022';

const SECRET_KEYS = new Set([
	...ACCOUNT_VARIABLES.filter((v) => v.secret).map((v) => `account[${v.name}]`),
	...SERVICES.flatMap((s) => s.variables.filter((v) => v.secret).map((v) => v.name))
]);

/** True when a scenario value under this placeholder key is a secret. */
export function isSecretKey(key: string): boolean {
	return SECRET_KEYS.has(key);
}

/**
 * Secret values by scenario name, then placeholder key. Scenario names are user text (even
 * `__proto__`), so these records have no prototype.
 */
export type SecretValues = Record<string, Record<string, string>>;

/** Takes the secrets out of a document: the document keeps empty strings in their place. */
export function splitSecrets(document: ProfileDocument): {
	document: ProfileDocument;
	secrets: SecretValues;
} {
	const secrets: SecretValues = Object.create(null);
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
	return { document: { ...document, scenarios }, secrets };
}

/** Puts secrets back, as their values or as the mask. */
export function joinSecrets(
	document: ProfileDocument,
	secrets: SecretValues,
	mode: 'values' | 'mask'
): ProfileDocument {
	const scenarios = document.scenarios.map((scenario) => {
		const stored = Object.hasOwn(secrets, scenario.name) ? secrets[scenario.name] : {};
		const values = { ...scenario.values };
		for (const [key, value] of Object.entries(stored)) {
			values[key] = mode === 'mask' ? SECRET_MASK : value;
		}
		return { ...scenario, values };
	});
	return { ...document, scenarios };
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
