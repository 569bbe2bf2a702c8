// Plain JavaScript: besides the app, scripts/serve.js reads it, to refuse an API request whose
// declared body is over the limit with the API's own error before the kit's adapter sees it.

/**
 * The body size limit as the kit's Node adapter reads it (`BODY_SIZE_LIMIT`, 512K by default):
 * bytes, or a number with K, M or G.
 * @param {string} [value]
 * @returns {number}
 */
export function bodySizeLimit(value = process.env.BODY_SIZE_LIMIT ?? '512K') {
	const unit = { K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[value.slice(-1).toUpperCase()];
	return Number(unit ? value.slice(0, -1) : value) * (unit ?? 1);
}

/**
 * The API's answer to a body over the limit, in its one error shape.
 * @param {number} limit
 */
export function tooLargeBody(limit) {
	return JSON.stringify({
		error: {
			code: 'payload_too_large',
			message: `The body is larger than the server accepts (${limit} bytes).`
		}
	});
}
