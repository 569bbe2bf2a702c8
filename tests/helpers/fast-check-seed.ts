import fc from 'fast-check';

/**
 * Property tests draw from one fixed seed, so a run of the suite is reproducible and a failure
 * on one machine fails the same way on every other. `FC_SEED=random` explores fresh inputs (a
 * failure prints its seed and path); `FC_SEED=<n>` replays one.
 */
const given = process.env.FC_SEED;
if (given !== 'random') {
	const seed = given === undefined || given === '' ? 20261123 : Number(given);
	if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer or "random"`);
	fc.configureGlobal({ seed });
}
