import { LazyModule } from './lazy.svelte';

/**
 * The whole catalogue, in a page whose first load carries only the contract's services (the
 * editor's): importing it makes the services beyond the contract known to every lookup, and
 * what reads `value` is worked out again then.
 */
export const wholeCatalogue = new LazyModule(() => import('$lib/core/catalogue/services'));
