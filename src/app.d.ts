import type { AuthUser } from '$lib/server/auth/auth-user';

// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
	namespace App {
		interface Error {
			message: string;
			code?: string;
		}
		interface Locals {
			user: AuthUser | null;
			/** A page's status other than 200 (a refusal page rendered in the layout). */
			pageStatus?: number;
		}
	}
}

export {};
