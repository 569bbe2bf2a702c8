import type { DeclaredAccountKey } from './account-keys';
import type { Service } from './schema';
import { vocabularyOf } from './vocabulary';

/**
 * Sample values for every name a service's templates may use, from the catalogue, and from the
 * profile's account XML for the account keys it declares.
 */
export function sampleValues(
	service: Service,
	declared: readonly DeclaredAccountKey[] = []
): Record<string, string | readonly { username: string; device: string }[]> {
	const values: Record<string, string | readonly { username: string; device: string }[]> = {};
	for (const entry of vocabularyOf(service, declared).entries) {
		values[entry.key] = entry.variable.sample;
	}
	return values;
}

/** A starter template of a service for a body format, built from its variable names. */
export function starterBody(service: Service, format: 'form' | 'json' | 'xml'): string {
	const names = service.variables.map((v) => v.name);
	if (format === 'form') return names.map((n) => `${n}=%${n}%`).join('&');
	if (format === 'json') {
		const fields = service.variables.map((v) =>
			v.kind === 'list' ? `\t"${v.name}": %${v.name}%` : `\t"${v.name}": "%${v.name}%"`
		);
		return `{\n${fields.join(',\n')}\n}`;
	}
	const fields = names.map((n) => `\t<${n}>%${n}%</${n}>`);
	return `<root>\n${fields.join('\n')}\n</root>`;
}
