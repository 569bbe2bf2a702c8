import { findService, SERVICES, sampleValues, vocabularyOf } from '$lib/core/catalogue';
import { append, type Issue } from '$lib/core/issues';
import { isSecretKey, SECRET_MASK, type Scenario } from '$lib/core/profile';
import {
	buildRequests,
	firstRequestValues,
	maskSecretsIn,
	redactRequest,
	secretForms,
	type BuiltRequest,
	type Values
} from '$lib/core/request';
import { sha1Hex } from '$lib/core/template';
import { declaredAccountKeys } from '$lib/core/xml';
import type { OutboundConfig } from '$lib/server/outbound';
import { GALLERY } from '$lib/core/catalogue/gallery';
import { InputError, loadGallery, loadProfile, type LoadedProfile } from './inputs';
import type { Expectation } from './expect';
import type { ServerTarget, ServiceCall } from './server';
import {
	atLeast,
	EXIT,
	type CheckReport,
	type FileResult,
	type Finding,
	type FlowOutcome,
	type LiveChoice,
	type LivePlan,
	type RenderedRequest,
	type Rendering
} from './model';
import {
	diffText,
	readSnapshot,
	removeSnapshot,
	requestText,
	snapshotFolder,
	snapshotPath,
	storedSnapshots,
	writeSnapshot
} from './snapshots';

/**
 * `check`: every service of every profile linted with the catalogue's rules (through the same
 * request builder the editor previews with), rendered for every scenario, compared with stored
 * snapshots, and with `--live`, sent and judged.
 */

/** What `check` was asked to do. */
export interface CheckOptions {
	files: string[];
	/** An explicit scenario file for every input. */
	scenarioFile?: string;
	snapshots?: string;
	updateSnapshots: boolean;
	/** Secret values by placeholder key (`account[password]`), from environment variables. */
	secrets: Record<string, string>;
	failOn: CheckReport['failOn'];
	live?: LiveChoice & { config: OutboundConfig; expectations: Expectation[] };
	/** Told what `--live` will send, once every file is rendered and before anything is sent. */
	onLivePlan?: (plan: LivePlan) => void;
	/** Check the gallery's templates instead of files. */
	gallery?: boolean;
	/** Lint and render through a running app (and run its flows) instead of locally. */
	server?: ServerTarget;
	version: string;
}

/** The template services, in catalogue order. */
const TEMPLATE_SERVICES = SERVICES.filter((s) => s.kind === 'template');

/**
 * The scenarios a service is rendered with: those that give a value its templates can use (a
 * text message's scenarios mean nothing to the push token reporter), else one scenario of the
 * catalogue's samples.
 */
export function scenariosFor(
	serviceId: string,
	scenarios: readonly Scenario[],
	profile: LoadedProfile
): Scenario[] {
	const service = findService(serviceId)!;
	const vocabulary = vocabularyOf(service, declaredAccountKeys(profile.document.preservedXml));
	const names = new Set(vocabulary.entries.map((e) => e.key));
	const relevant = scenarios.filter((s) => Object.keys(s.values).some((key) => names.has(key)));
	return relevant.length ? relevant : [{ name: 'Samples', values: {} }];
}

/** The values of one scenario as the editor previews them: its own over the samples, secrets over both. */
export function scenarioValues(
	serviceId: string,
	scenario: Scenario,
	profile: LoadedProfile,
	secrets: Record<string, string>
): Values {
	const service = findService(serviceId)!;
	const declared = declaredAccountKeys(profile.document.preservedXml);
	// A backup made without secrets holds the mask: the catalogue's sample is sent instead.
	const own = Object.entries(scenario.values).filter(([, value]) => value !== SECRET_MASK);
	return { ...(sampleValues(service, declared) as Values), ...Object.fromEntries(own), ...secrets };
}

/** Every form of the given secret values (typed, hashed, encoded) to mask in every output. */
export function secretFormsOf(secrets: Record<string, string>, extra: string[] = []): string[] {
	const typed = Object.values(secrets).flatMap((value) => {
		const hash = sha1Hex(value);
		return [value, hash, hash.toUpperCase()];
	});
	return secretForms([...typed, ...extra]);
}

/** The built services of one profile: its template services that have settings. */
export function configuredServices(profile: LoadedProfile): string[] {
	const services = profile.document.services as Record<string, Record<string, string>>;
	return TEMPLATE_SERVICES.filter(
		(s) => services[s.id] && Object.keys(services[s.id]).length > 0
	).map((s) => s.id);
}

/** Builds one service of a profile with one scenario. */
export function build(
	profile: LoadedProfile,
	serviceId: string,
	values: Values
): { requests: BuiltRequest[]; issues: Issue[] } {
	const services = profile.document.services as Record<string, Record<string, string>>;
	return buildRequests({
		service: serviceId,
		settings: services[serviceId] ?? {},
		values,
		rawSubstitution: profile.document.rawSubstitution,
		accountKeys: declaredAccountKeys(profile.document.preservedXml)
	});
}

/** The values of secret placeholders (`account[password]`, a profile's `account[apiPass]`). */
function secretValuesIn(values: Values): Record<string, string> {
	const secret: Record<string, string> = {};
	for (const [key, value] of Object.entries(values)) {
		if (typeof value === 'string' && value !== '' && isSecretKey(key)) secret[key] = value;
	}
	return secret;
}

/** What the server is asked to build: one service of a profile with one scenario's values. */
function serviceCall(profile: LoadedProfile, service: string, values: Values): ServiceCall {
	const services = profile.document.services as Record<string, Record<string, string>>;
	return {
		service,
		settings: services[service] ?? {},
		values,
		rawSubstitution: profile.document.rawSubstitution,
		preservedXml: profile.document.preservedXml
	};
}

/**
 * One service of a profile with one scenario, rendered and linted: by the program's core, or
 * with `--server` by the server's preview (its requests masked here, as the core masks them).
 */
export async function renderService(
	profile: LoadedProfile,
	service: string,
	values: Values,
	server: ServerTarget | undefined
): Promise<{ requests: RenderedRequest[]; issues: Issue[]; built: BuiltRequest[] }> {
	if (!server) {
		const built = build(profile, service, values);
		return { requests: built.requests.map(shown), issues: built.issues, built: built.requests };
	}
	const { serverPreview } = await import('./server');
	const answer = await serverPreview(server, serviceCall(profile, service, values));
	const forms = secretFormsOf(secretValuesIn(values));
	return { requests: maskSecretsIn(answer.requests, forms), issues: answer.issues, built: [] };
}

/** A rendered request with every secret masked where it landed. */
export function shown(request: BuiltRequest) {
	const redacted = redactRequest(request);
	return {
		method: redacted.method,
		url: redacted.url,
		headers: redacted.headers,
		body: redacted.body,
		...(request.recipient !== undefined ? { recipient: request.recipient } : {})
	};
}

function issueFinding(
	profile: LoadedProfile,
	service: string,
	issue: Issue,
	scenario: string
): Finding {
	const place =
		issue.field !== undefined ? profile.locate(service, issue.field, issue.from) : undefined;
	return {
		file: profile.file,
		severity: issue.severity,
		code: issue.code,
		message: issue.message,
		service,
		...(issue.field !== undefined ? { key: issue.field } : {}),
		...(place ? { place } : {}),
		scenarios: [scenario]
	};
}

/** Lint findings seen with several scenarios are one finding naming them all. */
function merge(findings: Finding[]): Finding[] {
	const byId = new Map<string, Finding>();
	for (const f of findings) {
		const id = [f.code, f.service, f.key, f.place?.line, f.place?.column, f.message].join('\u0000');
		const seen = byId.get(id);
		if (seen) seen.scenarios = [...(seen.scenarios ?? []), ...(f.scenarios ?? [])];
		else byId.set(id, { ...f });
	}
	return [...byId.values()];
}

function compareSnapshot(
	options: CheckOptions,
	rendering: Rendering,
	findings: Finding[],
	expected: Set<string>
): void {
	if (!options.snapshots) return;
	const file = snapshotPath(
		options.snapshots,
		rendering.file,
		rendering.service,
		rendering.scenario
	);
	expected.add(file);
	const text = requestText(rendering.requests);
	const stored = readSnapshot(file);
	if (options.updateSnapshots) {
		if (stored !== text) writeSnapshot(file, text);
		rendering.snapshot = { path: file, status: stored === text ? 'match' : 'written' };
		return;
	}
	if (stored === null) {
		rendering.snapshot = { path: file, status: 'missing' };
		findings.push({
			file: rendering.file,
			severity: 'error',
			code: 'snapshot_missing',
			message: `No stored snapshot of ${rendering.service} with "${rendering.scenario}" (${file}): run with --update-snapshots to write it.`,
			service: rendering.service,
			scenarios: [rendering.scenario]
		});
	} else if (stored !== text) {
		rendering.snapshot = { path: file, status: 'differs' };
		findings.push({
			file: rendering.file,
			severity: 'error',
			code: 'snapshot_differs',
			message: `The request of ${rendering.service} with "${rendering.scenario}" differs from its snapshot (${file}).`,
			service: rendering.service,
			scenarios: [rendering.scenario],
			diff: diffText(stored, text)
		});
	} else rendering.snapshot = { path: file, status: 'match' };
}

function obsoleteSnapshots(
	options: CheckOptions,
	file: string,
	expected: Set<string>,
	findings: Finding[]
): void {
	if (!options.snapshots) return;
	for (const stored of storedSnapshots(snapshotFolder(options.snapshots, file))) {
		if (expected.has(stored)) continue;
		if (options.updateSnapshots) removeSnapshot(stored);
		else {
			findings.push({
				file,
				severity: 'warning',
				code: 'snapshot_obsolete',
				message: `${stored} matches no service and scenario any more: --update-snapshots removes it.`
			});
		}
	}
}

/**
 * One request to send once every file is rendered and the plan is said (through a server, one
 * service's test call, which may send several).
 */
interface LiveSend {
	/** The rendered requests it sends (masked): the plan counts them and names their hosts. */
	requests: RenderedRequest[];
	send: () => Promise<void>;
}

/**
 * The scenario `--live` sends a service with: `--scenario` where it applies to the service,
 * else the service's first (a text message's scenarios mean nothing to the push token reporter).
 */
function liveScenario(scenarios: readonly Scenario[], asked: string | undefined): string {
	return asked !== undefined && scenarios.some((s) => s.name === asked) ? asked : scenarios[0].name;
}

/**
 * Which requests of a rendering are sent: `--live` sends each service's first request of its
 * live scenario (one recipient, one message), `--live-all` every request (of `--scenario` only,
 * when one is asked for). Indices into the rendering's requests.
 */
function requestsToSend(
	choice: LiveChoice,
	scenarios: readonly Scenario[],
	scenario: string,
	count: number
): number[] {
	const all = Array.from({ length: count }, (_, i) => i);
	if (choice.all) {
		return choice.scenario === undefined || liveScenario(scenarios, choice.scenario) === scenario
			? all
			: [];
	}
	return liveScenario(scenarios, choice.scenario) === scenario ? all.slice(0, 1) : [];
}

async function checkProfile(
	profile: LoadedProfile,
	options: CheckOptions,
	report: CheckReport,
	sends: LiveSend[]
): Promise<FileResult> {
	const findings: Finding[] = [...profile.findings];
	const lint: Finding[] = [];
	const renderings: Rendering[] = [];
	const result: FileResult = { file: profile.file, kind: profile.kind, findings: [], renderings };
	const expected = new Set<string>();
	const services = configuredServices(profile);
	if (services.length === 0) {
		findings.push({
			file: profile.file,
			severity: 'warning',
			code: 'no_services',
			message: 'No web service is configured in this file: nothing to render.'
		});
	}
	const choice = options.live ?? options.server?.live;
	// A scenario asked for by name that this file does not have: nothing of it is sent.
	const unknownScenario =
		choice?.scenario !== undefined &&
		services.length > 0 &&
		!profile.scenarios.some((s) => s.name === choice.scenario);
	if (unknownScenario) {
		findings.push({
			file: profile.file,
			severity: 'error',
			code: 'live_unknown_scenario',
			message: `No scenario is named "${choice.scenario}" here (${profile.scenarios.map((s) => `"${s.name}"`).join(', ') || 'none'}): nothing of this file is sent.`
		});
	}
	for (const service of services) {
		const scenarios = scenariosFor(service, profile.scenarios, profile);
		for (const scenario of scenarios) {
			const values = scenarioValues(service, scenario, profile, options.secrets);
			const built = await renderService(profile, service, values, options.server);
			append(
				lint,
				built.issues.map((i) => issueFinding(profile, service, i, scenario.name))
			);
			const rendering: Rendering = {
				file: profile.file,
				service,
				scenario: scenario.name,
				requests: built.requests
			};
			compareSnapshot(options, rendering, findings, expected);
			renderings.push(rendering);
			const chosen =
				choice && !unknownScenario
					? requestsToSend(choice, scenarios, scenario.name, built.requests.length)
					: [];
			if (chosen.length === 0) continue;
			const live = (rendering.live = [] as NonNullable<Rendering['live']>);
			const found = (more: Omit<Finding, 'file'>[]) =>
				result.findings.push(
					...more.map((f) => ({ ...f, file: profile.file, scenarios: [scenario.name] }))
				);
			const target = options.server;
			if (target?.live) {
				// Sent by the server as its test calls, judged here as --live judges. One request
				// per service is the first recipient's: the server builds only that one.
				const call = serviceCall(
					profile,
					service,
					target.live.all ? values : firstRequestValues(service, values)
				);
				const expectations = target.live.expectations;
				sends.push({
					requests: chosen.map((i) => built.requests[i]),
					send: async () => {
						const { serverTestCall } = await import('./server');
						const ran = await serverTestCall(target, call, expectations);
						live.push(...ran.outcomes);
						if (ran.networkFailure) report.networkFailure = true;
						found(ran.findings);
					}
				});
				continue;
			}
			const local = options.live;
			if (!local) continue;
			// As a test call: a request the caller would not send as written is not sent.
			const { refusal } = await import('./live');
			const refused = refusal(built.issues);
			if (refused) {
				findings.push({
					file: profile.file,
					severity: 'error',
					code: 'live_refused',
					message: `Not sent: ${refused.message}`,
					service,
					scenarios: [scenario.name]
				});
				continue;
			}
			const forms = secretFormsOf(
				options.secrets,
				built.built.flatMap((r) => redactRequest(r).secrets)
			);
			for (const index of chosen) {
				sends.push({
					requests: [built.requests[index]],
					send: async () => {
						// The network code is loaded only for --live: an offline check starts faster.
						const { sendLive } = await import('./live');
						const sent = await sendLive(
							service,
							built.built[index],
							index,
							values,
							forms,
							local.config,
							local.expectations,
							(profile.document.services as Record<string, Record<string, string>>)[service]
						);
						live.push(sent.outcome);
						if (sent.networkFailure) report.networkFailure = true;
						found(sent.findings);
					}
				});
			}
		}
	}
	obsoleteSnapshots(options, profile.file, expected, findings);
	if (options.server && options.server.flows.length > 0) {
		const { serverFlow, flowValues } = await import('./server');
		// The flows run with the first scenario's values, the secrets and the --value values.
		const values = flowValues(
			(profile.scenarios[0]?.values ?? {}) as Values,
			options.secrets,
			options.server.values
		);
		const flows: FlowOutcome[] = (result.flows = []);
		for (const flow of options.server.flows) {
			const ran = await serverFlow(options.server, flow, profile.document, values);
			flows.push(ran.outcome);
			if (ran.networkFailure) report.networkFailure = true;
			findings.push(...ran.findings.map((f) => ({ ...f, file: profile.file })));
		}
	}
	result.findings = [...findings, ...merge(lint)];
	return result;
}

/** The host a request goes to (`host:port` as written in its URL), or the URL when it has none. */
function hostOf(url: string): string {
	return URL.canParse(url) ? new URL(url).host : url;
}

/** What is about to be sent, from the sends and every rendering. */
function livePlan(options: CheckOptions, report: CheckReport, sends: LiveSend[]): LivePlan {
	const choice = (options.live ?? options.server?.live)!;
	const requests = sends.flatMap((s) => s.requests);
	return {
		mode: choice.all ? 'all' : 'one-per-service',
		...(choice.scenario !== undefined ? { scenario: choice.scenario } : {}),
		requests: requests.length,
		rendered: report.files.reduce(
			(n, f) => n + f.renderings.reduce((m, r) => m + r.requests.length, 0),
			0
		),
		hosts: [...new Set(requests.map((r) => hostOf(r.url)))],
		...(options.server ? { through: options.server.origin } : {})
	};
}

/** Runs `check` over the inputs; the report has every secret masked. */
export async function runCheck(options: CheckOptions, inputs: string[]): Promise<CheckReport> {
	const report: CheckReport = {
		version: options.version,
		files: [],
		failOn: options.failOn,
		exitCode: 0,
		...(options.server ? { server: options.server.origin } : {})
	};
	const loaders = options.gallery
		? GALLERY.map((template) => () => loadGallery(template))
		: inputs.map((file) => () => loadProfile(file, options.scenarioFile));
	const sends: LiveSend[] = [];
	for (const load of loaders) {
		try {
			const profile = load();
			report.files.push(await checkProfile(profile, options, report, sends));
		} catch (error) {
			if (!(error instanceof InputError)) throw error;
			report.files.push(unreadable(error));
		}
	}
	// Every output is made from this report: secrets typed for the run are masked here, once.
	const forms = secretFormsOf(options.secrets, options.server ? [options.server.token] : []);
	if (options.live || options.server?.live) {
		// Said before anything is sent: how many requests, to which hosts.
		report.live = maskSecretsIn(livePlan(options, report, sends), forms);
		options.onLivePlan?.(report.live);
		for (const send of sends) await send.send();
	}
	report.exitCode = exitCodeOf(report);
	return maskSecretsIn(report, forms);
}

/** A file that could not be read, as a result with one error. */
export function unreadable(error: InputError): FileResult {
	return {
		file: error.file,
		kind: null,
		unreadable: true,
		renderings: [],
		findings: [
			{
				file: error.file,
				severity: 'error',
				code: 'unreadable_input',
				message: error.message,
				...(error.place ? { place: error.place } : {})
			}
		]
	};
}

/** The exit code: 3 for unreadable input, 4 for a network failure, 1 for findings, else 0. */
export function exitCodeOf(report: CheckReport): number {
	if (report.files.some((f) => f.unreadable)) return EXIT.unreadable;
	if (report.networkFailure) return EXIT.network;
	const failing = report.files.some((f) =>
		f.findings.some(
			(x) =>
				atLeast(x.severity, report.failOn) ||
				(x.code.startsWith('snapshot_') && x.severity === 'error') ||
				(/^(live|flow)_/.test(x.code) && x.severity === 'error')
		)
	);
	return failing ? EXIT.findings : EXIT.clean;
}

/** Whether a key is a secret (for `--secret` validation). */
export { isSecretKey };
