/**
 * MD5 and SHA-256 of a string's UTF-8 bytes, as lowercase hex, for HTTP Digest answers. Written
 * out for the reason `template/sha1.ts` is: the core runs synchronously in the browser and on the
 * server, where neither `node:crypto` nor the asynchronous Web Crypto API fits both (and Web
 * Crypto has no MD5).
 */

function hex(words: Uint32Array, littleEndian: boolean): string {
	let out = '';
	for (const word of words) {
		for (let i = 0; i < 4; i++) {
			const shift = littleEndian ? i * 8 : 24 - i * 8;
			out += ((word >>> shift) & 0xff).toString(16).padStart(2, '0');
		}
	}
	return out;
}

/** The message's 32-bit words after padding, in the byte order the hash reads. */
function padded(text: string, littleEndian: boolean): Uint32Array {
	const bytes = new TextEncoder().encode(text);
	const blocks = ((bytes.length + 8) >> 6) + 1;
	const words = new Uint32Array(blocks * 16);
	const put = (i: number, byte: number) => {
		words[i >> 2] |= byte << (littleEndian ? (i % 4) * 8 : 24 - (i % 4) * 8);
	};
	bytes.forEach((byte, i) => put(i, byte));
	put(bytes.length, 0x80);
	const low = (bytes.length * 8) >>> 0;
	const high = Math.floor((bytes.length * 8) / 0x100000000);
	words[blocks * 16 - (littleEndian ? 2 : 1)] = low;
	words[blocks * 16 - (littleEndian ? 1 : 2)] = high;
	return words;
}

const MD5_SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const MD5_K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32));

/** MD5 (RFC 1321) of a string's UTF-8 bytes, as lowercase hex. */
export function md5Hex(text: string): string {
	const words = padded(text, true);
	const h = new Uint32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]);
	for (let block = 0; block < words.length; block += 16) {
		let [a, b, c, d] = h;
		for (let i = 0; i < 64; i++) {
			const round = i >> 4;
			const f =
				round === 0
					? (b & c) | (~b & d)
					: round === 1
						? (d & b) | (~d & c)
						: round === 2
							? b ^ c ^ d
							: c ^ (b | ~d);
			const g =
				round === 0
					? i
					: round === 1
						? (5 * i + 1) % 16
						: round === 2
							? (3 * i + 5) % 16
							: (7 * i) % 16;
			const s = MD5_SHIFTS[round * 4 + (i % 4)];
			const sum = (a + f + MD5_K[i] + words[block + g]) | 0;
			a = d;
			d = c;
			c = b;
			b = (b + ((sum << s) | (sum >>> (32 - s)))) | 0;
		}
		h[0] += a;
		h[1] += b;
		h[2] += c;
		h[3] += d;
	}
	return hex(h, true);
}

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const SHA256_K = (() => {
	const primes: number[] = [];
	for (let n = 2; primes.length < 64; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
	return primes.map((p) => Math.floor((Math.cbrt(p) % 1) * 2 ** 32));
})();

/** SHA-256 (FIPS 180-4) of a string's UTF-8 bytes, as lowercase hex. */
export function sha256Hex(text: string): string {
	const words = padded(text, false);
	const h = new Uint32Array([
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
	]);
	const w = new Uint32Array(64);
	const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
	for (let block = 0; block < words.length; block += 16) {
		for (let t = 0; t < 64; t++) {
			if (t < 16) w[t] = words[block + t];
			else {
				const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
				const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
				w[t] = w[t - 16] + s0 + w[t - 7] + s1;
			}
		}
		let [a, b, c, d, e, f, g, hh] = h;
		for (let t = 0; t < 64; t++) {
			const t1 =
				(hh +
					(rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
					((e & f) ^ (~e & g)) +
					SHA256_K[t] +
					w[t]) |
				0;
			const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
			hh = g;
			g = f;
			f = e;
			e = (d + t1) | 0;
			d = c;
			c = b;
			b = a;
			a = (t1 + t2) | 0;
		}
		[a, b, c, d, e, f, g, hh].forEach((v, i) => (h[i] += v));
	}
	return hex(h, false);
}
