import { error } from '@sveltejs/kit';
import { findService } from '$lib/core/catalogue';
import type { PageLoad } from './$types';

export const load: PageLoad = ({ params }) => {
	const service = findService(params.id);
	if (!service || service.kind !== 'template') {
		error(404, { message: `There is no provider web service "${params.id}".` });
	}
	return { serviceId: service.id };
};
