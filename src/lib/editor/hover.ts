import { StateEffect, StateField, type EditorState, type Extension } from '@codemirror/state';
import { EditorView, hoverTooltip, keymap, showTooltip, type Tooltip } from '@codemirror/view';
import type { PlaceholderMark } from '$lib/core/template';
import { ENCODING_LABELS } from '$lib/core/template';
import { describeSource, sourceOf } from '$lib/core/catalogue/sources';
import { templateConfig, type TemplateEditorConfig } from './config';
import { placeholderAt } from './placeholders';

/**
 * What a placeholder is, its sample value and the encoding it gets here: shown on mouse hover,
 * and from the keyboard (Ctrl/Cmd+I or F1) for the placeholder at the cursor, where it is also
 * announced to screen readers.
 */

/** The explanation of a placeholder: a title (`%sms_to%`) and its lines, as plain text. */
export function placeholderInfo(
	config: TemplateEditorConfig,
	mark: PlaceholderMark
): { title: string; lines: string[] } {
	const lines: string[] = [];
	if (mark.scope === 'function') {
		lines.push('SHA-1 (lowercase hex) of the expanded inner value.');
	} else if (mark.variable) {
		lines.push(mark.variable.meaning);
		const sample = mark.variable.secret
			? 'secret'
			: typeof mark.variable.sample === 'string'
				? mark.variable.sample
				: JSON.stringify(mark.variable.sample);
		lines.push(`Sample: ${sample}`);
		lines.push(describeSource(sourceOf(mark.variable)));
	} else {
		lines.push(`Not known to ${config.service.title}.`);
	}
	lines.push(`Here: ${ENCODING_LABELS[config.encoding]}.`);
	return { title: `%${mark.key}%`, lines };
}

function infoDom(info: { title: string; lines: string[] }): HTMLElement {
	const dom = document.createElement('div');
	dom.className = 'cm-tpl-hover';
	dom.setAttribute('role', 'tooltip');
	const title = document.createElement('strong');
	title.textContent = info.title;
	dom.append(title);
	for (const text of info.lines) {
		const line = document.createElement('div');
		line.textContent = text;
		dom.append(line);
	}
	return dom;
}

function tooltipFor(state: EditorState, pos: number): Tooltip | null {
	const config = state.facet(templateConfig);
	const mark = placeholderAt(state, pos);
	if (!config || !mark) return null;
	return {
		pos: mark.from,
		end: mark.to,
		above: true,
		create: () => ({ dom: infoDom(placeholderInfo(config, mark)) })
	};
}

/** Hover on a placeholder: what it is, its sample value, and the encoding it gets here. */
export function placeholderHover(): Extension {
	return hoverTooltip((view, pos) => tooltipFor(view.state, pos));
}

const setKeyboardInfo = StateEffect.define<Tooltip | null>();

/** The explanation opened from the keyboard; closed by Escape, an edit or a cursor move. */
const keyboardInfo = StateField.define<Tooltip | null>({
	create: () => null,
	update(value, tr) {
		for (const effect of tr.effects) if (effect.is(setKeyboardInfo)) return effect.value;
		return tr.docChanged || tr.selection ? null : value;
	},
	provide: (field) => showTooltip.from(field)
});

/**
 * Command: explains the placeholder at the cursor in a tooltip and announces it to screen
 * readers; with no placeholder there, says so. Answers true (the key is taken) in both cases.
 */
export function explainPlaceholder(view: EditorView): boolean {
	const config = view.state.facet(templateConfig);
	if (!config) return false;
	const pos = view.state.selection.main.head;
	const mark = placeholderAt(view.state, pos);
	const info = mark
		? placeholderInfo(config, mark)
		: {
				title: 'No placeholder at the cursor',
				lines: ['Put the cursor inside a %name% to have it explained.']
			};
	const tooltip: Tooltip = {
		pos: mark?.from ?? pos,
		end: mark?.to,
		above: true,
		create: () => ({ dom: infoDom(info) })
	};
	const text = `${info.title}: ${info.lines.join(' ')}`;
	view.dispatch({ effects: [setKeyboardInfo.of(tooltip), EditorView.announce.of(text)] });
	return true;
}

/** Command: closes the keyboard explanation; false when none is open (Escape goes on). */
export function closePlaceholderInfo(view: EditorView): boolean {
	if (!view.state.field(keyboardInfo, false)) return false;
	view.dispatch({ effects: setKeyboardInfo.of(null) });
	return true;
}

/** The keys that explain the placeholder at the cursor (Ctrl/Cmd+I, F1) and close it (Escape). */
export function placeholderInfoKeys(): Extension {
	return [
		keyboardInfo,
		keymap.of([
			{ key: 'Mod-i', run: explainPlaceholder, preventDefault: true },
			{ key: 'F1', run: explainPlaceholder, preventDefault: true },
			{ key: 'Escape', run: closePlaceholderInfo }
		])
	];
}
