import { FLOWS, type FlowName } from '../catalogue/flows';
import { getService } from '../catalogue';
import type { Variable } from '../catalogue';
import { isSecretKey } from '../profile/secret-keys';
import type { ProfileDocument } from '../profile/schema';
import type { Settings, Values } from '../request';
import { declaredAccountKeys } from '../xml/account';
import { APP_START_PUSHES } from './app-start';
import { FLOW_SERVICES, unsetPlaceholders } from './index';

/**
 * The fields a flow's form asks for: the flow's own inputs, then every placeholder its templates
 * use that neither the flow nor the profile gives. Nothing is filled with a sample: what the
 * journey needs is typed by whoever runs it.
 */

/** How a field is typed: one line, a secret, one value per line, or a list of parties (JSON). */
export type FlowFieldKind = 'text' | 'secret' | 'lines' | 'parties';

/** One field of a flow's form. */
export interface FlowField {
	/** The value's name, as the API takes it (`phoneNumber`, `account[cloud_password]`…). */
	name: string;
	/** What the value is, in the catalogue's or the flow's words. */
	meaning: string;
	kind: FlowFieldKind;
	required: boolean;
	/** The service whose template uses it, when it is not one of the flow's own inputs. */
	service: string | null;
	/** `phone`: an international number (+ and digits), as the wizard's page 1 takes it. */
	check: 'phone' | null;
	/** The values the field takes, when it is a choice (the first is the default). */
	choices?: readonly string[];
}

/** A profile's own account values (its kept XML's plain account keys, not its secrets). */
export function ownAccountValues(preserved: ProfileDocument['preservedXml']): Values {
	return Object.fromEntries(
		declaredAccountKeys(preserved)
			.filter((key) => !key.secret)
			.map((key) => [`account[${key.name}]`, key.value])
	);
}

/** The optional values a flow's form offers (see FLOWS), after the required ones. */
const OPTIONAL: Partial<
	Record<FlowName, { name: string; meaning: string; choices?: readonly string[] }[]>
> = {
	sso: [
		{
			name: 'cloud_id',
			meaning:
				'The cloud identifier of the application: the networkId the SSO server records when External Authentication answers none.'
		}
	],
	'app-start': [
		{
			name: 'pushTokenOther',
			meaning:
				'The second token, if the app has one; with platform = platformA13 the first report carries a null pushTokenOther, the next one this value.'
		},
		{ name: 'platform', meaning: 'The platform the app reports (platformA13 for platform A 13+).' },
		{ name: 'message', meaning: 'The text of the NotifyTextMessage push (default: New message).' },
		{ name: 'sender', meaning: 'Who the push says the message is from.' },
		{
			name: 'push',
			meaning:
				'The push the provider sends after the report: NotifyTextMessage (an incoming message; the device then fetches messages) or NotifyReprovision (the device reloads its configuration).',
			choices: APP_START_PUSHES
		}
	]
};

/** A flow's template variable by name (or its older spelling). */
function variableOf(flow: FlowName, name: string): Variable | undefined {
	for (const { service } of FLOW_SERVICES[flow]) {
		const found = getService(service).variables.find((v) => v.name === name || v.alias === name);
		if (found) return found;
	}
	return undefined;
}

function kindOf(flow: FlowName, name: string): FlowFieldKind {
	const variable = variableOf(flow, name);
	if (variable?.kind === 'list') return 'parties';
	if (variable?.perRecipient) return 'lines';
	if (variable?.secret || isSecretKey(name) || name === 'pin') return 'secret';
	return 'text';
}

/**
 * The fields of a flow's form over a profile's services, `known` being the values the profile
 * gives itself (its non-secret account values): those are not asked for.
 */
export function flowFields(
	flow: FlowName,
	services: Partial<Record<string, Settings>>,
	known: Values
): FlowField[] {
	const fields: FlowField[] = FLOWS[flow].inputs.map((input) => ({
		name: input.name,
		meaning: input.meaning,
		kind: kindOf(flow, input.name),
		required: true,
		service: null,
		check: input.name === 'phoneNumber' ? 'phone' : null
	}));
	for (const unset of unsetPlaceholders(flow, services, known)) {
		if (fields.some((f) => f.name === unset.name)) continue;
		fields.push({
			name: unset.name,
			meaning: variableOf(flow, unset.name)?.meaning ?? `Used as %${unset.name}% by the template.`,
			kind: kindOf(flow, unset.name),
			required: true,
			service: unset.service,
			check: null
		});
	}
	for (const optional of OPTIONAL[flow] ?? []) {
		if (fields.some((f) => f.name === optional.name)) continue;
		fields.push({ ...optional, kind: 'text', required: false, service: null, check: null });
	}
	return fields;
}

/** Why a typed value cannot be sent as the field asks, or null. */
export function fieldProblem(field: FlowField, value: string): string | null {
	const text = value.trim();
	if (text === '') return field.required ? 'Required: the flow needs it.' : null;
	if (field.choices && !field.choices.includes(text)) {
		return `One of ${field.choices.join(', ')}.`;
	}
	if (field.check === 'phone' && !/^\+[1-9][0-9]{4,14}$/.test(text.replace(/[\s-]/g, ''))) {
		return 'An international number: + then the country code and number, digits only (like +14155550123).';
	}
	if (field.kind === 'parties') {
		try {
			const parsed: unknown = JSON.parse(text);
			const ok =
				Array.isArray(parsed) &&
				parsed.every(
					(p) =>
						p !== null &&
						typeof p === 'object' &&
						typeof (p as Record<string, unknown>).username === 'string' &&
						typeof (p as Record<string, unknown>).device === 'string'
				);
			if (!ok) throw new Error('not parties');
		} catch {
			return 'A JSON array of {"username": "…", "device": "…"} objects.';
		}
	}
	return null;
}

/** A typed value as the API takes it: lines become a list, parties are parsed, text is trimmed. */
export function fieldValue(field: FlowField, value: string): Values[string] {
	if (field.kind === 'lines') {
		return value
			.split('\n')
			.map((line) => line.trim())
			.filter((line) => line !== '');
	}
	if (field.kind === 'parties') return JSON.parse(value) as Values[string];
	if (field.kind === 'secret') return value;
	return field.check === 'phone' ? value.replace(/[\s-]/g, '') : value.trim();
}
