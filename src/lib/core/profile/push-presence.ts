import type { ProfileDocument } from './schema';

/**
 * Whether a profile has push settings at all: apart from their checks, so that a page can say
 * "not set" before it has loaded them.
 */

/** True when the push settings hold anything (an untouched profile sends no pushes). */
export function hasPushSettings(push: ProfileDocument['push']): boolean {
	return push.gatewayUrl !== '' || push.appId !== '' || push.target !== 'unknown';
}
