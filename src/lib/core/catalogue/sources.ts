import type { Issue, Severity } from '../issues';
import type { Remark, RuleName, Service, Source, SourceKind } from './schema';

/**
 * Where each rule of the catalogue comes from, and the one rule about it: only the contract and
 * the platform's documentation are authorities, so a rule taken from providers' implementations
 * or inferred makes a warning at most, never an error.
 */

/** The source of everything the contract defines: the default of every entry. */
export const CONTRACT_SOURCE: Source = {
	kind: 'contract',
	ref: 'Provider Web Service Contracts and Push Gateway'
};

/** The source kinds, in words an admin reads (a mark's text and its accessible name). */
export const SOURCE_LABELS: Record<SourceKind, { mark: string; long: string }> = {
	contract: { mark: 'contract', long: 'From the contract' },
	docs: { mark: 'docs', long: "From the platform's public documentation" },
	providers: { mark: 'providers', long: "From real providers' implementations" },
	inference: { mark: 'inferred', long: 'An inference: not documented by the platform' }
};

/** The source of a service, key or variable; absent, the contract. */
export function sourceOf(entry: { source?: Source }): Source {
	return entry.source ?? CONTRACT_SOURCE;
}

/** The source of one rule of a service: its own, else the service's. */
export function ruleSource(service: Service, rule: RuleName): Source {
	return service.ruleSources?.[rule] ?? sourceOf(service);
}

/** A remark's text and source (a plain string is the contract's). */
export function remarkOf(remark: Remark): { text: string; source: Source } {
	return typeof remark === 'string' ? { text: remark, source: CONTRACT_SOURCE } : remark;
}

/** Whether a source may make an error: the contract and the platform's documentation. */
export function isAuthority(source: Source): boolean {
	return source.kind === 'contract' || source.kind === 'docs';
}

/** One sentence saying where a rule comes from, with its reference (the contract needs none). */
export function describeSource(source: Source): string {
	if (source.kind === 'contract') return `${SOURCE_LABELS.contract.long}.`;
	return `${SOURCE_LABELS[source.kind].long}: ${source.ref}.`;
}

/** The severity a rule of this source may give: an error only from an authority. */
export function severityFrom(source: Source, severity: Severity): Severity {
	return severity === 'error' && !isAuthority(source) ? 'warning' : severity;
}

/**
 * An issue made from one rule of a service's catalogue entry: every such issue is made here, so
 * that a rule not from the contract or the documentation never blocks anything.
 */
export function ruleIssue<T extends Pick<Issue, 'severity'>>(
	service: Service,
	rule: RuleName,
	issue: T
): T {
	const severity = severityFrom(ruleSource(service, rule), issue.severity);
	return severity === issue.severity ? issue : { ...issue, severity };
}
