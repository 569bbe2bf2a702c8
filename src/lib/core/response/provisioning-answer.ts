import { isSecretAccountKey } from '../catalogue/account-keys';
import { settingLabel } from '../catalogue/labels';
import { deprecatedXmlKeyNamed, xmlKeyNamed } from '../catalogue/placement';
import type { ProfileDocument } from '../profile/schema';
import { SECRET_MASK } from '../profile/secrets';
import { declaredAccountKeys } from '../xml/account';
import type { XmlElement } from '../xml/element';
import { parseXml } from '../xml/parse';
import type { ElementSpan } from '../xml/spans';
import {
	headerOf,
	isSuccessStatus,
	longText,
	quoted,
	readAnswerBody,
	ruleIssue,
	type AnswerInput,
	type ReaderIssue,
	type RuleSource
} from './answer';
import { messageOf } from './body';
import { accountElementOf, notAccountMessage } from './provisioning';

/**
 * The initial provisioning answer, read as the app reads it at sign-in: a 2xx `<account>`
 * document whose plain elements are merged into the app's settings, or a non-2xx that stops
 * provisioning with the text of its `<message>` or the app's generic error.
 */

/** The documentation of external provisioning. */
export const PROVISIONING_DOCS: RuleSource = {
	kind: 'docs',
	ref: 'provisioning/external_provisioning'
};

/** The account's title, which providers found the app needs. */
const TITLE_RULE: RuleSource = { kind: 'providers', ref: 'the app needs a title for the account' };

/** What the generic web-service key rule names: a prefix and one of these suffixes. */
const SERVICE_KEY =
	/^[a-z][A-Za-z0-9]*(Url|PostData|ContentType|Method|CustomHeaders|AuthUsername|AuthPassword|Timeout)$/;

/** The text shown when the answer has no message. */
export const GENERIC_ERROR = '(the app’s generic error message)';

/** One setting of the answer, as the app merges it. */
export interface ProvisioningSetting {
	/** The element name. */
	key: string;
	/** Its text; the mask for a credential; the element as written when it has structure. */
	value: string;
	line: number;
	/** A credential (`password`, `…AuthPassword`): its value is never repeated. */
	secret: boolean;
	/** A web service's key (`genericSmsFetchUrl`): readable into a profile. */
	webService: boolean;
}

/** What the app does with an initial provisioning answer. */
export interface ProvisioningAnswerReading {
	outcome: 'merged' | 'failed';
	/** The text the app shows when provisioning fails, or null. */
	shownToUser: string | null;
	settings: ProvisioningSetting[];
	/** The names of the web-service keys among the settings. */
	webServiceKeys: string[];
	/**
	 * The web-service elements, as written, as an XML fragment for the import review (which then
	 * merges them into a profile, as the app does); credentials left out. Null when there is none.
	 */
	importFragment: string | null;
	/** One sentence: what the app does. */
	verdict: string;
	issues: ReaderIssue[];
}

/** Counts lines forward through a text, for places given in increasing order. */
function lineCounter(text: string): (offset: number) => number {
	let line = 1;
	let at = 0;
	return (offset) => {
		for (let i = text.indexOf('\n', at); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
			line++;
			at = i + 1;
		}
		at = Math.max(at, offset);
		return line;
	};
}

function readSettings(
	account: { element: XmlElement; span: ElementSpan },
	source: string,
	issues: ReaderIssue[]
): ProvisioningSetting[] {
	const lineAt = lineCounter(source);
	return account.element.children.map((child, i) => {
		const span = account.span.children[i];
		const structured = child.children.length > 0 || Object.keys(child.attributes).length > 0;
		const secret = isSecretAccountKey(child.name);
		const value = secret
			? SECRET_MASK
			: structured
				? source.slice(span.start, span.end)
				: child.text.trim();
		const limit = child.name === 'title' ? 100 : 10_000;
		const long = secret ? null : longText(value, limit, child.name, `account/${child.name}`);
		if (long) issues.push(long);
		const webService = xmlKeyNamed(child.name) !== undefined || SERVICE_KEY.test(child.name);
		return { key: child.name, value, line: lineAt(span.start), secret, webService };
	});
}

function titleIssue(settings: ProvisioningSetting[]): ReaderIssue | null {
	const title = settings.find((s) => s.key === 'title');
	if (title && title.value !== '') return null;
	const [code, said] = title
		? ['account_title_empty', `<title> (line ${title.line}) is empty`]
		: ['account_title_missing', 'The account has no <title>'];
	const message = `${said}: the app needs a title to name the account, and providers found it refuses an empty one.`;
	return ruleIssue(TITLE_RULE, code, 'warning', message, 'account/title');
}

/** The web-service elements as written (credentials left out), or null when there is none. */
function fragmentOf(
	account: { element: XmlElement; span: ElementSpan },
	settings: ProvisioningSetting[],
	source: string,
	issues: ReaderIssue[]
): string | null {
	const kept = settings.flatMap((s, i) => (s.webService && !s.secret ? [i] : []));
	const left = settings.filter((s) => s.webService && s.secret).map((s) => `<${s.key}>`);
	if (left.length) {
		const message = `${left.join(', ')} ${left.length > 1 ? 'are credentials' : 'is a credential'} of this one account: not offered for import into a profile, which serves every account.`;
		issues.push(
			ruleIssue(PROVISIONING_DOCS, 'provisioning_credential_not_imported', 'info', message)
		);
	}
	if (kept.length === 0) return null;
	const spans = account.span.children;
	return kept.map((i) => source.slice(spans[i].start, spans[i].end)).join('\n');
}

function failed(
	issues: ReaderIssue[],
	verdict: string,
	shownToUser: string = GENERIC_ERROR
): ProvisioningAnswerReading {
	const none = { settings: [], webServiceKeys: [], importFragment: null };
	return { outcome: 'failed', shownToUser, verdict, issues, ...none };
}

/** The answer of a non-2xx status: its `<message>`, else the generic error. */
function refusal(input: AnswerInput, issues: ReaderIssue[]): ProvisioningAnswerReading {
	const message = messageOf(input.body, headerOf(input.headers, 'content-type'));
	if (message !== undefined && message !== '') {
		return failed(issues, `Provisioning stops; the app shows ${quoted(message)}.`, message);
	}
	return failed(
		issues,
		`HTTP ${input.status} without a <message>: provisioning stops with the app’s generic error message.`
	);
}

/** Reads an initial provisioning answer. */
export function readProvisioningAnswer(input: AnswerInput): ProvisioningAnswerReading {
	const issues: ReaderIssue[] = [];
	if (!isSuccessStatus(input.status)) return refusal(input, issues);
	const stops = 'provisioning stops with the app’s generic error message';
	const body = readAnswerBody(
		input.body,
		headerOf(input.headers, 'content-type'),
		PROVISIONING_DOCS
	);
	if (body.kind === 'empty') {
		const message = 'The answer is empty: a 2xx answer is an <account> document.';
		issues.push(ruleIssue(PROVISIONING_DOCS, 'provisioning_answer_empty', 'error', message));
		return failed(issues, `The answer is empty: ${stops}.`);
	}
	if (body.kind === 'unreadable') {
		issues.push(body.issue);
		const what = body.issue.code === 'answer_html' ? 'an HTML page' : 'not readable XML';
		return failed(issues, `The answer is ${what}, not an account document: ${stops}.`);
	}
	if (body.kind === 'json') {
		const message = 'The answer is JSON: a 2xx answer is an <account> XML document.';
		issues.push(ruleIssue(PROVISIONING_DOCS, 'provisioning_answer_json', 'error', message));
		return failed(issues, `The answer is JSON, not an account document: ${stops}.`);
	}
	const account = accountElementOf(body.root, body.span);
	if (!account) {
		const [code, message] =
			body.root.name === 'message'
				? [
						'provisioning_message_with_2xx',
						'The answer is a <message> with a 2xx status: the app shows a message only with a non-2xx status, and this is no account document.'
					]
				: ['xml_root_not_account', notAccountMessage(body.root.name)];
		issues.push(ruleIssue(PROVISIONING_DOCS, code, 'error', message, 'line 1, column 1'));
		return failed(issues, `The answer is no account document: ${stops}.`);
	}
	const settings = readSettings(account, body.source, issues);
	const title = titleIssue(settings);
	if (title) issues.unshift(title);
	const importFragment = fragmentOf(account, settings, body.source, issues);
	const named = settings.find((s) => s.key === 'title')?.value;
	const count = `${settings.length.toLocaleString('en')} setting${settings.length === 1 ? '' : 's'}`;
	return {
		outcome: 'merged',
		shownToUser: null,
		settings,
		webServiceKeys: settings.filter((s) => s.webService).map((s) => s.key),
		importFragment,
		verdict: `The app merges ${count} into its own${named ? `; the account is ${quoted(named)}` : ''}.`,
		issues
	};
}

/**
 * The credentials an account answer carries (`password`, `…AuthPassword`), as written and as
 * read, so that what shows or keeps the raw answer masks them; none for any other answer.
 */
export function answerCredentials(body: string): string[] {
	const parsed = parseXml(body);
	const account = parsed.ok ? accountElementOf(parsed.root, parsed.span) : null;
	if (!parsed.ok || !account) return [];
	const spans = account.span.children;
	return account.element.children.flatMap((child, i) => {
		if (!isSecretAccountKey(child.name) || child.children.length > 0) return [];
		const inner = parsed.source.slice(spans[i].start, spans[i].end);
		const written = inner.slice(inner.indexOf('>') + 1, inner.lastIndexOf('<'));
		return [child.text, written].filter((v) => v.trim() !== '');
	});
}

/**
 * The elements the import fragment offers (web-service keys, credentials left out), named for a
 * sentence: the first `count` of them, and how many more.
 */
export function offeredKeys(
	settings: readonly ProvisioningSetting[],
	count = 10
): { keys: string[]; named: string } {
	const keys = settings.filter((s) => s.webService && !s.secret).map((s) => s.key);
	const more = keys.length > count ? ` and ${(keys.length - count).toLocaleString('en')} more` : '';
	const named =
		keys
			.slice(0, count)
			.map((k) => `<${k}>`)
			.join(', ') + more;
	return { keys, named };
}

/** How a setting of the answer compares with the profile's. */
export interface SettingDifference {
	key: string;
	/** The setting in the catalogue's words, or its element. */
	label: string;
	/** `secret`: a credential, never compared nor shown. */
	kind: 'adds' | 'overrides' | 'repeats' | 'secret';
	answer: string;
	/** The profile's value, or null when the profile has none. */
	profile: string | null;
}

/**
 * How each setting of the answer compares with a profile's XML settings (its catalogue settings
 * and its kept account elements). Settings only the profile has are not listed: the app merges
 * the answer, so they stay as they are.
 */
export function diffAgainstProfile(
	settings: readonly ProvisioningSetting[],
	document: ProfileDocument
): SettingDifference[] {
	const services = document.services as Record<string, Record<string, string> | undefined>;
	const declared = new Map(declaredAccountKeys(document.preservedXml).map((d) => [d.name, d]));
	return settings.map(({ key, value, secret }) => {
		const placed = xmlKeyNamed(key);
		const old = placed ? undefined : deprecatedXmlKeyNamed(key);
		const service = (placed ?? old)?.service.id;
		const stored = placed ? key : old?.deprecated.replacement;
		const label = service && stored ? settingLabel(service, stored) : `<${key}>`;
		const own = service && stored ? services[service] : undefined;
		const profile =
			own && Object.hasOwn(own, stored!) ? own[stored!] : (declared.get(key)?.value ?? null);
		if (secret || declared.get(key)?.secret) {
			return { key, label, kind: 'secret', answer: SECRET_MASK, profile: null };
		}
		const kind = profile === null ? 'adds' : profile === value ? 'repeats' : 'overrides';
		return { key, label, kind, answer: value, profile };
	});
}
