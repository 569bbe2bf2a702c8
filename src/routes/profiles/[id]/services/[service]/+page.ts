import { browser } from '$app/environment';
import { findKnownService } from '$lib/core/catalogue/known';
import { wholeCatalogue } from '$lib/state/catalogue.svelte';
import { PUSH_PAGE } from './push';
import type { PageLoad } from './$types';

// The page of a service the app does not call under the contract needs its entry before it
// draws: the editor's first load holds only those the app calls under the contract.
export const load: PageLoad = async ({ data }) => {
	if (browser && data.serviceId !== PUSH_PAGE && !findKnownService(data.serviceId)) {
		await wholeCatalogue.ready();
	}
	return data;
};
