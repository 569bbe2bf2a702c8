import { keyOf } from '../catalogue/known';
import { isXmlKey } from '../catalogue/placed';
import type { Service } from '../catalogue/schema';
import { append, type Issue } from '../issues';
import { xmlCharIssues } from '../xml/chars';

/**
 * A service's settings as the caller reads them: which key supplies the URL, body, content
 * type, method and headers, with the contract's deprecated keys and the External provisioning
 * URL priority applied.
 */

/** Settings keyed by the contract's configuration key names (`genericSmsSendUrl`, …). */
export type Settings = Record<string, string | undefined>;

/** The templates of one service after key resolution; `*Field` names the key each came from. */
export interface ResolvedSettings {
	url: string;
	urlField: string;
	postData: string;
	postDataField: string;
	contentType: string;
	contentTypeField: string;
	method: string;
	methodField?: string;
	customHeaders: string;
	customHeadersField?: string;
	/** True when the caller skips the call altogether (externalProvisioningOnSSODisabled = 1). */
	skipped: boolean;
	issues: Issue[];
}

function text(settings: Settings, key: string | undefined): string {
	if (!key || !Object.hasOwn(settings, key)) return '';
	const value = settings[key];
	return typeof value === 'string' ? value : '';
}

/** A key that may supply a service's URL, in the order the caller tries them. */
export interface UrlCandidate {
	key: string;
	label: string;
	value: string;
}

/**
 * The keys that may supply a service's URL, by priority: its URL key, then its fallback URLs
 * (External provisioning on SSO: extSSOProvUrl, the reprovisioning URL, the initial one).
 */
export function urlCandidates(service: Service, settings: Settings): UrlCandidate[] {
	const urlKey = service.keys.find((k) => k.role === 'url');
	const keys = [
		...(urlKey ? [urlKey] : []),
		...service.keys.filter((k) => k.role === 'fallbackUrl')
	];
	return keys.map((k) => ({ key: k.key, label: k.label, value: text(settings, k.key) }));
}

/** The candidate the caller calls: the first one set; null when none is. */
export function chosenUrl(candidates: readonly UrlCandidate[]): UrlCandidate | null {
	return candidates.find((c) => c.value.trim() !== '') ?? null;
}

function resolveUrl(service: Service, settings: Settings, issues: Issue[]) {
	const candidates = urlCandidates(service, settings);
	const urlKey = keyOf(service, 'url') ?? '';
	const chosen = chosenUrl(candidates);
	if (!chosen || chosen.key === urlKey) return { url: text(settings, urlKey), urlField: urlKey };
	issues.push({
		code: 'url_fallback',
		severity: 'info',
		message: `${urlKey} is empty, so the ${chosen.label.toLowerCase()} (${chosen.key}) is called.`,
		field: chosen.key
	});
	return { url: chosen.value, urlField: chosen.key };
}

/** Roles whose values are not templates, so the template analysis does not see them. */
const PLAIN_ROLES = new Set([
	'contentType',
	'method',
	'flag',
	'number',
	'authUsername',
	'authPassword',
	'xpath'
]);

/** A whole number, as the app reads a number setting. */
const WHOLE_NUMBER = /^\d{1,9}$/;

/** Reads a service's settings the way its caller does. */
export function resolveSettings(service: Service, settings: Settings): ResolvedSettings {
	const issues: Issue[] = [];
	for (const key of service.keys) {
		if (PLAIN_ROLES.has(key.role) && isXmlKey(service, key.key)) {
			append(issues, xmlCharIssues(text(settings, key.key), key.key));
		}
		if (key.role !== 'number') continue;
		// Only a number is trimmed: trimming a megabyte body would read all of it on every key.
		const value = text(settings, key.key).trim();
		if (value !== '' && !WHOLE_NUMBER.test(value)) {
			const fallback = key.default === undefined ? '' : ` (${key.default} when empty)`;
			issues.push({
				code: 'number_invalid',
				severity: 'warning',
				message: `${key.key} must be a whole number${fallback}; “${value.slice(0, 40)}” is not one.`,
				field: key.key
			});
		}
	}
	const known = new Set([
		...service.keys.map((k) => k.key),
		...service.deprecatedKeys.map((k) => k.key)
	]);
	for (const key of Object.keys(settings)) {
		if (!known.has(key)) {
			issues.push({
				code: 'unknown_setting',
				severity: 'warning',
				message: `${key} is not a setting of ${service.title}; it is ignored.`,
				field: key
			});
		}
	}
	// A deprecated key supplies its replacement's value when the replacement is empty.
	const postDataKey = keyOf(service, 'postData') ?? '';
	const contentTypeKey = keyOf(service, 'contentType') ?? '';
	const supplied = {
		postData: { value: text(settings, postDataKey), field: postDataKey },
		contentType: { value: text(settings, contentTypeKey).trim(), field: contentTypeKey }
	};
	for (const deprecated of service.deprecatedKeys) {
		const role = service.keys.find((k) => k.key === deprecated.replacement)?.role;
		const old = text(settings, deprecated.key);
		if ((role === 'contentType' ? old.trim() : old) === '') continue;
		const slot = role === 'postData' || role === 'contentType' ? supplied[role] : undefined;
		const usedInstead = slot !== undefined && slot.value === '';
		issues.push({
			code: 'deprecated_key',
			severity: 'warning',
			message: usedInstead
				? `${deprecated.note} Move its value to ${deprecated.replacement}.`
				: `${deprecated.key} is ignored because ${deprecated.replacement} is set. ${deprecated.note}`,
			field: deprecated.key
		});
		if (usedInstead) {
			slot.value = role === 'contentType' ? old.trim() : old;
			slot.field = deprecated.key;
		}
	}
	const flagKey = keyOf(service, 'flag');
	const skipped = text(settings, flagKey).trim() === '1';
	if (skipped) {
		issues.push({
			code: 'call_skipped',
			severity: 'info',
			message: `${flagKey} is 1, so ${service.title} is not called.`,
			field: flagKey
		});
	}
	const methodKey = keyOf(service, 'method');
	const headersKey = keyOf(service, 'customHeaders');
	// Named, not spread: V8 builds `{ ...resolveUrl(…), postData, … }` slowly, and this runs on
	// every keystroke and every test call.
	const { url, urlField } = resolveUrl(service, settings, issues);
	return {
		url,
		urlField,
		postData: supplied.postData.value,
		postDataField: supplied.postData.field,
		contentType: supplied.contentType.value,
		contentTypeField: supplied.contentType.field,
		method: text(settings, methodKey).trim(),
		methodField: methodKey,
		customHeaders: text(settings, headersKey),
		customHeadersField: headersKey,
		skipped,
		issues
	};
}
