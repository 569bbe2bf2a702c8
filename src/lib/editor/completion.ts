import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { describeSource, sourceOf, vocabularyOf } from '$lib/core/catalogue';
import { tokenize } from '$lib/core/template';
import { templateConfig } from './config';

/**
 * Completion after `%`: exactly the names this service's caller fills, with their meaning and a
 * sample value. Accepting one writes the whole placeholder, closing `]` and `%` included.
 */

function sampleText(sample: unknown, secret: boolean): string {
	if (secret) return 'secret';
	if (typeof sample === 'string') return sample;
	return JSON.stringify(sample);
}

/** The completion source of template editors. */
export function templateCompletions(context: CompletionContext): CompletionResult | null {
	const config = context.state.facet(templateConfig);
	if (!config) return null;
	const before = context.matchBefore(/%(?:account\[)?[A-Za-z0-9_.-]*$/);
	if (!before) return null;
	// The closing `%` of a placeholder is not the start of a new one.
	const line = context.state.doc.lineAt(before.from);
	const upTo = before.from - line.from + 1;
	const closes = tokenize(line.text.slice(0, upTo)).tokens.some(
		(t) => t.kind === 'placeholder' && t.to === upTo
	);
	if (closes && before.to === before.from + 1) return null;
	const options: Completion[] = vocabularyOf(config.service, config.accountKeys).entries.map(
		(entry, i) => ({
			label: `%${entry.key}%`,
			apply: `%${entry.key}%`,
			detail: entry.scope,
			type:
				entry.scope === 'service'
					? 'variable'
					: entry.scope === 'account'
						? 'property'
						: 'constant',
			info: `${entry.variable.meaning}\nSample: ${sampleText(entry.variable.sample, entry.variable.secret)}\n${describeSource(sourceOf(entry.variable))}`,
			// Services' own names first, then the account's, each in the catalogue's order (the most
			// used first: `account[username]` before `account[userCallerId]`).
			boost: (entry.scope === 'service' ? 2 : entry.scope === 'account' ? 1 : 0) - i / 1000
		})
	);
	const hasPassword = options.some((o) => o.label === '%account[password]%');
	if (hasPassword)
		options.push({
			label: '%sha1(%account[password]%)%',
			apply: '%sha1(%account[password]%)%',
			detail: 'function',
			type: 'function',
			info: 'SHA-1 (lowercase hex) of the password: safe to send where the password itself is not.',
			boost: -1
		});
	// What already closes the placeholder after the cursor is replaced, not left behind: the `]`
	// the bracket closer typed after `%account[`, and the closing `%`.
	const after = context.state.sliceDoc(context.pos, context.pos + 2);
	const inAccount = before.text.startsWith('%account[');
	const closing =
		inAccount && after.startsWith(']') ? (after === ']%' ? 2 : 1) : after[0] === '%' ? 1 : 0;
	return {
		from: before.from,
		to: context.pos + closing,
		options,
		validFor: /^%(?:account\[)?[A-Za-z0-9_.-]*$/
	};
}
