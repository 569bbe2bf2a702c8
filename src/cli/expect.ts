import type { Interpretation } from '$lib/core/response';
import type { Finding } from './model';

/** `--expect` rules of `check --live`: what a provider wants an answer to hold, per service. */

/** One `--expect` rule: `<service>:<field>=<value>`. */
export interface Expectation {
	service: string;
	/** `status`, or a field of the interpretation (`success`, `action.kind`, `action.smsId`, …). */
	field: string;
	value: string;
	text: string;
}

/** Reads an `--expect` rule, or says why it cannot be read. */
export function parseExpectation(text: string): Expectation | string {
	const match = /^([A-Za-z][A-Za-z0-9]*):([A-Za-z][A-Za-z0-9.]*)=(.*)$/s.exec(text);
	if (!match) {
		return `--expect "${text}" is not <service>:<field>=<value> (e.g. sendMessage:status=200, sendMessage:action.kind=storeSmsId).`;
	}
	return { service: match[1], field: match[2], value: match[3], text };
}

function fieldOf(
	interpretation: Interpretation,
	status: number,
	field: string
): string | undefined {
	if (field === 'status') return String(status);
	let value: unknown = interpretation;
	for (const part of field.split('.')) {
		if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part))
			return undefined;
		value = (value as Record<string, unknown>)[part];
	}
	if (value === undefined) return undefined;
	return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Judges one live answer as the platform reads it: the interpreter's issues, then the service's
 * `--expect` rules; without rules, an answer the platform reads as a failure is an error.
 */
export function judgeAnswer(
	service: string,
	status: number,
	interpretation: Interpretation,
	expectations: readonly Expectation[]
): Omit<Finding, 'file'>[] {
	const findings: Omit<Finding, 'file'>[] = interpretation.issues.map((issue) => ({
		severity: issue.severity,
		code: issue.code,
		message: `Live answer ${status}: ${issue.message}`,
		service
	}));
	const mine = expectations.filter((e) => e.service === service);
	for (const expectation of mine) {
		const actual = fieldOf(interpretation, status, expectation.field);
		if (actual !== expectation.value) {
			findings.push({
				severity: 'error',
				code: 'live_expectation',
				message: `Expected ${expectation.field} = ${expectation.value}, the answer gave ${actual === undefined ? 'no such field' : actual} (HTTP ${status}: ${interpretation.summary})`,
				service
			});
		}
	}
	if (mine.length === 0 && !interpretation.success) {
		findings.push({
			severity: 'error',
			code: 'live_failed',
			message: `The platform reads the answer as a failure (HTTP ${status}): ${interpretation.summary}`,
			service
		});
	}
	return findings;
}
