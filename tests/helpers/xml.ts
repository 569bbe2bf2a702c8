import { DOMParser } from '@xmldom/xmldom';

/**
 * Reads XML with a second parser, independent of the app's own reading (`@xmldom/xmldom`), and
 * throws on any warning or error it reports: what the app exports must be read by any parser.
 */
export function readBySecondParser(xml: string): Document {
	const problems: string[] = [];
	let document: unknown = null;
	try {
		document = new DOMParser({
			onError: (level, message) => {
				problems.push(`${level}: ${message}`);
			}
		}).parseFromString(xml, 'text/xml');
	} catch (error) {
		problems.push(String(error));
	}
	if (problems.length > 0) {
		throw new Error(`A second XML parser refuses the XML:\n${problems.join('\n')}\n${xml}`);
	}
	return document as unknown as Document;
}
