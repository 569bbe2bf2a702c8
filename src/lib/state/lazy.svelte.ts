/**
 * A module the page loads when it is first asked for, once: its exports once loaded (reactive),
 * and why it failed. A failed load is asked for again by the next `load()`.
 */
export class LazyModule<T> {
	/** The module's exports once loaded; null until then. */
	value = $state.raw<T | null>(null);
	/** Why the last load failed, until a load succeeds; empty while none has failed. */
	failed = $state('');
	#loading: Promise<T> | null = null;
	readonly #importer: () => Promise<T>;

	constructor(importer: () => Promise<T>) {
		this.#importer = importer;
	}

	/**
	 * Starts loading the module unless it is loaded or loading; nothing on the server. It writes
	 * no state itself (only once the import settles), so a derived value may call it.
	 */
	load(): void {
		if (this.value !== null || typeof window === 'undefined') return;
		void this.ready().catch(() => {});
	}

	/** The module's exports, loading it first if need be (in the browser only). */
	ready(): Promise<T> {
		if (this.value !== null) return Promise.resolve(this.value);
		this.#loading ??= this.#importer().then(
			(loaded) => {
				this.value = loaded;
				this.failed = '';
				return loaded;
			},
			(error: unknown) => {
				this.#loading = null;
				this.failed = error instanceof Error ? error.message : String(error);
				throw error;
			}
		);
		return this.#loading;
	}
}
