import { describe, expect, it } from 'vitest';
import { startUp } from './startup';

/** An error as pg gives it when nothing listens on the database's port. */
const refused = () =>
	Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** Resolves once `check` is true (the retries run on timers of a few milliseconds). */
async function until(check: () => boolean): Promise<void> {
	while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('startUp', () => {
	it('runs the work once when the database answers', async () => {
		let runs = 0;
		const logs: string[] = [];
		await startUp(async () => void runs++, { retryMs: 1, log: (m) => logs.push(m) });
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(runs).toBe(1);
		expect(logs).toEqual([]);
	});

	it('returns while the database is gone, says so, and tries again until it is back', async () => {
		let runs = 0;
		const logs: string[] = [];
		await startUp(
			async () => {
				runs++;
				if (runs < 4) throw refused();
			},
			{ retryMs: 1, log: (m) => logs.push(m), fail: (e) => logs.push(`failed: ${e}`) }
		);
		expect(runs).toBe(1);
		expect(logs).toEqual([
			'The database does not answer at start (connect ECONNREFUSED 127.0.0.1:5432): the app answers 503 meanwhile and tries again every 0.001 s.'
		]);
		await until(() => logs.length === 2);
		expect(runs).toBe(4);
		expect(logs[1]).toBe('The database answers: the app has started.');
	});

	it('stops the start at once on any other failure', async () => {
		await expect(
			startUp(async () => {
				throw new Error('ADMIN_PASSWORD: too short');
			})
		).rejects.toThrow('ADMIN_PASSWORD: too short');
	});

	it('hands a later failure that is not an outage to fail', async () => {
		let runs = 0;
		const failed: unknown[] = [];
		await startUp(
			async () => {
				runs++;
				throw runs === 1 ? refused() : new Error('relation "users" is broken');
			},
			{ retryMs: 1, log: () => undefined, fail: (e) => failed.push(e) }
		);
		await until(() => failed.length === 1);
		expect(String(failed[0])).toContain('relation "users" is broken');
		expect(runs).toBe(2);
	});
});
