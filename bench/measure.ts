/** Small timing helpers for the benchmarks: warm up, then sample, then summarise. */

/** Percentiles of a sample of durations in milliseconds. */
export interface Timing {
	p50: number;
	p95: number;
	min: number;
	runs: number;
}

function percentile(sorted: number[], p: number): number {
	const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
	return sorted[Math.max(0, index)];
}

/** Times `fn` after a warm-up, for at least `minRuns` runs or `minMs` milliseconds. */
export function time(fn: () => unknown, minRuns = 30, minMs = 1000): Timing {
	for (let i = 0; i < Math.max(3, minRuns / 5); i++) fn();
	const samples: number[] = [];
	const start = performance.now();
	while (samples.length < minRuns || performance.now() - start < minMs) {
		const t0 = performance.now();
		fn();
		samples.push(performance.now() - t0);
		if (samples.length > 100_000) break;
	}
	samples.sort((a, b) => a - b);
	return {
		p50: percentile(samples, 50),
		p95: percentile(samples, 95),
		min: samples[0],
		runs: samples.length
	};
}

/** A duration for a table: microseconds below 1 ms, milliseconds above. */
export function ms(value: number): string {
	return value < 1 ? `${(value * 1000).toFixed(1)} µs` : `${value.toFixed(2)} ms`;
}
