import autocannon from 'autocannon';
import { startApp } from './app';

/**
 * The published API document: how long making it adds to the start (the start's own log line,
 * made while the app starts), and `GET /api/openapi.json` one request at a time against the
 * floor in the same run, `GET /api/health/live` (the cheapest answer of the app).
 */

const DURATION = 5;

export async function benchOpenApi(): Promise<string[][]> {
	const app = await startApp({ LOG_FORMAT: 'json', LOG_LEVEL: 'debug' });
	try {
		const line = app
			.log()
			.split('\n')
			.find((l) => l.includes('The API document is made.'));
		const made = line ? (JSON.parse(line) as { ms: number; operations: number }) : undefined;
		const measure = async (path: string) => {
			await autocannon({ url: `${app.base}${path}`, connections: 1, duration: 1 });
			return autocannon({ url: `${app.base}${path}`, connections: 1, duration: DURATION });
		};
		const floor = await measure('/api/health/live');
		const document = await measure('/api/openapi.json');
		const bytes = (await (await fetch(`${app.base}/api/openapi.json`)).text()).length;
		const ratio = document.latency.p50 / Math.max(floor.latency.p50, 0.001);
		return [
			[
				`making the document at start (${made?.operations ?? '?'} operations)`,
				made ? `${made.ms} ms` : 'not logged',
				'',
				'≤ 200 ms'
			],
			[
				'floor: GET /api/health/live, 1 connection',
				`${floor.latency.p50} ms`,
				`${floor.latency.p99} ms`,
				''
			],
			[
				`GET /api/openapi.json (${Math.round(bytes / 1024)} KB), 1 connection`,
				`${document.latency.p50} ms`,
				`${document.latency.p99} ms`,
				`≤ 5 ms p50 (${ratio.toFixed(1)}× the floor)`
			]
		];
	} finally {
		await app.stop();
	}
}
