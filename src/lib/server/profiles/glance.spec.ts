import { describe, expect, it } from 'vitest';
import { SERVICES } from '$lib/core/catalogue';
import { newDocument, type ProfileDocument } from '$lib/core/profile';
import type { ServerContext } from '../platform/context';
import type { FlowRunSummary } from '../flows';
import { glanceOf, pushState, revisionStates, serviceState, statesOf, verdictOf } from './glance';
import type { ProfileRow, RevisionRow } from '../store/types';

function withServices(services: Record<string, Record<string, string>>): ProfileDocument {
	return { ...newDocument(), services } as ProfileDocument;
}

function run(at: number, flow: string, steps: FlowRunSummary['steps'], ok = true): FlowRunSummary {
	return { id: at, flow, at, ok, by: 'ada@example.test', draft: null, steps };
}

describe('serviceState', () => {
	it('says a service without settings is not set', () => {
		expect(serviceState(newDocument(), 'sendMessage')).toEqual({
			state: 'unset',
			errors: 0,
			warnings: 0
		});
	});

	it('counts the problems the request builder finds, as the editor does', () => {
		const good = withServices({
			sendMessage: { genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%' }
		});
		expect(serviceState(good, 'sendMessage')).toEqual({ state: 'ok', errors: 0, warnings: 0 });
		// Plain http and a name Send Message's caller does not fill.
		const bad = withServices({
			sendMessage: { genericSmsSendUrl: 'http://sms.example.com/send?to=%nobody_fills_this%' }
		});
		const state = serviceState(bad, 'sendMessage');
		expect(state.state).not.toBe('ok');
		expect(state.errors + state.warnings).toBeGreaterThan(0);
	});
});

describe('verdictOf', () => {
	it('says whether every request succeeded, with the statuses', () => {
		expect(verdictOf([{ status: 200, success: true }])).toEqual({
			ok: true,
			verdict: 'Succeeded (200)'
		});
		expect(
			verdictOf([
				{ status: 200, success: true },
				{ status: 500, success: false }
			])
		).toEqual({ ok: false, verdict: 'Failed (200, 500)' });
		// A call that sent nothing (no URL) has no status to show.
		expect(verdictOf([])).toEqual({ ok: false, verdict: 'Nothing sent' });
		expect(verdictOf([{ error: 'connect_refused' }])).toEqual({
			ok: false,
			verdict: 'No answer (connect_refused)'
		});
	});
});

describe('pushState', () => {
	it('says untouched push settings are not set, and counts the problems of set ones', () => {
		const push = newDocument().push;
		expect(pushState(push).state).toBe('unset');
		const missingAppId = pushState({ ...push, gatewayUrl: 'https://push.example.com/pnm2' });
		expect(missingAppId.state).not.toBe('unset');
		expect(missingAppId.errors + missingAppId.warnings).toBeGreaterThan(0);
	});
});

describe('glanceOf', () => {
	it('lists every template service with its newest call and its step in the newest run', () => {
		const document = withServices({
			sendMessage: { genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%' }
		});
		const glance = glanceOf(
			statesOf(document),
			[
				{ at: 5, service: 'sendMessage', by: 'Ada', outcomes: [{ status: 200, success: true }] },
				{ at: 6, service: 'nowhere', by: 'Bob', outcomes: [] }
			],
			[
				run(9, 'sso', [{ service: 'externalAuth', status: 'ok' }], false),
				run(8, 'send-message', [
					{ service: 'sendMessage', status: 'ok' },
					{ service: 'sendMessage', status: 'failed' }
				]),
				run(7, 'send-message', [{ service: 'sendMessage', status: 'ok' }])
			]
		);
		expect(glance.services.map((s) => s.id)).toEqual(
			SERVICES.filter((s) => s.kind === 'template').map((s) => s.id)
		);
		const send = glance.services.find((s) => s.id === 'sendMessage')!;
		expect(send).toMatchObject({
			state: 'ok',
			lastCall: { at: 5, by: 'Ada', ok: true, verdict: 'Succeeded (200)' },
			lastFlow: { at: 8, flow: 'send-message', status: 'failed' }
		});
		const unset = glance.services.find((s) => s.id !== 'sendMessage' && s.lastFlow === null)!;
		expect(unset).toMatchObject({ state: 'unset', lastCall: null });
		expect(glance.lastRun).toEqual({
			at: 9,
			flow: 'sso',
			title: 'SSO sign-in',
			ok: false,
			by: 'ada@example.test'
		});
		expect(glance.push.state).toBe('unset');
	});

	it('has no last run when the profile has none', () => {
		expect(glanceOf(statesOf(newDocument()), [], []).lastRun).toBeNull();
	});
});

describe('revisionStates', () => {
	/** A server whose store holds one profile with two revisions, counting the revisions read. */
	function serverWithProfile() {
		const reads: number[] = [];
		const row: ProfileRow = {
			id: 'p',
			name: 'P',
			createdAt: 1,
			createdBy: null,
			deletedAt: null,
			headRevision: 2,
			updatedAt: 1
		};
		const documents: Record<number, ProfileDocument> = {
			1: newDocument(),
			2: withServices({
				sendMessage: { genericSmsSendUrl: 'https://sms.example.com/?to=%sms_to%' }
			})
		};
		const revision = async (_id: string, n: number): Promise<RevisionRow | undefined> => {
			reads.push(n);
			if (!documents[n]) return undefined;
			return {
				profileId: 'p',
				revision: n,
				document: JSON.stringify(documents[n]),
				secrets: null,
				authorId: null,
				authorName: null,
				createdAt: 1,
				message: null
			};
		};
		const store = { profiles: { get: async () => row, revision } };
		return { ctx: { store } as unknown as ServerContext, reads };
	}

	it('reads and builds a revision once, and each revision apart', async () => {
		const { ctx, reads } = serverWithProfile();
		const [first, again] = await Promise.all([
			revisionStates(ctx, 'p', 2),
			revisionStates(ctx, 'p', 2)
		]);
		expect(first?.services.sendMessage.state).toBe('ok');
		expect(again).toBe(first);
		expect(await revisionStates(ctx, 'p', 2)).toBe(first);
		expect(reads).toEqual([2]);
		expect((await revisionStates(ctx, 'p', 1))?.services.sendMessage.state).toBe('unset');
		expect(reads).toEqual([2, 1]);
	});

	it('keeps nothing for a revision that does not exist', async () => {
		const { ctx, reads } = serverWithProfile();
		expect(await revisionStates(ctx, 'p', 9)).toBeUndefined();
		expect(await revisionStates(ctx, 'p', 9)).toBeUndefined();
		expect(reads).toEqual([9, 9]);
	});
});
