// The test-call benchmark's second floor: the simplest server that makes the same hop as a
// test call. It reads a JSON body, puts the recipient into the URL template, sends the request
// upstream on a new undici connection (as a test call does), and answers the status and body as
// JSON. No sign-in, no policy, no checks, no history: what any Node proxy on this machine costs.
// Started as a process of its own, as the app is; it prints its port and stops with its parent.
import http from 'node:http';
import { Client } from 'undici';

const server = http.createServer((req, res) => {
	const chunks = [];
	req.on('data', (chunk) => chunks.push(chunk));
	req.on('end', async () => {
		const input = JSON.parse(Buffer.concat(chunks).toString());
		const to = encodeURIComponent(input.values.sms_to);
		const url = new URL(input.settings.genericSmsSendUrl.replace('%sms_to%', to));
		const client = new Client(url.origin, { pipelining: 1 });
		try {
			const answer = await client.request({ method: 'GET', path: url.pathname + url.search });
			const body = await answer.body.text();
			const text = JSON.stringify({ url: url.href, status: answer.statusCode, body });
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(text);
		} catch (error) {
			res.writeHead(502, { 'content-type': 'text/plain' });
			res.end(String(error));
		} finally {
			setImmediate(() => client.destroy().catch(() => {}));
		}
	});
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
