import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	DEPRECATED_XML_KEYS,
	PORTAL_KEYS,
	XML_FORMS,
	XML_KEYS,
	type XmlForm
} from '../catalogue/placement';
import { emptyDocument, type ProfileDocument } from '../profile';
import { checkedBySecondParser } from '../../../../tests/helpers/xml';
import { applyImport, escapeXmlText, exportXml as exportOnly, importXml, isXmlText } from '.';

/** `exportXml`, with every exported document read by a second, independent XML parser. */
const exportXml = checkedBySecondParser(exportOnly);

/**
 * The round trip: for generated profiles (arbitrary setting values, unknown elements at
 * arbitrary places), importing the export gives the profile back, in both forms.
 */

const TRICKY = [
	']]>',
	'&',
	'&amp;',
	'"',
	"'",
	'<',
	'>',
	'\n',
	'\r\n',
	'\r',
	'\t',
	'  ',
	'🎉',
	'%x%',
	'007'
];

const valueArb = fc
	.array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'binary', maxLength: 8 })), {
		minLength: 1,
		maxLength: 6
	})
	.map((parts) => parts.join(''))
	.filter((text) => text !== '' && isXmlText(text));

const TAKEN = new Set([
	...XML_KEYS.map((p) => p.key.key),
	...DEPRECATED_XML_KEYS.map((d) => d.deprecated.key),
	'provisioning',
	'account',
	'core',
	'__proto__',
	'constructor',
	'prototype'
]);

const elementArb = fc
	.tuple(
		fc.oneof(
			fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,10}$/),
			fc.constantFrom(...PORTAL_KEYS.map((p) => p.key.key), 'toString', 'valueOf')
		),
		fc.option(fc.string({ maxLength: 6 }).filter(isXmlText)),
		valueArb
	)
	.filter(([name]) => !TAKEN.has(name) && !/^xml/i.test(name))
	.map(([name, attribute, text]) => {
		const attr =
			attribute === null ? '' : ` v="${escapeXmlText(attribute).replace(/"/g, '&quot;')}"`;
		return `<${name}${attr}>${escapeXmlText(text)}</${name}>`;
	});

/** Unknown elements at valid places among `fixed` generated children of a container. */
function placedArb(path: string, fixed: number) {
	return fc.array(elementArb, { maxLength: 4 }).chain((elements) =>
		fc
			.shuffledSubarray(
				Array.from({ length: fixed + elements.length }, (_, i) => i),
				{ minLength: elements.length, maxLength: elements.length }
			)
			.map((positions) => {
				positions.sort((a, b) => a - b);
				return elements.map((xml, i) => ({ path, index: positions[i], xml }));
			})
	);
}

function profileArb(form: XmlForm): fc.Arbitrary<ProfileDocument> {
	const settingsPath = XML_FORMS.provisioning.settingsPath;
	return fc
		.uniqueArray(fc.constantFrom(...XML_KEYS), { selector: (p) => p.key.key, maxLength: 10 })
		.chain((keys) =>
			fc
				.tuple(
					fc.array(valueArb, { minLength: keys.length, maxLength: keys.length }),
					form === 'provisioning' ? placedArb('provisioning', 1) : fc.constant([]),
					form === 'provisioning' ? placedArb('provisioning/account', 1) : fc.constant([]),
					placedArb(settingsPath, keys.length)
				)
				.map(([values, outer, middle, inner]) => {
					const document = emptyDocument();
					const services = document.services as Record<string, Record<string, string>>;
					keys.forEach((p, i) => ((services[p.service.id] ??= {})[p.key.key] = values[i]));
					document.preservedXml = [...outer, ...middle, ...inner];
					return document;
				})
		);
}

describe('XML round trip', () => {
	it.each(['provisioning', 'account'] as const)(
		'import(export(profile)) is the profile, in the %s form',
		(form) => {
			fc.assert(
				fc.property(profileArb(form), (profile) => {
					// With credentials: a kept element named like one (`<a.key>`) is left out otherwise.
					const exported = exportXml(profile, form, { credentials: 'include' });
					if (!exported.ok) throw new Error(JSON.stringify(exported.issues));
					const imported = importXml(exported.value);
					if (!imported.ok) throw new Error(JSON.stringify(imported.issues));
					expect(imported.value.form).toBe(form);
					const applied = applyImport(emptyDocument(), imported.value);
					expect(applied.ok && applied.value).toEqual(profile);
				}),
				{ numRuns: 300 }
			);
		},
		60_000
	);

	it('exports the same text again after a round trip', () => {
		fc.assert(
			fc.property(profileArb('provisioning'), (profile) => {
				const first = exportXml(profile, 'provisioning');
				const imported = first.ok ? importXml(first.value) : null;
				const applied = imported?.ok ? applyImport(emptyDocument(), imported.value) : null;
				const second = applied?.ok ? exportXml(applied.value, 'provisioning') : null;
				expect(second?.ok && second.value).toBe(first.ok && first.value);
			}),
			{ numRuns: 100 }
		);
	});
});

/** Pieces of markup, good and bad, that an uploaded document may hold in any order. */
const PIECES = [
	'<x>',
	'</x>',
	'<y/>',
	'<doc/>',
	'</doc/>',
	'<? ?>',
	'<?pi data?>',
	'<?xml version="1.0"?>',
	'<?XML version="1.0"?>',
	'<!ENTITY a "b">',
	'<!ELEMENT a ANY>',
	'<!x>',
	'<!-- c -->',
	'<!-- a -- b -->',
	'<![CDATA[ x ]]>',
	'<![CDATA [ x]]>',
	'<![cdata[x]]>',
	']]>',
	'&',
	'&amp;',
	'&nbsp;',
	'&#0;',
	'&#x41;',
	'<z a="1">',
	'<z a="<">',
	'<z a=\'&lt;\' b="2">',
	'</z>',
	'text',
	' ',
	'\n'
];

describe('what the import accepts, the export writes as XML any parser reads', () => {
	it('holds for documents made of good and bad markup in any order', () => {
		fc.assert(
			fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }), (pieces) => {
				const xml = `<account>${pieces.join('')}<genericSmsSendUrl>u</genericSmsSendUrl></account>`;
				const imported = importXml(xml);
				if (!imported.ok) {
					expect(imported.issues[0].message).toMatch(/\(line \d+, column \d+\)$/);
					return;
				}
				const applied = applyImport(emptyDocument(), imported.value);
				if (!applied.ok) return;
				for (const form of ['provisioning', 'account'] as const) {
					const exported = exportXml(applied.value, form);
					expect(exported.ok, JSON.stringify(exported.issues)).toBe(true);
				}
			}),
			{ numRuns: 1000 }
		);
	}, 60_000);
});
