import { startApp } from './app';

/**
 * The published API document: how long making it adds to the start (the start's own log line,
 * made while the app starts), and `GET /api/openapi.json` one request at a time against the
 * floor in the same run, `GET /api/health/live` (the cheapest answer of the app), each timed one
 * request at a time to its last byte.
 */

const RUNS = 1000;

export async function benchOpenApi(): Promise<string[][]> {
	const app = await startApp({ LOG_FORMAT: 'json', LOG_LEVEL: 'debug' });
	try {
		const line = app
			.log()
			.split('\n')
			.find((l) => l.includes('The API document is made.'));
		const made = line ? (JSON.parse(line) as { ms: number; operations: number }) : undefined;
		// One request at a time, as a client fetching the document does (gzip accepted, as by
		// browsers and most HTTP clients), timed to the last byte read.
		const measure = async (path: string) => {
			const times: number[] = [];
			for (let i = 0; i < RUNS + 50; i++) {
				const started = performance.now();
				const answer = await fetch(`${app.base}${path}`, {
					headers: { 'accept-encoding': 'gzip' }
				});
				await answer.arrayBuffer();
				if (i >= 50) times.push(performance.now() - started);
			}
			times.sort((a, b) => a - b);
			const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
			return { p50: at(0.5), p99: at(0.99) };
		};
		const floor = await measure('/api/health/live');
		const document = await measure('/api/openapi.json');
		const bytes = (await (await fetch(`${app.base}/api/openapi.json`)).text()).length;
		const ratio = document.p50 / floor.p50;
		const ms = (value: number) => `${value.toFixed(2)} ms`;
		return [
			[
				`making the document at start (${made?.operations ?? '?'} operations)`,
				made ? `${made.ms} ms` : 'not logged',
				'',
				'≤ 200 ms'
			],
			['floor: GET /api/health/live, one at a time', ms(floor.p50), ms(floor.p99), ''],
			[
				`GET /api/openapi.json (${Math.round(bytes / 1024)} KB, gzipped on the wire), one at a time`,
				ms(document.p50),
				ms(document.p99),
				`≤ 5 ms p50 (${ratio.toFixed(1)}× the floor)`
			]
		];
	} finally {
		await app.stop();
	}
}
