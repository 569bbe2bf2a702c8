import { EditorState, type TransactionSpec } from '@codemirror/state';
import type { ViewUpdate } from '@codemirror/view';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as settling from './text-after';
import { settleAfterFrame, textAfter } from './text-after';

/** The update a view gets for one transaction on `doc`. */
function update(doc: string, spec: TransactionSpec): ViewUpdate {
	const startState = EditorState.create({ doc });
	const tr = startState.update(spec);
	return { startState, state: tr.state, changes: tr.changes } as unknown as ViewUpdate;
}

describe('textAfter', () => {
	it('puts one change into the text before it', () => {
		const typed = update('ab\ncd', { changes: { from: 4, to: 5, insert: 'Q\n' } });
		expect(textAfter('ab\ncd', true, typed)).toBe('ab\ncQ\n');
		const cut = update('ab\ncd', { changes: { from: 0, to: 5 } });
		expect(textAfter('ab\ncd', true, cut)).toBe('');
	});

	it('reads the document out when the text before is not known to be its own, or changes are several', () => {
		// A wrong text before: only `same` says whether it is the document's.
		const typed = update('abc', { changes: { from: 1, insert: 'x' } });
		expect(textAfter('zzz', false, typed)).toBe('axbc');
		expect(textAfter(undefined, true, typed)).toBe('axbc');
		const several = update('abcdef', {
			changes: [
				{ from: 1, insert: 'x' },
				{ from: 4, insert: 'y' }
			]
		});
		expect(textAfter('abcdef', true, several)).toBe('axbcdyef');
	});

	it('is the document after any change, in any text, line breaks of any kind included', () => {
		fc.assert(
			fc.property(
				fc.string({ unit: 'grapheme', maxLength: 60 }),
				fc.nat(),
				fc.nat(),
				fc.constantFrom('', 'x', '\n', '\r\n', 'a\rb', '%sms_to%', '😀'),
				(doc, a, b, insert) => {
					const state = EditorState.create({ doc });
					const length = state.doc.length;
					const [from, to] = [a % (length + 1), b % (length + 1)].sort((x, y) => x - y);
					const change = update(doc, { changes: { from, to, insert } });
					expect(textAfter(state.doc.toString(), true, change)).toBe(change.state.doc.toString());
				}
			)
		);
	});
});

describe('settleAfterFrame', () => {
	/** The frames asked for, to be run by the test, and its timers faked. */
	function stubFrames(): FrameRequestCallback[] {
		vi.useFakeTimers();
		const frames: FrameRequestCallback[] = [];
		vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
			frames.push(callback);
			return frames.length;
		});
		return frames;
	}
	const large = (first: string) => first + 'x'.repeat(70_000);

	afterEach(() => {
		vi.unstubAllGlobals();
		vi.useRealTimers();
	});

	it('reads the latest large text once, after the next frame, however many came before it', () => {
		const frames = stubFrames();
		settleAfterFrame(large('a'));
		settleAfterFrame(large('b'));
		settleAfterFrame('c');
		expect(frames).toHaveLength(1);
		frames[0](0);
		expect(settling.settledCode).not.toBe('b'.charCodeAt(0));
		vi.runAllTimers();
		expect(settling.settledCode).toBe('b'.charCodeAt(0));
		// Asked again for the next text.
		settleAfterFrame(large('d'));
		expect(frames).toHaveLength(2);
		frames[1](0);
		vi.runAllTimers();
		expect(settling.settledCode).toBe('d'.charCodeAt(0));
	});

	it('settles the latest text of each slot in the one frame asked for', () => {
		const frames = stubFrames();
		settleAfterFrame(large('a'));
		settleAfterFrame(large('b'), 'body');
		settleAfterFrame(large('c'), 'body');
		expect(frames).toHaveLength(1);
		frames[0](0);
		vi.runAllTimers();
		expect(settling.settledCode).toBe('a'.charCodeAt(0) + 'c'.charCodeAt(0));
	});

	it('leaves a short text alone, and does nothing where there are no frames', () => {
		const frames: FrameRequestCallback[] = [];
		vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) =>
			frames.push(callback)
		);
		settleAfterFrame('short');
		expect(frames).toHaveLength(0);
		vi.unstubAllGlobals();
		expect(() => settleAfterFrame('y'.repeat(70_000))).not.toThrow();
	});
});
