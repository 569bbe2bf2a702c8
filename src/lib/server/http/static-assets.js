// @ts-check
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The build's hashed scripts and styles (`/_app/immutable/…`), answered from memory before the
 * kit: a new tab asks for a score of them at once, and the adapter's file server opens, reads and
 * closes each from disk per request (decision 0128). Only what was read answers here; any other
 * path, method or a range request goes on to the kit, which serves the same files the same way.
 */

/** The types answered from memory, by extension: those a page loads before it can be used. */
const TYPES = /** @type {Record<string, string>} */ ({
	'.js': 'text/javascript',
	'.css': 'text/css'
});

/** A year, and never revalidated: each name carries its content's hash. */
const CACHE_CONTROL = 'public,max-age=31536000,immutable';

/**
 * @typedef {{ type: string, etag: string, identity: Buffer, br?: Buffer, gzip?: Buffer }} Asset
 */

/**
 * Whether `accept` (an Accept-Encoding header) takes `coding`: named, or else `*`, without
 * `q=0`.
 * @param {string} accept
 * @param {string} coding
 */
function accepts(accept, coding) {
	/** @type {Map<string, boolean>} */
	const taken = new Map();
	for (const part of accept.toLowerCase().split(',')) {
		const [name, ...params] = part.split(';').map((p) => p.trim());
		const q = params.find((p) => p.startsWith('q='));
		taken.set(name, !q || Number(q.slice(2)) > 0);
	}
	return taken.get(coding) ?? taken.get('*') ?? false;
}

/**
 * The assets under `root` (the build's client folder), read by `load`;
 * `prefix` is the URL path they are served at.
 * @param {string} root
 * @param {string} [prefix]
 */
export function staticAssets(root, prefix = '/_app/immutable/') {
	/** @type {Map<string, Asset>} */
	const assets = new Map();
	const folder = path.join(root, prefix);

	/**
	 * Reads every asset of a served type with its compressed copies, at start before the server
	 * listens (read at once, a few hundred small files take a fraction of what reading them
	 * concurrently does); a missing folder is none. Returns how many were read.
	 */
	function load() {
		/** @type {string[]} */
		let names;
		try {
			names = readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((n) =>
				n.split(path.sep).join('/')
			);
		} catch {
			return 0;
		}
		const present = new Set(names);
		for (const name of names) {
			const type = TYPES[path.extname(name)];
			if (!type) continue;
			const file = path.join(folder, name);
			/** @param {string} suffix */
			const copy = (suffix) =>
				present.has(name + suffix) ? readFileSync(file + suffix) : undefined;
			const identity = readFileSync(file);
			const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`;
			assets.set(prefix + name, { type, etag, identity, br: copy('.br'), gzip: copy('.gz') });
		}
		return assets.size;
	}

	/**
	 * Answers `req` when it asks for a loaded asset (GET or HEAD, no range); false otherwise,
	 * having written nothing.
	 * @param {import('node:http').IncomingMessage} req
	 * @param {import('node:http').ServerResponse} res
	 */
	function serve(req, res) {
		if (req.method !== 'GET' && req.method !== 'HEAD') return false;
		if (req.headers.range !== undefined) return false;
		const asset = assets.get(req.url ?? '');
		if (!asset) return false;
		const accept = String(req.headers['accept-encoding'] ?? '');
		/** @type {Record<string, string | number>} */
		const headers = {
			'content-type': asset.type,
			'cache-control': CACHE_CONTROL,
			vary: 'Accept-Encoding',
			etag: asset.etag
		};
		const match = req.headers['if-none-match'];
		if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) {
			res.writeHead(304, headers);
			res.end();
			return true;
		}
		let body = asset.identity;
		if (asset.br && accepts(accept, 'br')) {
			body = asset.br;
			headers['content-encoding'] = 'br';
		} else if (asset.gzip && accepts(accept, 'gzip')) {
			body = asset.gzip;
			headers['content-encoding'] = 'gzip';
		}
		headers['content-length'] = body.length;
		res.writeHead(200, headers);
		res.end(req.method === 'HEAD' ? undefined : body);
		return true;
	}

	return { load, serve };
}

/** @typedef {ReturnType<typeof staticAssets>} StaticAssets */
