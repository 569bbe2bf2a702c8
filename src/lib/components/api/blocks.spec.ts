import { describe, expect, it } from 'vitest';
import { blocks } from './blocks';

describe('blocks of a description', () => {
	it('are paragraphs at blank lines, and `- ` lines a list', () => {
		expect(blocks('One `a`.\n\n- first\n- second\n\nLast\nline.')).toEqual([
			{ kind: 'paragraph', text: 'One `a`.' },
			{ kind: 'list', items: ['first', 'second'] },
			{ kind: 'paragraph', text: 'Last line.' }
		]);
	});

	it('keep a text without blank lines one paragraph, a dash inside it as text', () => {
		expect(blocks('A - B')).toEqual([{ kind: 'paragraph', text: 'A - B' }]);
		expect(blocks('')).toEqual([]);
	});
});
