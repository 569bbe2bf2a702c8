// Its own module: the strict reading builds these elements and the parser hands them out.
/** An element: its name, attributes, child elements in order and its own text. */
export interface XmlElement {
	name: string;
	attributes: Record<string, string>;
	children: XmlElement[];
	/** The element's text content (its direct text nodes joined), entity references decoded. */
	text: string;
}
