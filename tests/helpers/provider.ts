import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ProfileDocument } from '../../src/lib/core/profile';

/**
 * A real provider's messaging back end for the virtual phones' tests: an HTTP server on
 * 127.0.0.1 and an ephemeral port that keeps the tokens the Push Token Reporter gives, stores
 * what Send Message sends, pushes NotifyTextMessage to the push gateway (a sandbox) for each of
 * the recipient's tokens, and answers Fetch Messages after the last known ids. Each mistake a
 * provider makes is an option; with none it does everything right.
 */

/** The mistakes a provider can make, each off by default. */
export interface ProviderMistakes {
	/** Never pushes. */
	neverPush?: boolean;
	/** Pushes to the incoming-call (voip) token instead of pushToken. */
	pushToVoipToken?: boolean;
	/** Pushes each message this many times. */
	pushTimes?: number;
	/** Answers every message every time (ignores last_known_sms_id / last_known_sent_sms_id). */
	ignoreLastKnown?: boolean;
	/** Answers this many extra old messages in every received list. */
	extraMessages?: number;
	/** Never answers these paths. */
	hang?: ('/report' | '/send' | '/fetch' | '/remove')[];
	/** Leaves Id out of the push. */
	noPushId?: boolean;
	/** Forgets content_type and disposition_notification. */
	dropFields?: boolean;
	/** Keeps pushing to a token the gateway answered 404 for. */
	keepUnregistered?: boolean;
	/** Pushes NotifyReprovision to the sender's devices before the message (a changed setting). */
	reprovisionSender?: boolean;
	/** Leaves Selector and Badge out of the push. */
	barePush?: boolean;
}

interface Stored {
	id: string;
	from: string;
	to: string;
	body: string;
	contentType: string;
	disposition: string;
	date: string;
}

/** A running provider. */
export interface Provider {
	url: string;
	/** The push gateway's base address it pushes to (a sandbox's push URL). */
	gatewayUrl: string;
	mistakes: ProviderMistakes;
	/** Tokens per username: what the reporter gave (extra ones may be added by a test). */
	tokens: Map<string, { selector: string; token: string; voip: string; appId: string }[]>;
	messages: Stored[];
	/** Status of each push the gateway answered, in order. */
	pushes: { token: string; status: number }[];
	/** Requests received per path. */
	hits: Record<string, number>;
	/** Set to stop sending the pushes not yet sent (a test that has seen enough). */
	halted: boolean;
	stop(): Promise<void>;
}

/** The settings of a profile using this provider (form-encoded, as most providers do). */
export function providerServices(url: string) {
	return {
		pushTokenReporter: {
			pushTokenReporterUrl: `${url}/report`,
			pushTokenReporterPostData:
				'user=%account[username]%&selector=%selector%&token=%pushToken%&voip=%pushTokenIncomingCall%&appid=%pushappid%'
		},
		sendMessage: {
			genericSmsSendUrl: `${url}/send`,
			genericSmsSendPostData:
				'user=%account[username]%&pass=%account[password]%&to=%sms_to%&body=%sms_body%&ct=%content_type%&dn=%disposition_notification%'
		},
		initialProvisioning: {
			InitialProvisioningUrl: `${url}/provision`,
			InitialProvisioningPostData: 'user=%username%'
		},
		accountRemovalReporter: {
			accountRemovalReporterUrl: `${url}/remove`,
			accountRemovalReporterPostData: 'user=%account[username]%&selector=%selector%'
		},
		fetchMessages: {
			genericSmsFetchUrl: `${url}/fetch`,
			genericSmsFetchPostData:
				'user=%account[username]%&pass=%account[password]%&last=%last_known_sms_id%&last_sent=%last_known_sent_sms_id%'
		}
	};
}

/** A profile document over a provider at `url`, pushing through the sandbox at `gatewayUrl`. */
export function providerProfile(url: string, gatewayUrl: string): ProfileDocument {
	return {
		version: 1,
		services: providerServices(url),
		push: { gatewayUrl, appId: 'com.example.app', target: 'unknown' },
		scenarios: [],
		rawSubstitution: false,
		preservedXml: []
	};
}

function form(text: string): Record<string, string> {
	return Object.fromEntries(new URLSearchParams(text));
}

function after(list: Stored[], id: string): Stored[] {
	if (id === '') return list;
	const at = list.findIndex((m) => m.id === id);
	return at === -1 ? list : list.slice(at + 1);
}

/** Starts a provider pushing to `gatewayUrl`. */
export async function startProvider(
	gatewayUrl: string,
	mistakes: ProviderMistakes = {}
): Promise<Provider> {
	const provider: Provider = {
		url: '',
		gatewayUrl,
		mistakes,
		tokens: new Map(),
		messages: [],
		pushes: [],
		hits: {},
		halted: false,
		stop: async () => {}
	};
	const dropped = new Set<string>();
	let next = 1;

	const push = async (body: Record<string, unknown>) => {
		const token = String(body.DeviceToken);
		if (dropped.has(token) && !provider.mistakes.keepUnregistered) return;
		const answer = await fetch(`${provider.gatewayUrl}/pnm2/send`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body)
		}).catch(() => null);
		if (!answer) return;
		const reply = (await answer.json().catch(() => ({}))) as { status?: number };
		provider.pushes.push({ token, status: reply.status ?? answer.status });
		if (reply.status === 404) dropped.add(token);
	};

	const notify = async (message: Stored) => {
		const m = provider.mistakes;
		if (m.neverPush) return;
		for (const device of m.reprovisionSender ? (provider.tokens.get(message.from) ?? []) : []) {
			await push({
				verb: 'NotifyReprovision',
				AppId: device.appId,
				DeviceToken: device.token,
				Selector: device.selector
			});
		}
		for (const device of provider.tokens.get(message.to) ?? []) {
			const body: Record<string, unknown> = {
				verb: 'NotifyTextMessage',
				AppId: device.appId,
				DeviceToken: m.pushToVoipToken ? device.voip : device.token,
				Selector: device.selector,
				Message: message.body.slice(0, 100),
				Badge: 1,
				Sound: 'default',
				UserName: message.from,
				ContentType: message.contentType,
				Id: message.id
			};
			if (m.noPushId) delete body.Id;
			if (m.barePush) {
				delete body.Selector;
				delete body.Badge;
			}
			// Many pushes go out a hundred at a time, as a busy server's workers would send them.
			for (let left = m.pushTimes ?? 1; left > 0 && !provider.halted; left -= 100) {
				await Promise.all(Array.from({ length: Math.min(100, left) }, () => push(body)));
			}
		}
	};

	const fetchAnswer = (fields: Record<string, string>) => {
		const m = provider.mistakes;
		const user = fields.user ?? '';
		const since = (id: string | undefined) => (m.ignoreLastKnown ? '' : (id ?? ''));
		const received = provider.messages.filter((x) => x.to === user);
		const sent = provider.messages.filter((x) => x.from === user);
		const shown = (x: Stored, party: 'sender' | 'recipient') => ({
			sms_id: x.id,
			sending_date: x.date,
			[party]: party === 'sender' ? x.from : x.to,
			sms_text: x.body,
			...(m.dropFields
				? {}
				: { content_type: x.contentType, disposition_notification: x.disposition })
		});
		const extra = Array.from({ length: m.extraMessages ?? 0 }, (_, i) => ({
			sms_id: `old-${i}`,
			sending_date: '2020-01-01T00:00:00Z',
			sender: 'someone',
			sms_text: 'old'
		}));
		return {
			date: new Date().toISOString(),
			received_smss: [
				...extra,
				...after(received, since(fields.last)).map((x) => shown(x, 'sender'))
			],
			sent_smss: after(sent, since(fields.last_sent)).map((x) => shown(x, 'recipient'))
		};
	};

	const sockets = new Set<Socket>();
	const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
		const path = (req.url ?? '').split('?')[0];
		provider.hits[path] = (provider.hits[path] ?? 0) + 1;
		if (provider.mistakes.hang?.includes(path as '/report')) return;
		const fields = form(text);
		const reply = (status: number, body?: unknown) => {
			res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
			res.end(body === undefined ? undefined : JSON.stringify(body));
		};
		if (path === '/report') {
			const list = (provider.tokens.get(fields.user) ?? []).filter(
				(t) => t.selector !== fields.selector
			);
			list.push({
				selector: fields.selector,
				token: fields.token,
				voip: fields.voip,
				appId: fields.appid
			});
			provider.tokens.set(fields.user, list);
			return reply(200);
		}
		if (path === '/provision') {
			res.writeHead(200, { 'content-type': 'application/xml' });
			res.end(`<account><title>Acme</title><voicemailNumber>${next}</voicemailNumber></account>`);
			return;
		}
		if (path === '/remove') {
			const left = (provider.tokens.get(fields.user) ?? []).filter(
				(t) => t.selector !== fields.selector
			);
			provider.tokens.set(fields.user, left);
			return reply(204);
		}
		if (path === '/send') {
			const message: Stored = {
				id: `msg-${next++}`,
				from: fields.user,
				to: fields.to,
				body: fields.body,
				contentType: fields.ct || 'text/plain',
				disposition: fields.dn ?? '',
				date: new Date().toISOString()
			};
			provider.messages.push(message);
			reply(200, { sms_id: message.id });
			void notify(message);
			return;
		}
		if (path === '/fetch') return reply(200, fetchAnswer(fields));
		reply(404, { message: 'no such path' });
	};
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	provider.stop = () =>
		new Promise<void>((resolve) => {
			provider.halted = true;
			for (const socket of sockets) socket.destroy();
			server.close(() => resolve());
		});
	return provider;
}
