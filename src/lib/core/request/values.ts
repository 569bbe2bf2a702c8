import type { Party } from '../catalogue/schema';
import type { Vocabulary } from '../catalogue/vocabulary';
import type { SubstitutionStatus, Value } from '../template';

/**
 * Scenario values keyed by the placeholder as written between the percent signs (`sms_to`,
 * `account[username]`). A list variable takes an array of parties; a per-recipient variable
 * given as an array of strings yields one request per element.
 */
export type ScenarioValue = string | readonly string[] | readonly Party[];

/** The values of one scenario. */
export type Values = Record<string, ScenarioValue>;

function own(values: Values, key: string): ScenarioValue | undefined {
	return Object.hasOwn(values, key) ? values[key] : undefined;
}

function isStringList(value: ScenarioValue): value is readonly string[] {
	return Array.isArray(value) && value.length > 0 && typeof value[0] === 'string';
}

/** The recipients of a per-recipient variable, or null when the values give one value. */
export function recipientsOf(values: Values, name: string | undefined): string[] | null {
	if (!name) return null;
	const value = own(values, name);
	if (value === undefined || typeof value === 'string') return null;
	return value.filter((v): v is string => typeof v === 'string');
}

/** Looks placeholders up in a scenario, the way one request of a build sees them. */
export interface Resolver {
	resolve(key: string): Value | undefined;
	statusOf(key: string): SubstitutionStatus;
	/** Known names that had no value (sent empty). */
	missing: Set<string>;
	/** Names given several values where one is used (the first). */
	multiValued: Set<string>;
}

/** A resolver for one request; `recipient` fixes the per-recipient variable's value. */
export function resolverFor(
	values: Values,
	vocabulary: Vocabulary,
	recipient: { name: string; value: string } | null
): Resolver {
	const missing = new Set<string>();
	const multiValued = new Set<string>();
	const lookup = (key: string): ScenarioValue | undefined => {
		if (recipient && key === recipient.name) return recipient.value;
		const direct = own(values, key);
		if (direct !== undefined) return direct;
		const canonical = vocabulary.resolve(key).entry?.key;
		return canonical && canonical !== key ? own(values, canonical) : undefined;
	};
	return {
		missing,
		multiValued,
		resolve(key) {
			const value = lookup(key);
			if (value === undefined) {
				if (!vocabulary.resolve(key).entry) return undefined;
				missing.add(key);
				return '';
			}
			if (typeof value === 'string') return value;
			if (value.length === 0) return [];
			if (isStringList(value)) {
				multiValued.add(key);
				return value[0];
			}
			return value as readonly Party[];
		},
		statusOf(key) {
			return lookup(key) === undefined && vocabulary.resolve(key).entry ? 'empty' : 'value';
		}
	};
}
