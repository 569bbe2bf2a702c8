import type { Issue } from '../issues';
import { CALLER_LABELS, fromKnown, knownServices } from './known';
import type { Scope, Service, Variable } from './schema';
import type { DeclaredAccountKey } from './account-keys';
import { ACCOUNT_VARIABLES, GLOBAL_VARIABLES, variable } from './variables';
import { ruleIssue } from './sources';

/**
 * The names a service's templates may use, derived from its catalogue entry, and the judgement
 * of any other name: unknown (an error where the caller accepts a fixed set, a warning where it
 * does not), not filled by this caller, or a deprecated spelling.
 */

/** A name a template can use, with the key written between the percent signs. */
export interface Entry {
	key: string;
	variable: Variable;
	scope: Scope;
}

/** The outcome of looking a placeholder key up. */
export interface Resolution {
	scope: Scope | 'unknown';
	entry?: Entry;
	/**
	 * A problem with the name (positions are filled in by the caller), made when asked: a
	 * template can hold many thousands of unknown names, of which a check lists a few.
	 */
	issue?: () => NameIssue;
}

/** A problem with a name, without its place; `replacement` is the name it likely meant. */
export type NameIssue = Omit<Issue, 'from' | 'to'> & { replacement?: string };

/** The issue `make` gives, made once, the first time it is asked for. */
function once(make: () => NameIssue): () => NameIssue {
	let made: NameIssue | undefined;
	return () => (made ??= make());
}

/** Everything one service's templates may refer to. */
export interface Vocabulary {
	service: Service;
	entries: Entry[];
	resolve(key: string): Resolution;
}

function entryKey(v: Variable): string {
	return v.scope === 'account' ? `account[${v.name}]` : v.name;
}

function accountEntries(service: Service): Variable[] {
	if (service.accountKeys === 'none') return [];
	if (service.accountKeys === 'all') return [...ACCOUNT_VARIABLES];
	const keys = service.accountKeys;
	return ACCOUNT_VARIABLES.filter((v) => keys.includes(v.name));
}

/** Edit distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
		}
		previous = current;
	}
	return previous[b.length];
}

/** The nearest known key, when one is close enough to be a likely typo. */
function nearest(key: string, keys: string[]): string | undefined {
	const most = Math.max(2, Math.floor(key.length / 3));
	let best: string | undefined;
	let bestDistance = Infinity;
	const lower = key.toLowerCase();
	for (const candidate of keys) {
		// Two names whose lengths differ by more than `most` are further apart than that.
		if (Math.abs(candidate.length - key.length) > most) continue;
		const d = candidate.toLowerCase() === lower ? 0.5 : editDistance(key, candidate);
		if (d < bestDistance) {
			best = candidate;
			bestDistance = d;
		}
	}
	return bestDistance <= most ? best : undefined;
}

function ownerOf(name: string, service: Service): string | undefined {
	const owner = knownServices().find(
		(s) => s !== service && s.variables.some((v) => v.name === name || v.alias === name)
	);
	return owner?.title;
}

/** The sample a declared credential gets: its value is never shown, nor used in a preview. */
const DECLARED_SECRET_SAMPLE = 's3cret+value';

/**
 * The account entries with what a profile's account XML declares: a documented key takes the
 * document's value as its sample; another name becomes a key of its own where the caller fills
 * every account key (the app), and is unknown elsewhere.
 */
function withDeclared(service: Service, declared: readonly DeclaredAccountKey[]): Variable[] {
	const own = new Map(declared.map((d) => [d.name, d]));
	const documented = accountEntries(service).map((v) => {
		const given = own.get(v.name);
		return given && !given.secret && !v.secret && given.value !== ''
			? { ...v, sample: given.value }
			: v;
	});
	if (service.accountKeys !== 'all') return documented;
	const custom = declared
		.filter((d) => !ACCOUNT_VARIABLES.some((v) => v.name === d.name))
		.map((d) =>
			variable({
				name: d.name,
				scope: 'account',
				meaning: `Declared by this profile's account XML (<${d.name}>)${d.secret ? ', a credential' : ''}.`,
				sample: d.secret ? DECLARED_SECRET_SAMPLE : d.value,
				secret: d.secret
			})
		);
	return [...documented, ...custom];
}

// Made again once more services are known: a vocabulary's hints name the services it knows.
const caches = fromKnown(() => ({
	plain: new Map<string, Vocabulary>(),
	declared: new Map<string, Vocabulary>()
}));

/**
 * The vocabulary of a service (computed once per service), with the account keys a profile's
 * XML declares when `declared` is given.
 */
export function vocabularyOf(
	service: Service,
	declared: readonly DeclaredAccountKey[] = []
): Vocabulary {
	const { plain: CACHE, declared: DECLARED_CACHE } = caches();
	if (declared.length === 0) {
		const cached = CACHE.get(service.id);
		if (cached) return cached;
		const vocabulary = buildVocabulary(service, accountEntries(service));
		CACHE.set(service.id, vocabulary);
		return vocabulary;
	}
	const id = JSON.stringify([service.id, declared.map((d) => [d.name, d.value, d.secret])]);
	const cached = DECLARED_CACHE.get(id);
	if (cached) return cached;
	const vocabulary = buildVocabulary(service, withDeclared(service, declared));
	if (DECLARED_CACHE.size >= 50) DECLARED_CACHE.clear();
	DECLARED_CACHE.set(id, vocabulary);
	return vocabulary;
}

function buildVocabulary(service: Service, account: readonly Variable[]): Vocabulary {
	const variables = [
		...service.variables,
		...account,
		...(service.globals === 'all' ? GLOBAL_VARIABLES : [])
	];
	const entries: Entry[] = variables.map((v) => ({
		key: entryKey(v),
		variable: v,
		scope: v.scope
	}));
	const byKey = new Map(entries.map((e) => [e.key, e]));
	const aliases = new Map(
		entries.filter((e) => e.variable.alias).map((e) => [e.variable.alias as string, e])
	);
	const keys = entries.map((e) => e.key);
	const caller = CALLER_LABELS[service.caller].replace(/^The /, 'the ');
	const fixed = service.variableSet === 'fixed';
	const recognised = keys.map((k) => `%${k}%`).join(', ');

	const unknown = (key: string, what: string): Resolution => ({
		scope: 'unknown',
		issue: once(() => {
			const suggestion = nearest(key, keys);
			const owner = ownerOf(key, service);
			const parts = [`${what} is not known to ${service.title}.`];
			if (owner) parts.push(`It belongs to ${owner}.`);
			if (fixed) parts.push(`${caller} recognises only: ${recognised}.`);
			else parts.push('It is sent as written unless a value is given.');
			if (suggestion) parts.push(`Did you mean %${suggestion}%?`);
			return ruleIssue(service, 'variableSet', {
				code: 'unknown_variable',
				severity: fixed ? 'error' : 'warning',
				message: parts.join(' '),
				replacement: suggestion
			});
		})
	});

	const resolve = (key: string): Resolution => {
		const entry = byKey.get(key);
		if (entry) return { scope: entry.scope, entry };
		const aliased = aliases.get(key);
		if (aliased) {
			return {
				scope: aliased.scope,
				entry: aliased,
				issue: once(() => ({
					code: 'deprecated_variable',
					severity: 'warning',
					message: `%${key}% is an older spelling; the contract writes %${aliased.key}%.`,
					replacement: aliased.key
				}))
			};
		}
		const account = /^account\[(.*)\]$/.exec(key);
		if (account) {
			const documented = ACCOUNT_VARIABLES.some((v) => v.name === account[1]);
			if (documented || service.accountKeys === 'none') {
				const reason = () =>
					service.accountKeys === 'none'
						? `${service.title} is called by ${caller} with no account, so account values are not filled.`
						: `${caller} fills only ${keys
								.filter((k) => k.startsWith('account['))
								.map((k) => `%${k}%`)
								.join(', ')}.`;
				return {
					scope: 'unknown',
					issue: once(() =>
						ruleIssue(service, 'accountKeys', {
							code: 'not_allowed_for_caller',
							severity: 'error',
							message: `%${key}% cannot be used here: ${reason()}`
						})
					)
				};
			}
			return unknown(key, `%${key}% (not a documented account key)`);
		}
		if (GLOBAL_VARIABLES.some((v) => v.name === key) && service.globals === 'none') {
			return {
				scope: 'unknown',
				issue: once(() =>
					ruleIssue(service, 'globals', {
						code: 'not_allowed_for_caller',
						severity: 'error',
						message: `%${key}% is a global parameter of the app; ${caller} does not fill it.`
					})
				)
			};
		}
		return unknown(key, `%${key}%`);
	};

	// Resolutions are pure and a template repeats its names: remember them (bounded, since any
	// text can be a name).
	const memo = new Map<string, Resolution>();
	const remembered = (key: string): Resolution => {
		let resolution = memo.get(key);
		if (resolution === undefined) {
			resolution = resolve(key);
			if (memo.size < 2000) memo.set(key, resolution);
		}
		return resolution;
	};
	return { service, entries, resolve: remembered };
}
