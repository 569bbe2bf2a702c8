import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config';

describe('readConfig: where the data lives', () => {
	it('keeps the data in SQLite in DATA_DIR when DATABASE_URL is unset or empty', () => {
		expect(readConfig({ DATA_DIR: '/srv/studio' })).toMatchObject({
			dataDir: '/srv/studio',
			databaseUrl: undefined
		});
		expect(readConfig({ DATABASE_URL: '' })).toMatchObject({
			dataDir: path.resolve('./data'),
			databaseUrl: undefined
		});
	});

	it('takes a PostgreSQL URL from DATABASE_URL', () => {
		for (const url of ['postgres://u:p@db:5432/studio', 'postgresql://db/studio?sslmode=require']) {
			expect(readConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
		}
	});

	it('refuses another kind of URL, saying what it wants', () => {
		expect(() => readConfig({ DATABASE_URL: 'mysql://db/studio' })).toThrow(
			/DATABASE_URL: must be a PostgreSQL URL \(postgres:\/\/…\)\. Example: DATABASE_URL=postgres:\/\//
		);
		expect(() => readConfig({ DATABASE_URL: './data/provisioning.db' })).toThrow(
			/DATABASE_URL: must be a PostgreSQL URL/
		);
	});
});

describe('readConfig: live updates between instances', () => {
	it('listens by default, polls when asked, and names a wrong value', () => {
		expect(readConfig({}).liveUpdates).toBe('notify');
		expect(readConfig({ LIVE_UPDATES: 'poll' }).liveUpdates).toBe('poll');
		expect(() => readConfig({ LIVE_UPDATES: 'listen' })).toThrow(
			'LIVE_UPDATES=listen: must be "notify" or "poll". Example: LIVE_UPDATES=poll'
		);
	});
});
