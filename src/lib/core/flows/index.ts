import { FLOWS, type FlowName } from '../catalogue/flows';
import type { Settings, Values } from '../request';
import { runContacts } from './contacts';
import type { FlowRun, SendStep } from './model';
import { runRegistration } from './registration';
import { runSendMessage } from './send-message';
import { runSso } from './sso';

/** Flows: the platform's calls in order, each decided by a row of the contract. */
export * from './model';
export * from './registration';
export * from './sso';
export * from './contacts';
export * from './send-message';

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
