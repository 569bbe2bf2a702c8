import { buildRequests } from '../src/lib/core/request';
import { expand, tokenize, type Value } from '../src/lib/core/template';
import { ms, time } from './measure';

/**
 * Template expansion against a naive single-regex replace on the same input, in the same run.
 * The naive replace does what peers do: no encoding, no positions, no checks. The ratio is the
 * price of contextual encoding and span tracking.
 */

const VALUES: Record<string, Value> = {
	sms_to: '+14155550123',
	sms_body: 'Tom said "meet at 7 & bring snacks" \u{1F389}\nOK?',
	content_type: 'text/plain',
	disposition_notification: 'Msg-7f3a9c21:positive-delivery,display',
	'account[username]': 'alice',
	'account[password]': 'p@ss word&1',
	smart: '1'
};

const UNIT =
	'{"to":"%sms_to%","from":"%account[username]%","body":"%sms_body%","type":"%content_type%",' +
	'"dn":"%disposition_notification%","smart":"%smart%","auth":"%sha1(%account[password]%)%"}';

function template(bytes: number): string {
	const items: string[] = [];
	let size = 2;
	while (size < bytes) {
		items.push(UNIT);
		size += UNIT.length + 1;
	}
	return `[${items.join(',')}]`;
}

function naive(source: string): string {
	return source.replace(/%([^%\s]+)%/g, (match, key: string) => {
		const value = VALUES[key];
		return typeof value === 'string' ? value : match;
	});
}

function ours(source: string): string {
	return expand(tokenize(source), {
		context: 'json',
		resolve: (key) => (Object.hasOwn(VALUES, key) ? VALUES[key] : undefined)
	}).text;
}

function fullBuild(source: string): number {
	return buildRequests({
		service: 'sendMessage',
		settings: {
			genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%',
			genericSmsSendPostData: source,
			genericSmsSendContentType: 'application/json'
		},
		values: VALUES as Record<string, string>
	}).requests.length;
}

/** Runs the template benchmark and returns its table rows. */
export function benchTemplate(): string[][] {
	const rows: string[][] = [];
	for (const [label, bytes] of [
		['1 KB', 1024],
		['1 MB', 1024 * 1024]
	] as const) {
		const source = template(bytes);
		const a = time(() => ours(source), 20, bytes > 10_000 ? 3000 : 1000);
		const b = time(() => naive(source), 20, bytes > 10_000 ? 3000 : 1000);
		const c = time(() => fullBuild(source), 10, bytes > 10_000 ? 3000 : 1000);
		rows.push([
			label,
			ms(a.p50),
			ms(a.p95),
			ms(b.p50),
			`${(a.p50 / b.p50).toFixed(2)}×`,
			ms(c.p50),
			ms(c.p95)
		]);
	}
	return rows;
}
