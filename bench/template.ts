import { buildRequests } from '../src/lib/core/request';
import { expand, sha1Hex, tokenize, type Value } from '../src/lib/core/template';
import { ms, time } from './measure';

/**
 * Template expansion against a naive single-regex replace on the same input, in the same run.
 * The naive replace does what peers do: no encoding, no positions, no checks. It replaces the
 * same placeholders (the sha1 call with its hash, worked out beforehand), and its output is
 * checked against ours with the encoding left out. The ratio is the price of contextual
 * encoding and span tracking.
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

/** The hash a sha1 placeholder stands for, worked out once: the floor pays no hashing. */
const HASHED: Record<string, string> = {
	'account[password]': sha1Hex(VALUES['account[password]'] as string)
};

/** The same seven placeholders replaced, `%sha1(%…%)%` included; nothing encoded or checked. */
function naive(source: string): string {
	return source.replace(
		/%sha1\(%([^%\s]+)%\)%|%([^%\s]+)%/g,
		(match, hashed?: string, key?: string) => {
			const value = hashed === undefined ? VALUES[key!] : HASHED[hashed];
			return typeof value === 'string' ? value : match;
		}
	);
}

function ours(source: string): string {
	return expand(tokenize(source), {
		context: 'json',
		resolve: (key) => (Object.hasOwn(VALUES, key) ? VALUES[key] : undefined)
	}).text;
}

/** The floor replaces what we replace: raw expansion of the same text gives the same output. */
function checkFloor(source: string): void {
	const raw = expand(tokenize(source), {
		context: 'json',
		raw: true,
		resolve: (key) => (Object.hasOwn(VALUES, key) ? VALUES[key] : undefined)
	}).text;
	if (naive(source) !== raw)
		throw new Error('The naive floor does not replace the same placeholders');
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
		checkFloor(source);
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
