/**
 * What a page shows when single sign-on went wrong or refused a user, and what the audit entry
 * records (`reason`): shared by the server, which makes it, and the page, which shows it.
 */
export interface SignInProblem {
	status: number;
	/** A short code, in the audit entry. */
	reason: string;
	title: string;
	message: string;
	/** With status 429: the seconds to wait (the answer's `Retry-After`). */
	retryAfter?: number;
	/** With a refusal for groups: what was expected and what came. */
	roles?: {
		claim: string;
		expected: { role: 'admin' | 'editor' | 'viewer'; groups: string[] }[];
		received: { shown: string[]; total: number } | null;
		overage: boolean;
		unreadable: string | null;
	};
}
