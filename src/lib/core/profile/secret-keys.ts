import { isSecretAccountKey } from '../catalogue/account-keys';
import { fromKnown } from '../catalogue/known';
import { ACCOUNT_VARIABLES } from '../catalogue/variables';

/**
 * Which scenario values are secrets, from the catalogue alone: the profile's schema checks them
 * and its secrets module seals them, so it sits below both.
 */

const secretKeys = fromKnown(
	(services) =>
		new Set([
			...ACCOUNT_VARIABLES.filter((v) => v.secret).map((v) => `account[${v.name}]`),
			...services.flatMap((s) => s.variables.filter((v) => v.secret).map((v) => v.name))
		])
);

/**
 * True when a scenario value under this placeholder key is a secret: a secret of the catalogue,
 * or an account key whose name says it is a credential (`account[apiPass]`).
 */
export function isSecretKey(key: string): boolean {
	if (secretKeys().has(key)) return true;
	const account = /^account\[(.+)\]$/.exec(key);
	return account !== null && isSecretAccountKey(account[1]);
}

/** The settings that are secrets (a Digest password), as `service/key`. */
const secretSettings = fromKnown(
	(services) =>
		new Set(
			services.flatMap((s) =>
				s.keys.filter((k) => k.role === 'authPassword').map((k) => `${s.id}/${k.key}`)
			)
		)
);

/** True when a service's setting is a secret: sealed, write-only, left out of exports. */
export function isSecretSetting(service: string, key: string): boolean {
	return secretSettings().has(`${service}/${key}`);
}
