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
