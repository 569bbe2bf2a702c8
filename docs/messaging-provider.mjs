// A minimal messaging back end that passes the messaging journey (docs/messaging.md):
//   PUSH_URL=<a sandbox's push URL> PORT=8080 node docs/messaging-provider.mjs
import { createServer } from 'node:http';

const PUSH_URL = process.env.PUSH_URL; // {push_url}: <studio>/sandbox/<key>
const devices = new Map(); // username → [{ selector, token, appid }], from the Push Token Reporter
const messages = []; // every message, oldest first

async function notify(message) {
	for (const device of devices.get(message.recipient) ?? []) {
		const answer = await fetch(`${PUSH_URL}/pnm2/send`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				verb: 'NotifyTextMessage',
				AppId: device.appid,
				DeviceToken: device.token,
				Selector: device.selector,
				Message: message.sms_text.slice(0, 100),
				Badge: 1,
				Sound: 'default',
				UserName: message.sender,
				ContentType: message.content_type,
				Id: message.sms_id // the same id Fetch Messages answers: no double notification
			})
		});
		const { status } = await answer.json();
		// 404: the token is no longer registered; never push to it again.
		if (status === 404)
			devices.set(
				message.recipient,
				devices.get(message.recipient).filter((d) => d !== device)
			);
	}
}

/** The messages after the last known one (all of them when the app knows none). */
function after(list, id) {
	const at = list.findIndex((m) => m.sms_id === id);
	return at === -1 ? list : list.slice(at + 1);
}

createServer((req, res) => {
	let text = '';
	req.on('data', (chunk) => (text += chunk));
	req.on('end', () => {
		const f = Object.fromEntries(new URLSearchParams(text));
		const json = (body) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		if (req.url === '/report') {
			const others = (devices.get(f.user) ?? []).filter((d) => d.selector !== f.selector);
			devices.set(f.user, [...others, { selector: f.selector, token: f.token, appid: f.appid }]);
			return json({});
		}
		if (req.url === '/send') {
			const message = {
				sms_id: `m${messages.length + 1}`,
				sending_date: new Date().toISOString(),
				sender: f.user,
				recipient: f.to,
				sms_text: f.body,
				content_type: f.ct || 'text/plain',
				disposition_notification: f.dn
			};
			messages.push(message);
			json({ sms_id: message.sms_id });
			return void notify(message).catch((error) => console.error(error));
		}
		if (req.url === '/fetch') {
			// A received message names its sender, a sent one its recipient.
			const shown = (message, drop) => {
				const copy = { ...message };
				delete copy[drop];
				return copy;
			};
			return json({
				date: new Date().toISOString(),
				received_smss: after(
					messages.filter((m) => m.recipient === f.user),
					f.last
				).map((m) => shown(m, 'recipient')),
				sent_smss: after(
					messages.filter((m) => m.sender === f.user),
					f.last_sent
				).map((m) => shown(m, 'sender'))
			});
		}
		res.writeHead(404).end();
	});
}).listen(Number(process.env.PORT ?? 8080), process.env.HOST ?? '127.0.0.1', function () {
	console.log(`listening on ${this.address().port}`);
});
