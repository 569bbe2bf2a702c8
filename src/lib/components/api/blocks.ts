/**
 * A description of the API document as blocks: paragraphs split at blank lines, and a paragraph
 * whose every line starts with `- ` as a list (the little Markdown the descriptions use).
 */
export type Block = { kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] };

export function blocks(text: string): Block[] {
	return text
		.split(/\n\s*\n/)
		.map((part) => part.trim())
		.filter((part) => part !== '')
		.map((part): Block => {
			const lines = part.split('\n');
			if (lines.every((line) => line.startsWith('- '))) {
				return { kind: 'list', items: lines.map((line) => line.slice(2)) };
			}
			return { kind: 'paragraph', text: lines.join(' ') };
		});
}
