import template from '../../../error.html?raw';

const ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;'
};

/**
 * A whole HTML page for an error answered before the app renders anything (a page the user's
 * role does not allow): the same template, header and colours as the kit's own error answers.
 */
export function errorPage(status: number, message: string): Response {
	const html = template.replaceAll('%sveltekit.status%', String(status)).replaceAll(
		'%sveltekit.error.message%',
		message.replace(/[&<>"']/g, (c) => ESCAPES[c])
	);
	return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}
