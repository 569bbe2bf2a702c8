import { SERVICES } from '../catalogue/services';
import { literalOrigin } from './checks';
import { urlCandidates } from './settings';

/**
 * The origins a profile's URL templates fix by their literal text (every service, fallback URLs
 * included): where a secret typed in that save may later be sent by a test call.
 */
export function urlOrigins(
	services: Partial<Record<string, Record<string, string> | undefined>>
): string[] {
	const found = new Set<string>();
	for (const service of SERVICES) {
		const settings = services[service.id];
		if (service.kind !== 'template' || !settings) continue;
		for (const candidate of urlCandidates(service, settings)) {
			const origin = candidate.value.trim() ? literalOrigin(candidate.value.trim()) : null;
			if (origin) found.add(origin);
		}
	}
	return [...found].sort();
}
