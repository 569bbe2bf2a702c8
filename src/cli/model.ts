import type { Severity } from '$lib/core/issues';

/** What a run of `check` found, in one shape every reporter reads. */

/** A place in an input file (1-based line and column). */
export interface Place {
	line: number;
	column: number;
}

/** One finding: a lint issue, an import note, a snapshot that differs, a live answer judged. */
export interface Finding {
	/** The input file as given on the command line (or found in a directory). */
	file: string;
	severity: Severity;
	/** A stable code (`unknown_placeholder`, `snapshot_differs`, …): the SARIF rule id. */
	code: string;
	message: string;
	place?: Place;
	/** The service id and the setting's key, when the finding is about one. */
	service?: string;
	key?: string;
	/** The scenarios the finding was seen with (lint issues depend on the values). */
	scenarios?: string[];
	/** A readable diff, for a snapshot that differs. */
	diff?: string;
	/** The flow, for a finding of `--flows`. */
	flow?: string;
}

/** One request as rendered (secrets masked), in order. */
export interface RenderedRequest {
	method: string;
	url: string;
	headers: { name: string; value: string }[];
	body: string | null;
	recipient?: string;
}

/** What a live call of one request answered, as the platform reads it. */
export interface LiveOutcome {
	/** Which of the rendering's requests was sent (0-based), its method and URL (masked). */
	request: number;
	method: string;
	url: string;
	status?: number;
	/** What the caller does, in one sentence (the interpretation's summary). */
	summary?: string;
	success?: boolean;
	/** Send Message: the answer shape the interpreter matched (`json-sms-id`, `error-flag`, …). */
	shape?: string;
	/** The transport failure, when nothing came back. */
	error?: { code: string; message: string };
	ms: number;
}

/** One service rendered with one scenario. */
export interface Rendering {
	file: string;
	service: string;
	scenario: string;
	requests: RenderedRequest[];
	snapshot?: { path: string; status: 'match' | 'differs' | 'missing' | 'written' };
	live?: LiveOutcome[];
}

/** One step of a flow run on the server (`--flows`), as the contract decided it. */
export interface FlowStepOutcome {
	service: string;
	/** `ok`, `ignored`, `failed` or `skipped`. */
	status: string;
	/** What the platform does, in one sentence. */
	text: string;
	/** The id of the contract row that decided it. */
	contractRow: string;
	/** `METHOD url` as sent (secrets masked), when a request was sent. */
	request?: string;
	httpStatus?: number;
	/** Why no answer came. */
	error?: { code: string; message: string };
}

/** A flow run on the server (`--flows`). */
export interface FlowOutcome {
	flow: string;
	ok: boolean;
	/** The run's id on the server (its history under the profile's flows). */
	runId?: number;
	steps: FlowStepOutcome[];
	/** Set when the server did not run it (missing values, …). */
	refused?: { code: string; message: string };
}

/** One input file's result. */
export interface FileResult {
	file: string;
	/** What the file was read as; null when it could not be read. */
	kind: 'provisioning' | 'account' | 'fragment' | 'backup' | null;
	findings: Finding[];
	renderings: Rendering[];
	/** The flows run on the server, with `--server … --flows`. */
	flows?: FlowOutcome[];
	/** Set when the file could not be read at all (exit code 3). */
	unreadable?: boolean;
}

/** `--live` (one request per service) or `--live-all` (every one), and `--scenario`. */
export interface LiveChoice {
	all: boolean;
	scenario?: string;
}

/**
 * What `--live` or `--live-all` sends, said before anything is sent: `one-per-service` is each
 * configured service's first request of its first scenario (or of `--scenario`), `all` every
 * rendered request.
 */
export interface LivePlan {
	mode: 'one-per-service' | 'all';
	/** The scenario asked for with `--scenario`, if any. */
	scenario?: string;
	/** How many requests are sent, and how many every rendered request would be. */
	requests: number;
	rendered: number;
	/** The hosts they go to (`host:port` as in the URL), in order of first use. */
	hosts: string[];
	/** Through a server (`--server`): it sends them, as its test calls. */
	through?: string;
}

/** A whole run. */
export interface CheckReport {
	version: string;
	files: FileResult[];
	failOn: Severity | 'none';
	/** The exit code this report gives (see docs/cli.md). */
	exitCode: number;
	/** Set by `--live`: a request could not be sent or answered (exit code 4). */
	networkFailure?: boolean;
	/** Set by `--server`: the origin the checks ran on. */
	server?: string;
	/** Set by `--live` and `--live-all`: what was to be sent (each sent request is in `live`). */
	live?: LivePlan;
}

/** Severities from the worst. */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/** True when `severity` is at or above `threshold`. */
export function atLeast(severity: Severity, threshold: Severity | 'none'): boolean {
	if (threshold === 'none') return false;
	return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);
}

/** Exit codes (docs/cli.md). */
export const EXIT = {
	clean: 0,
	findings: 1,
	usage: 2,
	unreadable: 3,
	network: 4
} as const;
