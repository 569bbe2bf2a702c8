import type { Issue } from '../issues';
import type { XmlElement } from '../xml/element';
import { childNamed, parseXml } from '../xml/parse';
import type { ElementSpan } from '../xml/spans';

/**
 * The answer of the external provisioning call the SSO server makes: an `<account>` document.
 * Its `username` and `password` tags fill the legacy `%username%` and `%password%` of External
 * Authentication; without them the device credentials are used.
 */

/** What the SSO server takes from the account document. */
export interface ProvisioningAccount {
	/** The `username` tag, when present. */
	username: string | null;
	/** Whether a `password` tag is present (its value is never repeated). */
	hasPassword: boolean;
	summary: string;
}

/** The `username` and `password` tags of an account document (null when absent or empty). */
export interface AccountTags {
	username: string | null;
	password: string | null;
}

/**
 * The account element of an external provisioning answer: the root `<account>`, or the
 * `<account>` of a `<provisioning>` document, with where it is; null for any other document.
 */
export function accountElementOf(
	root: XmlElement,
	span: ElementSpan
): { element: XmlElement; span: ElementSpan } | null {
	if (root.name === 'account') return { element: root, span };
	if (root.name !== 'provisioning') return null;
	const index = root.children.findIndex((c) => c.name === 'account');
	return index === -1 ? null : { element: root.children[index], span: span.children[index] };
}

/** Why a document whose root is `name` is not an external provisioning answer. */
export function notAccountMessage(name: string): string {
	return `The XML root element is ${name}; an external provisioning answer is an account document (<account>…</account>).`;
}

/**
 * The tags of an account document (`<account>`, or `<provisioning><account>`); an empty body has
 * none. Null when it cannot be parsed or is no account document: the issue says why.
 */
export function readAccountTags(body: string, issues: Issue[]): AccountTags | null {
	if (body.trim() === '') return { username: null, password: null };
	const parsed = parseXml(body);
	if (!parsed.ok) {
		issues.push({ ...parsed.issue, severity: 'warning' });
		return null;
	}
	const account = accountElementOf(parsed.root, parsed.span);
	if (!account) {
		issues.push({
			code: 'xml_root_not_account',
			severity: 'warning',
			message: notAccountMessage(parsed.root.name)
		});
		return null;
	}
	const root = account.element;
	return {
		username: childNamed(root, 'username')?.text.trim() || null,
		password: childNamed(root, 'password')?.text || null
	};
}

/** Reads the account document; null when it cannot be parsed (the answer is then ignored). */
export function readProvisioningAccount(body: string, issues: Issue[]): ProvisioningAccount | null {
	if (body.trim() === '') {
		return {
			username: null,
			hasPassword: false,
			summary:
				'The answer is empty: %username% and %password% are filled from the device credentials.'
		};
	}
	const tags = readAccountTags(body, issues);
	if (!tags) return null;
	const { username } = tags;
	const hasPassword = tags.password !== null;
	const user = username
		? `%username% is “${username}” (from the username tag)`
		: '%username% comes from the device credentials';
	const password = hasPassword
		? '%password% is the password tag’s value'
		: '%password% comes from the device credentials';
	return {
		username,
		hasPassword,
		summary: `The account document is accepted: ${user}; ${password}.`
	};
}
