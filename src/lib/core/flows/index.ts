import { FLOWS, type FlowName } from '../catalogue/flows';
import { buildRequests, type Settings, type Values } from '../request';
import { runContacts } from './contacts';
import type { FlowRun, SendStep } from './model';
import { pageTwoService, pageTwoSettings, runRegistration } from './registration';
import { runSendMessage } from './send-message';
import { runSso } from './sso';

/** Flows: the platform's calls in order, each decided by a row of the contract. */
export * from './model';
export * from './registration';
export * from './sso';
export * from './contacts';
export * from './send-message';
export * from './app-start';

/** The inputs of a flow that the values lack (a name per input, as written in the values). */
export function missingInputs(flow: FlowName, values: Values): string[] {
	return FLOWS[flow].inputs
		.map((input) => input.name)
		.filter((name) => {
			const value = Object.hasOwn(values, name) ? values[name] : undefined;
			if (value === undefined) return true;
			return typeof value === 'string' ? value.trim() === '' : value.length === 0;
		});
}

/**
 * The services each flow calls, with the placeholders the flow fills itself (from the inputs or
 * an earlier answer): every other placeholder a template uses must come from the values.
 */
export const FLOW_SERVICES: Record<FlowName, { service: string; fills: string[] }[]> = {
	registration: [
		{ service: 'phoneNumberVerifier', fills: ['phoneNumber'] },
		{
			service: 'extSSOProv',
			fills: ['account[cloud_username]', 'account[cloud_password]', 'username', 'password']
		},
		{ service: 'initialProvisioning', fills: ['username', 'password'] }
	],
	sso: [
		{ service: 'extSSOProv', fills: [] },
		{ service: 'externalAuth', fills: ['username', 'password'] }
	],
	contacts: [
		{ service: 'invitationAccepted', fills: [] },
		{ service: 'smartContactNotification', fills: [] }
	],
	'send-message': [{ service: 'sendMessage', fills: [] }],
	'app-start': [{ service: 'pushTokenReporter', fills: [] }]
};

/**
 * The placeholders a flow's templates use that neither the values nor the flow give: asked for,
 * never sent empty without a word. (The registration's page 2 ignores the SSO skip flag, so its
 * template is checked even when the flag is set.)
 */
export function unsetPlaceholders(
	flow: FlowName,
	services: Partial<Record<string, Settings>>,
	values: Values
): { service: string; name: string }[] {
	const unset: { service: string; name: string }[] = [];
	const pageTwo = flow === 'registration' ? pageTwoService(services) : null;
	for (const { service, fills } of FLOW_SERVICES[flow]) {
		let settings = services[service] ?? {};
		if (pageTwo !== null && service !== 'phoneNumberVerifier') {
			// Page 2 calls one of its two services, and never reads the SSO skip flag.
			if (service !== pageTwo) continue;
			settings = pageTwoSettings(services, service);
		}
		const given: Values = { ...values };
		for (const name of fills) given[name] ??= 'x';
		for (const issue of buildRequests({ service, settings, values: given }).issues) {
			const name = issue.code === 'missing_value' ? /^%(.+?)% /.exec(issue.message)?.[1] : null;
			if (name) unset.push({ service, name });
		}
	}
	return unset;
}

/** The flows run by {@link runFlow} (app start needs a push gateway, run by the server). */
export type CoreFlowName = Exclude<FlowName, 'app-start'>;

/** Runs a flow over a profile's service settings, sending each step with `send`. */
export function runFlow<R>(
	flow: CoreFlowName,
	services: Partial<Record<string, Settings>>,
	values: Values,
	send: SendStep<R>
): Promise<FlowRun<R>> {
	switch (flow) {
		case 'registration':
			return runRegistration(services, values, send);
		case 'sso':
			return runSso(services, values, send);
		case 'contacts':
			return runContacts(services, values, send);
		case 'send-message':
			return runSendMessage(services, values, send);
	}
}
