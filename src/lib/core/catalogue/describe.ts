import type { Service } from './schema';

/** Plain-language descriptions of catalogue rules, for pages and documents. */

/** How the service's method is chosen. */
export function describeMethod(service: Service): string {
	const rule = service.method;
	if (service.endpoint) return `${service.endpoint.method} {push_url}${service.endpoint.path}`;
	if (rule.kind === 'fixed') return `Always ${rule.method}, with a body built from the post data.`;
	if (rule.kind === 'byBody') return 'GET when the post data is empty; POST when it is filled in.';
	return `${rule.methods.join(', ')} by the method setting; unset, GET without post data and POST with it. Post data is not sent with ${rule.bodyIgnoredFor.join(' or ')}.`;
}

/** The content type rule. */
export function describeContentType(service: Service): string {
	const { default: fallback, allowed } = service.contentType;
	const parts: string[] = [];
	parts.push(fallback ? `Default ${fallback}.` : 'Default not shown in the contract.');
	if (allowed) parts.push(`Allowed: ${allowed.join(', ')}.`);
	return parts.join(' ');
}

/** The success rule. */
export function describeSuccess(service: Service): string {
	const status = service.success.status;
	const base = status.kind === 'exact' ? `Only status ${status.status}` : 'Any 2xx status';
	if (service.success.body === 'validOrAbsent') return `${base}, with a valid or absent body.`;
	if (service.success.body === 'matchesContentType') {
		return `${base}, with a body that matches its Content-Type.`;
	}
	return `${base}.`;
}

/** What the caller does when the call fails. */
export function describeFailure(service: Service): string {
	const chars = service.limits.shownBodyChars;
	switch (service.failure) {
		case 'showMessageOrBodyPrefix':
			return `The user is shown the body's message field, else its first ${chars} characters.`;
		case 'showMessageOrGeneric':
			return "The user is shown the body's message field, else a generic error message.";
		case 'silentlyIgnore':
			return 'Silently ignored: nothing is shown.';
		case 'ignoreAndRetry':
			return 'Silently ignored, but the call counts as failed and is retried later.';
		case 'wizardMessageBox':
			return `The wizard stays on page 1 and shows the message field, else the first ${chars} characters of the body, in a message box.`;
		case 'providerDecides':
			return 'The provider reads the status integer and response string of each push.';
	}
}
