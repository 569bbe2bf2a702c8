import {
	PUSH_ENDPOINT_SUFFIXES,
	PUSH_SETTING_RULES,
	type PushSettingRule
} from '../catalogue/push-settings';
import type { Issue } from '../issues';
import type { ProfileDocument } from './schema';

/** A profile's push settings. */
export type PushSettings = ProfileDocument['push'];

function issueOf(
	rule: PushSettingRule,
	place?: { from: number; to: number },
	fix?: Issue['fix']
): Issue {
	return {
		code: rule.code,
		severity: rule.severity,
		message: rule.message,
		field: rule.field,
		...(place ?? {}),
		...(fix ? { fix } : {})
	};
}

function checkGatewayUrl(url: string, out: Issue[]): void {
	const R = PUSH_SETTING_RULES;
	const space = /\s/.exec(url);
	if (space) {
		const trimmed = url.trim();
		const inside = /\s/.test(trimmed);
		out.push(
			issueOf(
				R.gatewayUrlSpaces,
				{ from: space.index, to: space.index + 1 },
				inside
					? undefined
					: { label: 'Remove the spaces', from: 0, to: url.length, insert: trimmed }
			)
		);
		return;
	}
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		out.push(issueOf(R.gatewayUrlNotHttp, { from: 0, to: url.length }));
		return;
	}
	if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !/^https?:\/\//i.test(url)) {
		out.push(issueOf(R.gatewayUrlNotHttp, { from: 0, to: url.indexOf(':') + 1 || url.length }));
		return;
	}
	const mark = url.search(/[?#]/);
	if (mark !== -1) {
		out.push(
			issueOf(
				R.gatewayUrlQuery,
				{ from: mark, to: url.length },
				{ label: 'Remove the query', from: mark, to: url.length, insert: '' }
			)
		);
		return;
	}
	const bare = url.replace(/\/+$/, '');
	const suffix = PUSH_ENDPOINT_SUFFIXES.find((s) => bare.toLowerCase().endsWith(s));
	if (suffix) {
		const from = bare.length - suffix.length;
		out.push(
			issueOf(
				R.gatewayUrlEndpoint,
				{ from, to: url.length },
				{ label: `Remove ${url.slice(from)}`, from, to: url.length, insert: '' }
			)
		);
	}
}

/**
 * The problems of a profile's push settings, each on its field with its place in the text and,
 * where there is one, a fix. Settings left empty are no problem: a profile need not send pushes.
 * Given the team's sandboxes and this app's origin, an address of a sandbox that no longer
 * answers is warned of too.
 */
export function checkPushSettings(
	push: PushSettings,
	gateways?: { sandboxes: readonly SandboxChoice[]; origin: string }
): Issue[] {
	const out: Issue[] = [];
	const R = PUSH_SETTING_RULES;
	if (push.gatewayUrl !== '') checkGatewayUrl(push.gatewayUrl, out);
	if (
		gateways &&
		gatewayOfUrl(push.gatewayUrl, gateways.sandboxes, gateways.origin).kind === 'stale'
	) {
		out.push(issueOf(R.gatewayUrlStaleSandbox, { from: 0, to: push.gatewayUrl.length }));
	}
	if (push.appId !== '' && push.appId !== push.appId.trim()) {
		const lead = push.appId.length - push.appId.trimStart().length;
		const place =
			lead > 0
				? { from: 0, to: lead }
				: { from: push.appId.trimEnd().length, to: push.appId.length };
		out.push(
			issueOf(R.appIdSpaces, place, {
				label: 'Remove the spaces',
				from: 0,
				to: push.appId.length,
				insert: push.appId.trim()
			})
		);
	}
	if (push.gatewayUrl !== '' && push.appId.trim() === '') out.push(issueOf(R.appIdMissing));
	if (push.gatewayUrl === '' && push.appId.trim() !== '') out.push(issueOf(R.gatewayUrlMissing));
	return out;
}

export { hasPushSettings } from './push-presence';

/** A push sandbox as the push settings page offers it. */
export interface SandboxChoice {
	id: string;
	name: string;
	pushUrl: string;
}

/**
 * What a gateway URL is among the team's sandboxes: one of them (`sandbox`); an address of this
 * app's sandbox gateway that none of them has any more, because its key was rotated or it was
 * deleted (`stale`); or any other gateway (`other`). `origin` is this app's origin.
 */
export function gatewayOfUrl(
	url: string,
	sandboxes: readonly SandboxChoice[],
	origin: string
): { kind: 'sandbox'; sandbox: SandboxChoice } | { kind: 'stale' } | { kind: 'other' } {
	const bare = url.trim().replace(/\/+$/, '');
	if (bare === '') return { kind: 'other' };
	const sandbox = sandboxes.find((s) => s.pushUrl.replace(/\/+$/, '') === bare);
	if (sandbox) return { kind: 'sandbox', sandbox };
	if (bare.startsWith(`${origin.replace(/\/+$/, '')}/sandbox/`)) return { kind: 'stale' };
	return { kind: 'other' };
}
