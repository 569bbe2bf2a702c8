import autocannon from 'autocannon';
import { startApp } from './app';
import { PUSH } from './sandbox';

/**
 * What logging and metrics cost: `GET /api/profiles/:id` of the built server under 20 clients
 * for 10 s (after 3 s of the same load unmeasured) with both off (`LOG_LEVEL=silent`, no
 * `METRICS_TOKEN`) and both on (a JSON line per request into a pipe that is read, every metric
 * observed), in the same run; and sandbox pushes with both on (goal: ≥ 5,000/s).
 */

const CONNECTIONS = 20;
const DURATION = 10;
const WARMUP = 3;

interface Measured {
	get: autocannon.Result;
	pushes?: autocannon.Result;
}

async function measure(env: Record<string, string>, pushes: boolean): Promise<Measured> {
	const app = await startApp(env);
	try {
		const cookie = await app.login();
		const json = { 'content-type': 'application/json', origin: app.base, cookie };
		const made = await fetch(`${app.base}/api/profiles`, {
			method: 'POST',
			headers: json,
			body: JSON.stringify({ name: 'Operations' })
		});
		const { profile } = (await made.json()) as { profile: { id: string } };
		const get = (duration: number) =>
			autocannon({
				url: `${app.base}/api/profiles/${profile.id}`,
				connections: CONNECTIONS,
				duration,
				headers: { cookie }
			});
		await get(WARMUP);
		const result: Measured = { get: await get(DURATION) };
		if (pushes) {
			const sandbox = await fetch(`${app.base}/api/sandboxes`, {
				method: 'POST',
				headers: json,
				body: JSON.stringify({ name: 'Operations' })
			});
			const { sandbox: view } = (await sandbox.json()) as { sandbox: { pushUrl: string } };
			result.pushes = await autocannon({
				url: `${view.pushUrl}/pnm2/send`,
				method: 'POST',
				connections: 50,
				duration: DURATION,
				headers: { 'content-type': 'application/json' },
				body: PUSH
			});
		}
		return result;
	} finally {
		await app.stop();
	}
}

function row(label: string, r: autocannon.Result, extra = ''): string[] {
	return [
		label,
		`${r.latency.p50} ms`,
		`${r.latency.p99} ms`,
		`${Math.round(r.requests.average)}/s`,
		String(r.non2xx + r.errors),
		extra
	];
}

/** Runs the benchmark and returns its table rows. */
export async function benchOperations(): Promise<string[][]> {
	// Off and on in turns, twice each, and the better run of each: a machine that speeds up or
	// slows down during the run does not make one of them look better.
	const OFF = { LOG_LEVEL: 'silent' };
	const ON = {
		LOG_FORMAT: 'json',
		LOG_LEVEL: 'info',
		METRICS_TOKEN: 'bench-metrics-token-0123456789'
	};
	const offs = [await measure(OFF, false)];
	const ons = [await measure(ON, false)];
	offs.push(await measure(OFF, false));
	ons.push(await measure(ON, true));
	const best = (runs: Measured[]) =>
		runs.reduce((a, b) => (b.get.requests.average > a.get.requests.average ? b : a));
	const off = best(offs);
	const on = { ...best(ons), pushes: ons[1].pushes };
	const ratio = on.get.requests.average / off.get.requests.average;
	return [
		row(
			`GET /api/profiles/:id, logs and metrics off, ${CONNECTIONS} clients (better of 2)`,
			off.get
		),
		row(
			`GET /api/profiles/:id, JSON logs and metrics on, ${CONNECTIONS} clients (better of 2)`,
			on.get,
			`${(ratio * 100).toFixed(1)} % of off (goal ≥ 95 %)`
		),
		row('POST /pnm2/send, JSON logs and metrics on, 50 clients', on.pushes!, 'goal ≥ 5,000/s')
	];
}
