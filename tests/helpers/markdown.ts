/** A Markdown table's rows as trimmed cells (the padding prettier adds left out). */
export function tableCells(table: string): string[][] {
	return table
		.trim()
		.split('\n')
		.map((line) =>
			line
				.split('|')
				.slice(1, -1)
				.map((cell) => cell.trim().replace(/^-+$/, '-'))
		);
}
