import QRCode from 'qrcode';

/**
 * A QR code drawn by the app itself: the dark modules as one SVG path, which the page binds to
 * a `<path>` element's `d` attribute (no image from another service, no inline script, no raw
 * HTML inserted, nothing for the browser to load). Each run of dark modules in a row is one
 * rectangle.
 */
export interface QrPath {
	/** Modules per side, without the quiet zone. */
	size: number;
	/** The path's `d`, in modules, offset by the four-module quiet zone. */
	d: string;
}

/** The quiet zone around the code, in modules, as the standard asks. */
export const QR_MARGIN = 4;

export function qrPath(text: string): QrPath {
	const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
	const { size, data } = modules;
	const parts: string[] = [];
	for (let y = 0; y < size; y++) {
		let x = 0;
		while (x < size) {
			if (!data[y * size + x]) {
				x++;
				continue;
			}
			const start = x;
			while (x < size && data[y * size + x]) x++;
			parts.push(`M${start + QR_MARGIN} ${y + QR_MARGIN}h${x - start}v1h-${x - start}z`);
		}
	}
	return { size, d: parts.join('') };
}
