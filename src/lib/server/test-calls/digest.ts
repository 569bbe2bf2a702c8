import { randomBytes } from 'node:crypto';
import { findService, keyOf } from '$lib/core/catalogue';
import type { Issue } from '$lib/core/issues';
import { SECRET_MASK } from '$lib/core/profile';
import type { BuildInput, BuiltRequest } from '$lib/core/request';
import { digestAuthorization } from '$lib/core/request/digest';
import type { CallResult } from './call-result';

/**
 * A service's HTTP Digest challenge answered as the app answers it: when its `…AuthUsername` is
 * set, a 401 with a Digest challenge gets one more request, the same one to the same URL with an
 * `Authorization` header, and nothing more (a second 401 is the verdict, never a third try).
 */

/** The Digest credentials of a call, from the service's settings; null when none are set. */
export interface DigestCredentials {
	usernameKey: string;
	username: string;
	passwordKey: string;
	/** Empty, or the mask, when no password can be used. */
	password: string;
}

/** What follows a response: nothing, the answering request, or why the app cannot answer. */
export type Challenge =
	| { kind: 'none' }
	| { kind: 'answer'; request: BuiltRequest; response: string; issue: Issue }
	| { kind: 'refused'; issue: Issue };

/** The credentials of a build, when its service answers challenges and a user name is set. */
export function digestCredentials(
	build: Pick<BuildInput, 'settings'> & { service: string }
): DigestCredentials | null {
	const service = findService(build.service);
	const usernameKey = service && keyOf(service, 'authUsername');
	const passwordKey = service && keyOf(service, 'authPassword');
	if (!usernameKey || !passwordKey) return null;
	const username = build.settings[usernameKey] ?? '';
	if (username === '') return null;
	return { usernameKey, username, passwordKey, password: build.settings[passwordKey] ?? '' };
}

function refused(code: string, message: string): Challenge {
	const text = `The app cannot answer the 401's challenge: ${message} It keeps what it has and tries again at the next refresh.`;
	return { kind: 'refused', issue: { code, severity: 'error', message: text } };
}

/** What a challenge is read from: a response's status and headers. */
export interface ChallengingResponse {
	status: number;
	headers: readonly { name: string; value: string }[];
}

/** The `WWW-Authenticate` challenges of a response, in one header value. */
function challengeOf(response: ChallengingResponse): string {
	return response.headers
		.filter((h) => h.name.toLowerCase() === 'www-authenticate')
		.map((h) => h.value)
		.join(', ');
}

/**
 * What the app does after this request's result: a 401 with a Digest challenge is answered once,
 * to the request's own URL (a challenge's `domain` never sends it elsewhere).
 */
export function answerChallenge(
	request: BuiltRequest,
	result: CallResult,
	credentials: DigestCredentials
): Challenge {
	return 'response' in result
		? answerResponse(request, result.response, credentials)
		: { kind: 'none' };
}

/** {@link answerChallenge} for a response read by any sender (`check --live`'s too). */
export function answerResponse(
	request: BuiltRequest,
	answered: ChallengingResponse,
	credentials: DigestCredentials
): Challenge {
	if (answered.status !== 401) return { kind: 'none' };
	const challenge = challengeOf(answered);
	if (!/(?:^|,)\s*Digest(?:\s|$)/i.test(challenge)) {
		const offered = challenge.trim().split(/\s/)[0] || 'none';
		return refused(
			'digest_no_challenge',
			`it offers no Digest challenge (WWW-Authenticate: ${offered.slice(0, 40)}), and Digest is the only one the app answers.`
		);
	}
	if (credentials.password === '' || credentials.password === SECRET_MASK) {
		return refused(
			'digest_no_password',
			`${credentials.passwordKey} is empty, or stored but not usable here (save the profile, then try it from the profile).`
		);
	}
	const url = new URL(request.url);
	const answer = digestAuthorization({
		challenge,
		method: request.method,
		uri: url.pathname + url.search,
		username: credentials.username,
		password: credentials.password,
		cnonce: randomBytes(16).toString('hex')
	});
	if (!answer.ok) {
		const issue = answer.issues[0];
		return refused(issue.code, issue.message);
	}
	const response = /\bresponse="([^"]*)"/.exec(answer.value)?.[1] ?? '';
	const algorithm = /\balgorithm=([^,\s]+)/.exec(answer.value)?.[1] ?? 'MD5';
	const qop = /\bqop=auth\b/.test(answer.value) ? 'qop auth' : 'no qop';
	const issue: Issue = {
		code: 'digest_answered',
		severity: 'info',
		message: `The app answers this Digest challenge once (${algorithm}, ${qop}) as ${credentials.usernameKey} “${credentials.username}”: the next exchange is its answer.`
	};
	const retry: BuiltRequest = {
		...request,
		headers: [...request.headers, { name: 'Authorization', value: answer.value }],
		substitutions: {
			...request.substitutions,
			headers: [...request.substitutions.headers, []]
		}
	};
	return { kind: 'answer', request: retry, response, issue };
}

/** The verdict on the answer's result: a second 401 means the credentials were refused. */
export function answerVerdict(result: CallResult, credentials: DigestCredentials): Issue | null {
	return 'response' in result ? statusVerdict(result.response.status, credentials) : null;
}

/** {@link answerVerdict} on the answer's status alone. */
export function statusVerdict(status: number, credentials: DigestCredentials): Issue | null {
	if (status !== 401) return null;
	return {
		code: 'digest_refused',
		severity: 'error',
		message: `The Digest answer was refused with a second 401: check ${credentials.usernameKey} and ${credentials.passwordKey}. The app does not try again before the next refresh.`
	};
}

/** The result with an issue of the challenge, the summary saying it when it is an error. */
export function withChallengeIssue(result: CallResult, issue: Issue): CallResult {
	if (!('interpretation' in result)) return result;
	const interpretation = result.interpretation;
	return {
		...result,
		interpretation: {
			...interpretation,
			success: issue.severity === 'error' ? false : interpretation.success,
			summary: issue.severity === 'error' ? issue.message : interpretation.summary,
			issues: [...interpretation.issues, issue]
		}
	};
}
