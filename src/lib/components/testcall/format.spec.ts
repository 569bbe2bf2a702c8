import { describe, expect, it } from 'vitest';
import { formatBytes } from './format';

describe('formatBytes', () => {
	it('uses B, KB and MB', () => {
		expect([formatBytes(512), formatBytes(1536), formatBytes(1048576)]).toEqual([
			'512 B',
			'1.5 KB',
			'1.0 MB'
		]);
	});
});
