import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyModule } from './lazy.svelte';

afterEach(() => vi.unstubAllGlobals());

describe('LazyModule', () => {
	it('imports once however often it is asked, and holds the exports', async () => {
		vi.stubGlobal('window', {});
		const importer = vi.fn(async () => ({ answer: 42 }));
		const lazy = new LazyModule(importer);
		expect(lazy.value).toBeNull();
		lazy.load();
		lazy.load();
		await vi.waitFor(() => expect(lazy.value).toEqual({ answer: 42 }));
		lazy.load();
		expect(importer).toHaveBeenCalledTimes(1);
	});

	it('says why a load failed, and the next load tries again', async () => {
		vi.stubGlobal('window', {});
		const importer = vi
			.fn<() => Promise<{ answer: number }>>()
			.mockRejectedValueOnce(new Error('network down'))
			.mockResolvedValueOnce({ answer: 1 });
		const lazy = new LazyModule(importer);
		lazy.load();
		await vi.waitFor(() => expect(lazy.failed).toBe('network down'));
		expect(lazy.value).toBeNull();
		lazy.load();
		await vi.waitFor(() => expect(lazy.value).toEqual({ answer: 1 }));
		expect(lazy.failed).toBe('');
		expect(importer).toHaveBeenCalledTimes(2);
	});

	it('loads nothing on the server', () => {
		const importer = vi.fn(async () => ({}));
		new LazyModule(importer).load();
		expect(importer).not.toHaveBeenCalled();
	});
});
