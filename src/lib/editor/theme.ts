import { Compartment, type Extension } from '@codemirror/state';
import { EditorView, ViewPlugin } from '@codemirror/view';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Whether the browser asks for dark colours (false where there is no `matchMedia`). */
function prefersDark(): boolean {
	return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches;
}

const scheme = new Compartment();

/** Switches the editor's light/dark styles whenever the system's colour scheme changes. */
const schemeListener = ViewPlugin.define((view) => {
	if (typeof matchMedia !== 'function') return {};
	const query = matchMedia(DARK_QUERY);
	const changed = (event: MediaQueryListEvent) => {
		if (view.state.facet(EditorView.darkTheme) === event.matches) return;
		view.dispatch({ effects: scheme.reconfigure(EditorView.darkTheme.of(event.matches)) });
	};
	query.addEventListener('change', changed);
	return { destroy: () => query.removeEventListener('change', changed) };
});

/**
 * Follows `prefers-color-scheme` like the page does (app.css), so CodeMirror's own tooltips,
 * completion list and caret, and the `&dark` rules below, match the page around the editor.
 */
export function followColorScheme(): Extension {
	return [scheme.of(EditorView.darkTheme.of(prefersDark())), schemeListener];
}

/**
 * The editor in the page's colours (the custom properties of app.css, with fallbacks for an
 * editor outside the app). A theme, not a base theme, so that it wins over CodeMirror's own light
 * and dark tooltip colours.
 */
export const pageColours = EditorView.theme({
	'.cm-content': { caretColor: 'var(--fg, currentColor)' },
	'.cm-placeholder': { color: 'var(--muted, #57606a)' },
	'.cm-tooltip': {
		backgroundColor: 'var(--panel, #f6f8fa)',
		color: 'var(--fg, #1b1f24)',
		border: '1px solid var(--border, #d0d7de)',
		borderRadius: '4px',
		boxShadow: '0 2px 8px rgb(0 0 0 / 25%)'
	}
});

/**
 * Colours of placeholders by scope, in the light and the dark scheme; the body language's own
 * colours are overridden inside placeholders. Every pair of text and background here has a
 * contrast of 4.5:1 at least. Tooltips stay inside a phone's screen.
 */
export const templateTheme = EditorView.baseTheme({
	'.cm-tooltip': { maxWidth: 'min(36rem, calc(100vw - 1rem))', overflowWrap: 'anywhere' },
	'.cm-tooltip-autocomplete > ul > li': { whiteSpace: 'normal' },
	'.cm-tooltip.cm-completionInfo': { maxWidth: 'min(400px, calc(100vw - 1rem))' },
	'.cm-diagnosticText': { overflowWrap: 'anywhere' },
	'.cm-tpl-placeholder': { borderRadius: '3px', fontWeight: '600' },
	'.cm-tpl-placeholder *': { color: 'inherit !important' },
	'&light .cm-tpl-service': { color: '#0b5cad', backgroundColor: '#e3efff' },
	'&dark .cm-tpl-service': { color: '#8cc4ff', backgroundColor: '#15304d' },
	'&light .cm-tpl-account': { color: '#7a3e00', backgroundColor: '#fff0dc' },
	'&dark .cm-tpl-account': { color: '#ffc680', backgroundColor: '#4a2d0b' },
	'&light .cm-tpl-global': { color: '#1f6f3a', backgroundColor: '#e2f5e8' },
	'&dark .cm-tpl-global': { color: '#8fe0a8', backgroundColor: '#173d24' },
	'&light .cm-tpl-function': { color: '#6a2ea8', backgroundColor: '#f1e6fc' },
	'&dark .cm-tpl-function': { color: '#d4b0ff', backgroundColor: '#38204f' },
	'&light .cm-tpl-unknown': { textDecoration: 'underline wavy #c62828' },
	'&dark .cm-tpl-unknown': { textDecoration: 'underline wavy #ff8a80' },
	'.cm-tpl-hover': {
		padding: '4px 8px',
		maxWidth: 'min(28rem, calc(100vw - 2rem))',
		fontSize: '0.9rem'
	}
});
