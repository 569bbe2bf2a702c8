import { createHash } from 'node:crypto';
import {
	decideReporter,
	decideSend,
	noAnswer,
	notCalled,
	reporterPlan,
	step,
	type Decision,
	type FlowStep,
	type SendStep,
	type StepOutcome
} from '$lib/core/flows';
import type { FlowRowId } from '$lib/core/catalogue/flows';
import {
	newPhone,
	withFetched,
	withPushed,
	withSent,
	type ObservedPush,
	type PhoneIdentity,
	type PhoneState
} from '$lib/core/phones';
import type { Settings, Values } from '$lib/core/request';
import { readFetchedLists, type ReadMessage } from '$lib/core/response/fetched-messages';
import type { StepRecord } from '../flows';

/**
 * A virtual phone: an account on a device, with the selector and push tokens the app would have,
 * acting as the app does (the contract and the platform's documentation): it reports its tokens
 * at start, sends one Send Message per recipient and keeps the sms_id, marks a push as received,
 * and fetches with its last known ids, moving them on. Every request goes out through the test
 * call's path; every step and every change of state is given to `emit`, so a page can follow.
 */

/** An account a phone signs in with. */
export interface PhoneAccount {
	username: string;
	password: string;
	displayName?: string;
}

/** What a phone tells whoever follows it. */
export type PhoneEvent =
	| { kind: 'step'; phone: string; step: FlowStep<StepRecord> }
	| { kind: 'state'; phone: string; state: PhoneState };

/** The profile a phone acts on, and how its requests are sent. */
export interface PhoneContext {
	services: Partial<Record<string, Settings>>;
	/** The profile's own account values, under the phone's account. */
	base: Values;
	send: SendStep<StepRecord>;
	emit: (event: PhoneEvent) => void;
}

/** A fetch as the phone read it. */
export interface PhoneFetch {
	step: FlowStep<StepRecord>;
	lists: { received: ReadMessage[]; sent: ReadMessage[] } | null;
	again: string[];
}

function hash(algorithm: 'sha1' | 'sha256', text: string): Buffer {
	return createHash(algorithm).update(text).digest();
}

/**
 * The selector and tokens of an account's device in a sandbox: the same on every run, so the
 * provider sees one device per account and device (as an app that keeps its tokens), and a
 * token the sandbox marks unregistered stays so. The selector has the app's `<sha1>:<suffix>`
 * shape.
 */
export function phoneIdentity(
	label: string,
	account: PhoneAccount,
	device: PhoneIdentity['device'],
	sandboxId: string,
	appId: string
): PhoneIdentity {
	const seed = `${sandboxId}\n${account.username}\n${device}`;
	return {
		label,
		username: account.username,
		displayName: account.displayName?.trim() || account.username,
		device,
		selector: `${hash('sha1', `${sandboxId}\n${account.username}`).toString('hex').toUpperCase()}:${hash('sha1', device).toString('hex').slice(0, 8).toUpperCase()}`,
		pushToken: hash('sha256', `other\n${seed}`).toString('base64'),
		pushTokenIncomingCall: hash('sha256', `voip\n${seed}`).toString('base64'),
		appId,
		appIdIncomingCall: `${appId}.voip`
	};
}

export class VirtualPhone {
	state: PhoneState;
	/** Every sms_id the phone has had, listed or not. */
	readonly #known = new Set<string>();
	readonly #pushed = new Set<string>();
	/** The settings of the last account document merged, by element name. */
	#settings = new Map<string, string>();

	/** With `prior`, the phone goes on from the state a kept run left it in (same device). */
	constructor(
		identity: PhoneIdentity,
		readonly account: PhoneAccount,
		readonly ctx: PhoneContext,
		prior?: PhoneState
	) {
		this.state = prior ? { ...prior, identity } : newPhone(identity);
		for (const m of prior?.messages ?? []) {
			if (m.smsId === '') continue;
			this.#known.add(m.smsId);
			if (m.ticks.pushed) this.#pushed.add(m.smsId);
		}
	}

	get identity(): PhoneIdentity {
		return this.state.identity;
	}

	/** The account's values, as the app fills its templates. */
	#values(extra: Values = {}): Values {
		return {
			...this.ctx.base,
			'account[username]': this.account.username,
			'account[password]': this.account.password,
			username: this.account.username,
			password: this.account.password,
			...extra
		};
	}

	#set(state: PhoneState): void {
		this.state = state;
		this.ctx.emit({ kind: 'state', phone: this.identity.label, state });
	}

	#step(s: FlowStep<StepRecord>): FlowStep<StepRecord> {
		this.ctx.emit({ kind: 'step', phone: this.identity.label, step: s });
		return s;
	}

	/** The selector, both tokens and both app ids, as the reporters take them. */
	#tokens(): Values {
		const id = this.identity;
		return this.#values({
			selector: id.selector,
			pushToken: id.pushToken,
			pushTokenOther: id.pushToken,
			pushTokenIncomingCall: id.pushTokenIncomingCall,
			pushappid: id.appId,
			pushappid_other: id.appId,
			pushappid_incoming_call: id.appIdIncomingCall
		});
	}

	/** Start: the Push Token Reporter with the selector, both tokens and both app ids. */
	async start(): Promise<FlowStep<StepRecord>> {
		const id = this.identity;
		const plan = reporterPlan(this.ctx.services.pushTokenReporter ?? {}, this.#tokens());
		plan.filled = { ...plan.filled, 'account[username]': this.account.username };
		const sent = await this.ctx.send(plan);
		const answer = sent.results[0];
		if (!answer) {
			const decision: Decision = {
				status: 'failed',
				text: `${notCalled('Push Token Reporter', sent.issues)} The provider never learns ${id.label}'s token.`,
				shownToUser: null
			};
			return this.#step(step<StepRecord>(plan, null, decision, 'pushTokenReported'));
		}
		const decision = decideReporter(answer.outcome, true);
		decision.text = `${id.label} (${this.account.username}): ${decision.text}`;
		if (decision.status === 'ok') this.#set({ ...this.state, started: true });
		const row = decision.status === 'ok' ? 'pushTokenReported' : 'pushTokenRetried';
		return this.#step(step(plan, answer.record, decision, row));
	}

	/** Sign out: the Account Removal Reporter, so the provider deletes this device's tokens. */
	async signOut(): Promise<FlowStep<StepRecord>> {
		const id = this.identity;
		const plan = {
			...reporterPlan(this.ctx.services.accountRemovalReporter ?? {}, this.#tokens()),
			service: 'accountRemovalReporter'
		};
		const sent = await this.ctx.send(plan);
		const answer = sent.results[0];
		const who = `${id.label} (${this.account.username}) signs out`;
		const decided = (status: Decision['status'], text: string, record: StepRecord | null) => {
			if (status === 'ok') this.#set({ ...this.state, started: false });
			const decision = { status, text: `${who}: ${text}`, shownToUser: null };
			return this.#step(step<StepRecord>(plan, record, decision, 'accountRemoved'));
		};
		if (!answer) {
			const text = `${notCalled('Account Removal Reporter', sent.issues)} The provider keeps the tokens and may push to them.`;
			return decided('failed', text, null);
		}
		const { outcome } = answer;
		if (outcome.kind !== 'answered')
			return decided('failed', `${noAnswer(outcome)}.`, answer.record);
		return outcome.interpretation.success
			? decided(
					'ok',
					`answered ${outcome.status}: the provider deletes the tokens stored under the selector.`,
					answer.record
				)
			: decided(
					'ignored',
					`answered ${outcome.status}: ${outcome.interpretation.summary} The provider may keep pushing to these tokens.`,
					answer.record
				);
	}

	/**
	 * Reprovision, on a NotifyReprovision: the provisioning service with the account's
	 * credentials; the account document's settings are merged and what changed is shown. Null
	 * when the profile configures no provisioning service (the app has nothing to reload).
	 */
	async reprovision(): Promise<FlowStep<StepRecord> | null> {
		const settings = this.ctx.services.initialProvisioning ?? {};
		if (!Object.values(settings).some((v) => (v ?? '').trim() !== '')) return null;
		const plan = { service: 'initialProvisioning', settings, values: this.#values(), filled: {} };
		const sent = await this.ctx.send(plan);
		const answer = sent.results[0];
		const who = `${this.identity.label} reloads its configuration`;
		const decided = (status: Decision['status'], text: string, record: StepRecord | null) =>
			this.#step(
				step<StepRecord>(
					plan,
					record,
					{ status, text: `${who}: ${text}`, shownToUser: null },
					'reprovisionPush'
				)
			);
		if (!answer) return decided('failed', notCalled('Initial provisioning', sent.issues), null);
		const { outcome } = answer;
		if (outcome.kind !== 'answered')
			return decided('failed', `${noAnswer(outcome)}.`, answer.record);
		const action = outcome.interpretation.action;
		if (action.kind !== 'provisioningAnswer' || action.result.outcome !== 'merged') {
			return decided('failed', outcome.interpretation.summary, answer.record);
		}
		const next = new Map(action.result.settings.map((s) => [s.key, s.value]));
		const changed = [...new Set([...next.keys(), ...this.#settings.keys()])].filter(
			(key) => next.get(key) !== this.#settings.get(key)
		);
		this.#settings = next;
		const shown = changed.slice(0, 20).join(', ');
		const more = changed.length > 20 ? ` and ${changed.length - 20} more` : '';
		return decided(
			'ok',
			changed.length
				? `answered ${outcome.status}; ${changed.length} setting${changed.length === 1 ? '' : 's'} changed: ${shown}${more}.`
				: `answered ${outcome.status}; nothing changed.`,
			answer.record
		);
	}

	/** Send: one Send Message to `to`, keeping the sms_id the provider answers. */
	async send(
		to: string,
		body: string,
		extra: { contentType: string; dispositionNotification: string }
	): Promise<{ step: FlowStep<StepRecord>; smsId: string | null; sent: boolean }> {
		const values = this.#values({
			sms_to: to,
			sms_body: body,
			content_type: extra.contentType,
			disposition_notification: extra.dispositionNotification
		});
		const plan = {
			service: 'sendMessage',
			settings: this.ctx.services.sendMessage ?? {},
			values,
			filled: {
				sms_to: to,
				content_type: extra.contentType,
				disposition_notification: extra.dispositionNotification
			}
		};
		const answer = await this.ctx.send(plan);
		const result = answer.results[0];
		if (!result) {
			const decision: Decision = {
				status: 'failed',
				text: notCalled('Send Message', answer.issues),
				shownToUser: null
			};
			return {
				step: this.#step(step<StepRecord>(plan, null, decision, 'sendPerRecipient')),
				smsId: null,
				sent: false
			};
		}
		const decided = decideSend(to, result.outcome);
		const ok = decided.decision.status === 'ok';
		if (ok) {
			this.#set(
				withSent(this.state, {
					smsId: decided.smsId ?? '',
					party: to,
					sendingDate: new Date().toISOString(),
					text: body.length > 200 ? `${body.slice(0, 200)}…` : body,
					contentType: extra.contentType,
					dispositionNotification: extra.dispositionNotification,
					thread: to
				})
			);
			if (decided.smsId) this.#known.add(decided.smsId);
		}
		const row = ok ? 'sendPerRecipient' : 'sendFailed';
		return {
			step: this.#step(step(plan, result.record, decided.decision, row)),
			smsId: decided.smsId,
			sent: ok
		};
	}

	/** Receive: a push for one of its tokens arrived (the notification is shown, then it fetches). */
	received(push: ObservedPush): void {
		const id = typeof push.push.Id === 'string' ? push.push.Id : '';
		if (id !== '') this.#pushed.add(id);
		this.#set(withPushed(this.state, id));
	}

	/** Fetch Messages with its last known ids; the ids move on to what came back. */
	async fetchMessages(row: FlowRowId, why: string): Promise<PhoneFetch> {
		const before = {
			last_known_sms_id: this.state.lastKnownSmsId,
			last_known_sent_sms_id: this.state.lastKnownSentSmsId
		};
		const plan = {
			service: 'fetchMessages',
			settings: this.ctx.services.fetchMessages ?? {},
			values: this.#values(before),
			filled: before
		};
		const answer = await this.ctx.send(plan);
		const result = answer.results[0];
		const fail = (text: string, record: StepRecord | null): PhoneFetch => ({
			step: this.#step(
				step<StepRecord>(plan, record, { status: 'failed', text, shownToUser: null }, row)
			),
			lists: null,
			again: []
		});
		if (!result) return fail(notCalled('Fetch Messages', answer.issues), null);
		const outcome: StepOutcome = result.outcome;
		if (outcome.kind !== 'answered') {
			return fail(`${this.identity.label} ${why}: ${noAnswer(outcome)}.`, result.record);
		}
		const record = result.record.result;
		const response = record && 'response' in record ? record.response : null;
		const read = outcome.interpretation.success
			? readFetchedLists(outcome.body, response?.contentType ?? null, [])
			: null;
		if (!read) {
			const why2 = outcome.interpretation.issues.find((i) => i.severity === 'error');
			const cut = response?.truncated
				? ` The answer was cut at the app's body limit (${response.size.body.toLocaleString('en')} bytes kept).`
				: '';
			return fail(
				`${this.identity.label} ${why}: answered ${outcome.status}. ${outcome.interpretation.summary}${why2 ? ` ${why2.message}` : ''}${cut}`,
				result.record
			);
		}
		const applied = withFetched(
			this.state,
			{ received: read.received, sent: read.sent },
			this.#known,
			this.#pushed
		);
		this.#set(applied.state);
		const again = applied.again.length
			? ` ${applied.again.length.toLocaleString('en')} of them it already had.`
			: '';
		const decision: Decision = {
			status: 'ok',
			text: `${this.identity.label} ${why}: ${read.result.summary}${again}`,
			shownToUser: null
		};
		return {
			step: this.#step(step(plan, result.record, decision, row)),
			lists: { received: read.received, sent: read.sent },
			again: applied.again
		};
	}
}
