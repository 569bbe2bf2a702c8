import { hoverTooltip } from '@codemirror/view';
import { ENCODING_LABELS } from '$lib/core/template';
import { templateConfig } from './config';
import { placeholderAt } from './placeholders';

/** Hover on a placeholder: what it is, its sample value, and the encoding it gets here. */
export function placeholderHover() {
	return hoverTooltip((view, pos) => {
		const config = view.state.facet(templateConfig);
		const mark = placeholderAt(view.state, pos);
		if (!config || !mark) return null;
		return {
			pos: mark.from,
			end: mark.to,
			above: true,
			create() {
				const dom = document.createElement('div');
				dom.className = 'cm-tpl-hover';
				const title = document.createElement('strong');
				title.textContent = `%${mark.key}%`;
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
				} else {
					lines.push(`Not known to ${config.service.title}.`);
				}
				lines.push(`Here: ${ENCODING_LABELS[config.encoding]}.`);
				dom.append(title);
				for (const text of lines) {
					const p = document.createElement('div');
					p.textContent = text;
					dom.append(p);
				}
				return { dom };
			}
		};
	});
}
