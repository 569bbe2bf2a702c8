import { EditorView } from '@codemirror/view';

/** Colours of placeholders by scope; the body language's own colours are overridden inside. */
export const templateTheme = EditorView.baseTheme({
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
	'.cm-tpl-unknown': { textDecoration: 'underline wavy #c62828' },
	'.cm-tpl-hover': { padding: '4px 8px', maxWidth: '28rem', fontSize: '0.85rem' }
});
