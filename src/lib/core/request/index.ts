/** The request builder and what is derived from a built request. */
export * from './build';
export { buildRequests, readXmlBody } from './strict-build';
export { bodyKind, type XmlBodyReader } from './checks';
export * from './curl';
export type { Settings } from './settings';
export type { ScenarioValue, Values } from './values';
export { MANAGED_HEADERS } from './headers';
export { urlCandidates, chosenUrl, resolveSettings, type UrlCandidate } from './settings';
export * from './sso';
export {
	redactRequest,
	scrubSecrets,
	secretsUsed,
	secretForms,
	maskSecretsIn,
	shownOrigin,
	type RedactedRequest
} from './redact';
export { urlOrigins } from './origins';
export { countIssues, countOf, describeCounts, worstOf, type IssueCounts } from './summary';
