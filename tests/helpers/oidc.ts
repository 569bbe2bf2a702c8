import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';

/**
 * A real OpenID Provider for the tests (panva's oidc-provider, the certified implementation) on
 * 127.0.0.1 and a free port, with its development sign-in pages: any login name signs in as the
 * account of that name, whose claims the test sets. Each test file starts one and shares it.
 */

export const CLIENT = { id: 'studio', secret: 'studio-client-secret' };

/** Claims of an account, besides `sub` (which is its login name). */
export type AccountClaims = Record<string, unknown>;

export interface TestProvider {
	/** `http://127.0.0.1:<port>`: the issuer. */
	issuer: string;
	/** The accounts by login name; change them between sign-ins. */
	accounts: Map<string, AccountClaims>;
	/** How many requests its token endpoint received. */
	tokenRequests(): number;
	/** Serves the provider, for apps at these URLs (their callbacks are its redirect URIs). */
	serve(appUrls: string[]): void;
	close(): Promise<void>;
}

/**
 * Starts listening at once (the issuer's address is known before the apps start), and serves
 * the provider once {@link TestProvider.serve} names the apps; until then it answers 503.
 */
export async function startProvider(): Promise<TestProvider> {
	let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
	let tokenRequests = 0;
	const server = createServer((req, res) => {
		if (req.method === 'POST' && req.url?.startsWith('/token')) tokenRequests++;
		if (handler) return handler(req, res);
		res.statusCode = 503;
		res.end();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	const issuer = `http://127.0.0.1:${port}`;
	const accounts = new Map<string, AccountClaims>();
	return {
		issuer,
		accounts,
		tokenRequests: () => tokenRequests,
		serve(appUrls) {
			const provider = new Provider(issuer, {
				clients: [
					{
						client_id: CLIENT.id,
						client_secret: CLIENT.secret,
						redirect_uris: appUrls.map((url) => `${url}/auth/oidc/callback`),
						post_logout_redirect_uris: appUrls.map((url) => `${url}/login?signed_out=1`),
						token_endpoint_auth_method: 'client_secret_post'
					}
				],
				claims: {
					openid: ['sub'],
					email: ['email', 'email_verified'],
					profile: ['name'],
					groups: ['groups', 'realm_access']
				},
				// Claims asked for by scope go into the ID token too, as most providers put them.
				conformIdTokenClaims: false,
				cookies: { keys: ['oidc-test-cookie-key'] },
				features: { devInteractions: { enabled: true } },
				async findAccount(_ctx: unknown, sub: string) {
					const claims = accounts.get(sub);
					if (!claims) return undefined;
					return { accountId: sub, claims: async () => ({ sub, ...accounts.get(sub) }) };
				}
			});
			// The provider's own warnings about development settings are expected here.
			provider.on('server_error', (_ctx: unknown, error: Error) => console.error(error));
			handler = provider.callback();
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}

/**
 * A browser over HTTP: a cookie jar per origin, redirects followed by hand (so each answer can
 * be looked at), and the provider's sign-in and consent forms filled in and posted.
 */
export class Browser {
	readonly jar = new Map<string, Map<string, string>>();

	cookie(origin: string, name: string): string | undefined {
		return this.jar.get(origin)?.get(name);
	}

	setCookie(origin: string, name: string, value: string | undefined): void {
		const cookies = this.jar.get(origin) ?? new Map<string, string>();
		this.jar.set(origin, cookies);
		if (value === undefined) cookies.delete(name);
		else cookies.set(name, value);
	}

	/** One request with the jar's cookies for its origin; the answer's cookies are kept. */
	async request(url: string, init: RequestInit = {}): Promise<Response> {
		const { origin } = new URL(url);
		const headers = new Headers(init.headers);
		const cookies = this.jar.get(origin);
		if (cookies?.size) {
			headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
		}
		const response = await fetch(url, { ...init, headers, redirect: 'manual' });
		for (const line of response.headers.getSetCookie()) {
			const match = /^([^=]+)=([^;]*)/.exec(line);
			if (!match) continue;
			const expired = /;\s*max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line);
			this.setCookie(origin, match[1], expired || match[2] === '' ? undefined : match[2]);
		}
		return response;
	}

	/**
	 * Follows redirects from `url`, signing in at the provider as `login` and consenting, until an
	 * answer that is not a redirect, or (with `stopAtCallback`) the app's callback address.
	 */
	async follow(
		url: string,
		login: string,
		options: { stopAtCallback?: boolean } = {}
	): Promise<{ response: Response; url: string; callback?: string }> {
		let current = url;
		let response = await this.request(current);
		for (let step = 0; step < 20; step++) {
			const location = response.headers.get('location');
			if (response.status >= 300 && response.status < 400 && location) {
				await response.body?.cancel();
				current = new URL(location, current).href;
				if (options.stopAtCallback && new URL(current).pathname === '/auth/oidc/callback') {
					return { response, url: current, callback: current };
				}
				response = await this.request(current);
				continue;
			}
			const type = response.headers.get('content-type') ?? '';
			if (response.status === 200 && type.includes('html')) {
				const html = await response.clone().text();
				const action = /<form[^>]*action="([^"]+)"[^>]*method="post"/.exec(html)?.[1];
				const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
				if (action && prompt) {
					await response.body?.cancel();
					const form = new URLSearchParams({ prompt });
					if (prompt === 'login') {
						form.set('login', login);
						form.set('password', 'any');
					}
					current = new URL(action.replaceAll('&amp;', '&'), current).href;
					response = await this.request(current, {
						method: 'POST',
						body: form,
						headers: { 'content-type': 'application/x-www-form-urlencoded' }
					});
					continue;
				}
			}
			return { response, url: current };
		}
		throw new Error(`Too many steps from ${url}`);
	}
}
