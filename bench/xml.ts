import { XML_KEYS } from '../src/lib/core/catalogue';
import { emptyDocument, type ProfileDocument } from '../src/lib/core/profile';
import { applyImport, exportXml, importXml } from '../src/lib/core/xml';
import { ms, time } from './measure';

/**
 * XML export and import of a large profile: 1 MB of templates spread over the XML settings and
 * 10,000 unknown elements kept from an earlier import, in both directions, plus the round trip.
 */

const UNIT = '{"to":"%sms_to%","body":"%sms_body%","note":"a & b < c ]]> \\"q\\""}\n';

function largeProfile(): ProfileDocument {
	const document = emptyDocument();
	const services = document.services as Record<string, Record<string, string>>;
	const templates = XML_KEYS.filter((p) => p.key.role === 'postData');
	const share = Math.ceil((1024 * 1024) / templates.length / UNIT.length);
	for (const { service, key } of templates) {
		(services[service.id] ??= {})[key.key] = UNIT.repeat(share);
	}
	document.preservedXml = Array.from({ length: 10_000 }, (_, i) => ({
		path: i % 10 === 0 ? 'provisioning' : 'provisioning/account/core',
		index: i,
		xml: `<setting${i % 50} id="${i}">value &amp; ${i}</setting${i % 50}>`
	}));
	return document;
}

/** Runs the XML benchmark and returns its table rows. */
export function benchXml(): string[][] {
	const profile = largeProfile();
	const exported = exportXml(profile, 'provisioning');
	if (!exported.ok)
		throw new Error(`The bench profile does not export: ${exported.issues[0].message}`);
	const xml = exported.value;
	const bytes = new TextEncoder().encode(xml).length;
	const label = `${(bytes / 1024 / 1024).toFixed(2)} MB XML, 10,000 kept elements`;
	const exportTime = time(() => exportXml(profile, 'provisioning'), 5, 3000);
	const importTime = time(() => importXml(xml), 5, 3000);
	const roundTrip = time(
		() => {
			const imported = importXml(xml);
			if (imported.ok) applyImport(emptyDocument(), imported.value);
		},
		5,
		3000
	);
	return [
		[label, 'export', ms(exportTime.p50), ms(exportTime.p95), String(exportTime.runs)],
		[
			label,
			'import (read and check)',
			ms(importTime.p50),
			ms(importTime.p95),
			String(importTime.runs)
		],
		[label, 'import + apply', ms(roundTrip.p50), ms(roundTrip.p95), String(roundTrip.runs)]
	];
}
