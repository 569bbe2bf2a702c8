import { describe, expect, it } from 'vitest';
import { sampleValues, getService } from '$lib/core/catalogue';
import { buildRequests, type Values } from '$lib/core/request';
import { LatestBuild, type BuildChannel } from './preview-builds.svelte';
import {
	answer,
	packSubstitutions,
	resultOf,
	runJob,
	unpackSubstitutions,
	type AnswerMessage,
	type JobMessage,
	type PreviewJob
} from './preview-job';

const service = getService('sendMessage');
const values = sampleValues(service, []) as Values;

function job(body: string, rawSubstitution = false): PreviewJob {
	return {
		serviceId: 'sendMessage',
		settings: {
			genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%',
			genericSmsSendPostData: body,
			genericSmsSendContentType: 'application/json'
		},
		values: { ...values, sms_body: 'Hi "you" & <them>' },
		rawSubstitution,
		accountKeys: []
	};
}

/** A job the builder cannot take: a fault of the page, not of the user's input. */
const broken = { ...job('[]'), settings: null } as unknown as PreviewJob;

const LINE = '{"to":"%sms_to%","text":"%sms_body%","id":"%sha1(%sms_to%)%"}';
const BODY = `[${Array(500).fill(LINE).join(',\n')}]`;

/**
 * A builder on the other end of a real message channel (the structured copy a worker's messages
 * get, typed arrays handed over), answering as the worker does, one message at a time.
 */
function channel(): BuildChannel & { built: number[] } {
	const { port1, port2 } = new MessageChannel();
	const built: number[] = [];
	port2.onmessage = (event: MessageEvent<JobMessage>) => {
		built.push(event.data.id);
		const { answer: message, transfer } = answer(event.data);
		port2.postMessage(message, transfer as Transferable[]);
	};
	return {
		built,
		post: (message) => port1.postMessage(message),
		listen: (onAnswer) => {
			port1.onmessage = (event: MessageEvent<AnswerMessage>) => onAnswer(event.data);
		},
		close: () => {
			port1.close();
			port2.close();
		}
	};
}

async function settled(build: LatestBuild): Promise<void> {
	for (let i = 0; i < 200 && build.updating; i++) await new Promise((r) => setTimeout(r, 5));
}

describe('preview jobs', () => {
	it('pack and unpack substitutions exactly, the raw mode’s breaks included', () => {
		for (const raw of [false, true]) {
			const built = runJob(job(BODY, raw));
			const body = built.requests[0].substitutions.body;
			expect(body.length).toBe(1500);
			expect(body.some((s) => s.breaks !== undefined)).toBe(raw);
			expect(unpackSubstitutions(structuredClone(packSubstitutions(body)))).toEqual(body);
		}
	});

	it('answer with the result of the one request builder, as it is after a copy between threads', () => {
		const input = job(BODY);
		const { answer: message, transfer } = answer({ id: 7, job: input });
		const copied = structuredClone(message, { transfer: transfer as Transferable[] });
		if (!('result' in copied)) throw new Error('no result');
		expect(copied.id).toBe(7);
		expect(resultOf(copied)).toEqual(
			buildRequests({
				service,
				settings: input.settings,
				values: input.values,
				rawSubstitution: false,
				accountKeys: []
			})
		);
	});

	it('answer a fault of the builder with its message instead of throwing', () => {
		const { answer: message } = answer({ id: 1, job: broken });
		expect(message).toEqual({ id: 1, error: expect.stringMatching(/null/) });
	});
});

describe('LatestBuild', () => {
	it('builds the first job and then only the newest of those asked for meanwhile', async () => {
		const ends = channel();
		const build = new LatestBuild(ends);
		expect(build.updating).toBe(false);
		expect(build.result).toBeNull();
		for (const n of [1, 2, 3, 4]) build.request(job(`[${n}, "%sms_to%"]`));
		expect(build.updating).toBe(true);
		await settled(build);
		expect(build.updating).toBe(false);
		expect(ends.built).toEqual([1, 4]);
		expect(build.result?.requests[0].body).toBe('[4, "+14155550123"]');
		expect(build.jobOf()?.settings.genericSmsSendPostData).toBe('[4, "%sms_to%"]');
		build.close();
	});

	it('stays marked as updating while a newer job than the shown result is on its way', async () => {
		const build = new LatestBuild(channel());
		build.request(job('[1]'));
		await settled(build);
		build.request(job('[2]'));
		expect(build.updating).toBe(true);
		expect(build.result?.requests[0].body).toBe('[1]');
		await settled(build);
		expect(build.result?.requests[0].body).toBe('[2]');
		build.close();
	});

	it('stops, saying why, when the builder fails, so previews are built in place again', async () => {
		const build = new LatestBuild(channel());
		build.request(broken);
		await settled(build);
		expect(build.fault).toMatch(/null/);
		expect(build.updating).toBe(false);
		build.request(job('[2]'));
		expect(build.updating).toBe(false);
		expect(build.result).toBeNull();
	});
});
