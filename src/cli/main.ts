import { writeFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { findService, SERVICES } from '$lib/core/catalogue';
import { GALLERY } from '$lib/core/catalogue/gallery';
import type { Severity } from '$lib/core/issues';
import { maskSecretsIn, toCurl } from '$lib/core/request';
import { exportXml } from '$lib/core/xml';
import {
	configuredServices,
	type CheckOptions,
	renderService,
	runCheck,
	scenariosFor,
	unreadable,
	scenarioValues,
	secretFormsOf
} from './check';
import { galleryTemplate } from '$lib/core/catalogue/gallery';
import {
	expandInputs,
	GALLERY_IDS,
	InputError,
	loadBackupText,
	loadGallery,
	loadProfile,
	type LoadedProfile
} from './inputs';
import { parseExpectation, type Expectation } from './expect';
import { EXIT, type LiveChoice } from './model';
import { formatReport, livePlanText, reportPath, REPORTERS, type Reporter } from './reporters';
import type { ServerTarget } from './server';
import { requestText } from './snapshots';

/**
 * The command-line program `provisioning-studio`: `check`, `render` and `export`, on the same
 * core as the app. Returns the exit code (see docs/cli.md); never calls process.exit, so output
 * is flushed.
 */

declare const __CLI_VERSION__: string;

/** The program's version (the package's, set when it is bundled). */
export const VERSION = typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : '0.0.0-dev';

const TEMPLATE_IDS = SERVICES.filter((s) => s.kind === 'template').map((s) => s.id);

const HELP: Record<string, string> = {
	main: `provisioning-studio ${VERSION}: check a softphone platform's provider web services as code.

Usage: provisioning-studio <command> [options]

Commands:
  check <file|dir>…    lint every service, render every request for every scenario,
                       compare with snapshots, optionally send one per service (--live)
  render <file>        print one service's exact request for one scenario (or as cURL)
  export <file>        write a JSON backup as provisioning XML or an <account> document
  config               the app server's effective configuration from this environment
                       (secrets masked), and what is wrong with it

  Each can work through a running Provisioning Studio: --server <origin> with an API token
  in PROVISIONING_STUDIO_TOKEN (render and export also take --profile <id|name>, a profile
  stored there).

Options:
  -h, --help           help (also: provisioning-studio <command> --help)
  -v, --version        the version

Exit codes: 0 clean, 1 findings at or above --fail-on (or a snapshot or live check failed),
2 usage error (or a token the server refuses), 3 unreadable input, 4 network failure in
--live or a server (--server) that does not answer. See docs/cli.md.
`,
	check: `Usage: provisioning-studio check <file|dir>… [options]

Reads the additional provisioning XML (either exported form, or a fragment of settings), JSON
backups, or directories of them (.xml files and backups, searched recursively). Lints every
configured service with the catalogue's rules and renders its requests for every scenario.
Offline unless --live.

Scenarios: --scenarios <file>, else <name>.scenarios.json next to each file, else a backup's
own scenarios, else the built-in ones. A scenario file is
  {"scenarios": [{"name": "Text", "values": {"sms_to": "+447911000000", "sms_body": "Hi"}}]}

Options:
  --scenarios <file>         scenario file for every input
  --snapshots <dir>          compare each request with <dir>/<file>/<service>/<scenario>.http
  --update-snapshots         write (or rewrite) the snapshots instead of comparing
  --secret <name>=<ENV_VAR>  a secret value from an environment variable, e.g.
                             --secret 'account[password]=PROVIDER_PASSWORD'; masked in every
                             output, report and snapshot (repeatable)
  --fail-on <level>          error (default), warning, info or none
  --reporter <name>          text (default), json, junit, sarif, github
  --output <file>            write the report there (a text summary still goes to stdout)
  --live                     send one request per service (its first scenario's first
                             request: one recipient) through the outbound policy (OUTBOUND_*
                             environment variables, as test calls) and judge each answer as
                             the platform reads it; says first how many, to which hosts
  --live-all                 send every rendered request instead (every scenario, every
                             recipient)
  --scenario <name>          with --live or --live-all: send this scenario's request(s)
                             instead, for the services it applies to
  --expect <rule>            with --live: <service>:<field>=<value>, field "status" or one of
                             the interpretation (success, action.kind, action.smsId, …);
                             repeatable (e.g. sendMessage:action.kind=storeSmsId)
  --gallery                  check the gallery of annotated real-world templates instead
  --server <origin>          lint and render through a running Provisioning Studio (its
                             POST /api/preview) instead of this program's own core; with
                             --live, the server sends the requests (as its test calls)
  --token <api token>        the API token for --server (pst_…); better in the environment
                             variable PROVISIONING_STUDIO_TOKEN, kept out of shell history
  --flows <name,…>           with --server: run these flows there (registration, sso,
                             contacts, send-message, app-start, messaging) with the first
                             scenario's values; a failed step fails the check (messaging takes
                             sandboxId, sender.username, sender.password, recipient.username,
                             recipient.password, sms_body, secondDevice, signOut,
                             pushTimeoutMs)
  --value <name>=<value>     with --flows: a flow input (repeatable; repeat a name for a list,
                             e.g. --value sms_to=+447911000000 --value sms_to=5551234567)
  -h, --help                 this help

Colour only on a terminal; NO_COLOR turns it off, FORCE_COLOR on.
`,
	render: `Usage: provisioning-studio render <file> --service <id> [--scenario <name>] [--curl]
       provisioning-studio render <file> --service <id> --server <origin>
       provisioning-studio render --profile <id|name> --service <id> --server <origin>

Prints the exact request(s) a service's caller sends for one scenario: request line, headers
and body as sent, secrets masked. Lint findings of that request go to stderr.

Options:
  --service <id>             ${TEMPLATE_IDS.join(', ')}
  --scenario <name>          a scenario's name (default: the first that applies)
  --scenarios <file>         scenario file (default: <name>.scenarios.json next to the file)
  --curl                     as a cURL command line
  --secret <name>=<ENV_VAR>  as for check (repeatable)
  --server <origin>          build the request with a running Provisioning Studio (its
                             POST /api/preview) instead of this program's own core
  --token <api token>        the API token for --server (pst_…); better in the environment
                             variable PROVISIONING_STUDIO_TOKEN
  --profile <id|name>        with --server: render a profile stored there (with its own
                             scenarios) instead of a file
  -h, --help                 this help
`,
	config: `Usage: provisioning-studio config [--json]

Prints the configuration the app server would start with in this environment: every variable
it reads, its value (secrets masked as ${'••••••••'}) and where it came from (environment, a
<NAME>_FILE, the default, or unset). What the server would refuse to start with is listed on
stderr, with exit code 1; a name that looks like a typo of a known variable is warned about.

Options:
  --json                     the same as JSON: settings, problems, warnings
  -h, --help                 this help
`,
	export: `Usage: provisioning-studio export <file> --form provisioning|account [--output <file>]
       provisioning-studio export --gallery <id> --form provisioning|account
       provisioning-studio export --server <origin> --profile <id|name> --form provisioning|account

Writes a profile (a JSON backup, or XML in another form) as the additional provisioning XML
("provisioning") or as an <account> document ("account"), the way the app exports it.
Credentials kept in the profile's XML are left out. With --gallery, a template of the gallery
to start from (see check --gallery). With --server, a profile stored on a running Provisioning
Studio, exported by it (its GET /api/profiles/<id>/export.xml).

Options:
  --form <form>              provisioning or account
  --gallery <id>             ${GALLERY.map((t) => t.id).join(', ')}
  --output <file>            write there instead of stdout
  --server <origin>          export a profile stored on that instance
  --token <api token>        the API token for --server (pst_…); better in the environment
                             variable PROVISIONING_STUDIO_TOKEN
  --profile <id|name>        with --server: the profile, by its id or its exact name
  -h, --help                 this help
`
};

class UsageError extends Error {}

const COMMON = {
	help: { type: 'boolean', short: 'h' },
	secret: { type: 'string', multiple: true },
	scenarios: { type: 'string' }
} satisfies ParseArgsConfig['options'];

const OPTIONS = {
	check: {
		...COMMON,
		snapshots: { type: 'string' },
		'update-snapshots': { type: 'boolean' },
		'fail-on': { type: 'string' },
		reporter: { type: 'string' },
		output: { type: 'string' },
		live: { type: 'boolean' },
		'live-all': { type: 'boolean' },
		scenario: { type: 'string' },
		expect: { type: 'string', multiple: true },
		gallery: { type: 'boolean' },
		server: { type: 'string' },
		token: { type: 'string' },
		flows: { type: 'string' },
		value: { type: 'string', multiple: true }
	},
	render: {
		...COMMON,
		service: { type: 'string' },
		scenario: { type: 'string' },
		curl: { type: 'boolean' },
		server: { type: 'string' },
		token: { type: 'string' },
		profile: { type: 'string' }
	},
	config: {
		help: { type: 'boolean', short: 'h' },
		json: { type: 'boolean' }
	},
	export: {
		help: { type: 'boolean', short: 'h' },
		form: { type: 'string' },
		gallery: { type: 'string' },
		output: { type: 'string' },
		server: { type: 'string' },
		token: { type: 'string' },
		profile: { type: 'string' }
	}
} satisfies Record<string, ParseArgsConfig['options']>;

type Command = keyof typeof OPTIONS;

function parse<C extends Command>(command: C, args: string[]) {
	try {
		return parseArgs({ args, options: OPTIONS[command], allowPositionals: true, strict: true });
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		throw new UsageError(
			`${message.replace(/\.?$/, '.')} See provisioning-studio ${command} --help.`
		);
	}
}

/** `--secret name=ENV_VAR` values, read from the environment. */
function readSecrets(specs: readonly string[] | undefined, env: NodeJS.ProcessEnv) {
	const secrets: Record<string, string> = {};
	for (const spec of specs ?? []) {
		const match = /^([^=\s]+)=([A-Za-z_][A-Za-z0-9_]*)$/.exec(spec);
		if (!match) {
			throw new UsageError(
				`--secret "${spec}" is not <name>=<ENV_VAR> (e.g. 'account[password]=PROVIDER_PASSWORD').`
			);
		}
		const value = env[match[2]];
		if (value === undefined || value === '') {
			throw new UsageError(`--secret ${spec}: the environment variable ${match[2]} is not set.`);
		}
		secrets[match[1]] = value;
	}
	return secrets;
}

function colourFor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): boolean {
	if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
	if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0')
		return true;
	return stream.isTTY === true;
}

function writeOutput(file: string, text: string): void {
	try {
		writeFileSync(file, text);
	} catch (error) {
		throw new UsageError(`Cannot write --output ${file}: ${(error as Error).message}`);
	}
}

async function check(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
	const { values, positionals } = parse('check', args);
	if (values.help) {
		process.stdout.write(HELP.check);
		return EXIT.clean;
	}
	if (values.gallery && positionals.length > 0) {
		throw new UsageError('check --gallery checks the gallery: give no files with it.');
	}
	if (positionals.length === 0 && !values.gallery) {
		throw new UsageError('check needs at least one file or directory (or --gallery).');
	}
	const failOn = values['fail-on'] ?? 'error';
	if (!['error', 'warning', 'info', 'none'].includes(failOn)) {
		throw new UsageError(`--fail-on takes error, warning, info or none, not "${failOn}".`);
	}
	const reporter = (values.reporter ?? 'text') as Reporter;
	if (!REPORTERS.includes(reporter)) {
		throw new UsageError(`--reporter takes ${REPORTERS.join(', ')}, not "${reporter}".`);
	}
	if (values['update-snapshots'] && !values.snapshots) {
		throw new UsageError('--update-snapshots needs --snapshots <dir>.');
	}
	const expectations: Expectation[] = [];
	for (const text of values.expect ?? []) {
		const parsed = parseExpectation(text);
		if (typeof parsed === 'string') throw new UsageError(parsed);
		if (!findService(parsed.service)) {
			throw new UsageError(
				`--expect ${text}: "${parsed.service}" is not a service (${TEMPLATE_IDS.join(', ')}).`
			);
		}
		expectations.push(parsed);
	}
	// --live sends one request per service, --live-all every rendered one.
	const choice: LiveChoice | undefined =
		values.live || values['live-all']
			? {
					all: values['live-all'] === true,
					...(values.scenario !== undefined ? { scenario: values.scenario } : {})
				}
			: undefined;
	if (expectations.length && !choice) throw new UsageError('--expect needs --live or --live-all.');
	if (values.scenario !== undefined && !choice) {
		throw new UsageError(
			'--scenario needs --live or --live-all: it picks the scenario sent (every scenario is rendered and checked).'
		);
	}
	if (values.scenario !== undefined && values.scenario.trim() === '') {
		throw new UsageError('--scenario needs a scenario\'s name, e.g. --scenario "Text message".');
	}
	const secrets = readSecrets(values.secret, env);
	const server = await serverTarget(values, choice, expectations, env);
	let live: CheckOptions['live'];
	// With --server, the server sends (its outbound policy): the local one is not read.
	if (choice && !server) {
		try {
			const { readOutboundConfig } = await import('$lib/server/outbound/config');
			live = { ...choice, config: readOutboundConfig(env), expectations };
		} catch (error) {
			throw new UsageError((error as Error).message);
		}
	}
	let files: string[];
	try {
		files = values.gallery ? [] : expandInputs(positionals);
	} catch (error) {
		if (!(error instanceof InputError)) throw error;
		const report = {
			version: VERSION,
			files: [],
			failOn: failOn as Severity | 'none',
			exitCode: EXIT.unreadable
		};
		const withFile = { ...report, files: [unreadable(error)] };
		emit(withFile, reporter, values.output, env);
		return EXIT.unreadable;
	}
	let report;
	try {
		report = await runCheck(
			{
				files,
				scenarioFile: values.scenarios,
				snapshots: values.snapshots,
				updateSnapshots: values['update-snapshots'] === true,
				secrets,
				failOn: failOn as Severity | 'none',
				live,
				gallery: values.gallery === true,
				server: server?.target,
				version: VERSION,
				// Said before anything is sent: on stdout beside the text report, else on stderr
				// (a JSON, JUnit or SARIF report on stdout stays what it is).
				onLivePlan: (plan) => {
					const toStdout = reporter === 'text' || values.output !== undefined;
					(toStdout ? process.stdout : process.stderr).write(
						`${livePlanText(plan, colourFor(toStdout ? process.stdout : process.stderr, env))}\n`
					);
				}
			},
			files
		);
	} catch (error) {
		if (!server || !(error instanceof server.ServerFailure)) throw error;
		process.stderr.write(`provisioning-studio: ${error.message}\n`);
		return error.exitCode;
	}
	emit(report, reporter, values.output, env);
	return report.exitCode;
}

/** `--server`, `--token`, `--flows`, `--value`: where and what to run on a server, if anywhere. */
async function serverTarget(
	values: {
		server?: string;
		token?: string;
		flows?: string;
		value?: string[];
	},
	choice: LiveChoice | undefined,
	expectations: Expectation[],
	env: NodeJS.ProcessEnv
) {
	if (values.server === undefined) {
		for (const option of ['token', 'flows', 'value'] as const) {
			if (values[option] !== undefined)
				throw new UsageError(`--${option} needs --server <origin>.`);
		}
		return undefined;
	}
	const { origin, token } = await connection(values.server, values.token, env);
	const { parseFlows, ServerFailure } = await import('./server');
	const flows = values.flows === undefined ? [] : parseFlows(values.flows);
	if (!Array.isArray(flows)) throw new UsageError(flows.error);
	if (values.value && flows.length === 0) throw new UsageError('--value needs --flows.');
	const given: Record<string, string | string[]> = {};
	for (const spec of values.value ?? []) {
		const at = spec.indexOf('=');
		if (at < 1) throw new UsageError(`--value "${spec}" is not <name>=<value> (e.g. pin=4711).`);
		const name = spec.slice(0, at);
		const value = spec.slice(at + 1);
		const seen = given[name];
		given[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
	}
	return {
		target: {
			origin,
			token,
			flows,
			values: given,
			timeoutMs: 120_000,
			...(choice ? { live: { ...choice, expectations } } : {})
		},
		ServerFailure
	};
}

/** `--server` and its token (`--token`, else the environment), checked. */
async function connection(server: string, token: string | undefined, env: NodeJS.ProcessEnv) {
	const { parseOrigin, TOKEN_ENV } = await import('./server');
	const origin = parseOrigin(server);
	if (typeof origin !== 'string') throw new UsageError(origin.error);
	const given = token ?? env[TOKEN_ENV] ?? '';
	if (given === '') {
		throw new UsageError(
			`--server needs an API token: set ${TOKEN_ENV} (or give --token; the environment keeps it out of shell history and CI logs).`
		);
	}
	return { origin, token: given };
}

/**
 * `--server`, `--token` and `--profile` of render and export: the server to work through (no
 * flows, nothing sent but the API calls), or none.
 */
async function plainServer(
	values: { server?: string; token?: string; profile?: string },
	env: NodeJS.ProcessEnv
) {
	if (values.server === undefined) {
		for (const option of ['token', 'profile'] as const) {
			if (values[option] !== undefined)
				throw new UsageError(`--${option} needs --server <origin>.`);
		}
		return undefined;
	}
	const { origin, token } = await connection(values.server, values.token, env);
	const server = await import('./server');
	const target: ServerTarget = { origin, token, flows: [], values: {}, timeoutMs: 120_000 };
	return { target, server };
}

function emit(
	report: Parameters<typeof formatReport>[0],
	reporter: Reporter,
	output: string | undefined,
	env: NodeJS.ProcessEnv
): void {
	const colour = colourFor(process.stdout, env);
	if (output) {
		writeOutput(output, formatReport(report, reporter, false));
		process.stdout.write(formatReport(report, 'text', colour));
	} else {
		process.stdout.write(formatReport(report, reporter, colour));
	}
}

async function render(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
	const { values, positionals } = parse('render', args);
	if (values.help) {
		process.stdout.write(HELP.render);
		return EXIT.clean;
	}
	if (values.profile !== undefined && positionals.length > 0) {
		throw new UsageError('render takes one file or --profile <id|name>, not both.');
	}
	if (values.profile === undefined && positionals.length !== 1) {
		throw new UsageError('render takes one file.');
	}
	if (!values.service) throw new UsageError(`render needs --service (${TEMPLATE_IDS.join(', ')}).`);
	if (!TEMPLATE_IDS.includes(values.service)) {
		throw new UsageError(
			`"${values.service}" is not a service; use one of ${TEMPLATE_IDS.join(', ')}.`
		);
	}
	const secrets = readSecrets(values.secret, env);
	const remote = await plainServer(values, env);
	try {
		let profile: LoadedProfile;
		let name: string;
		if (remote && values.profile !== undefined) {
			const stored = await remote.server.findProfile(remote.target, values.profile);
			const text = await remote.server.serverBackup(remote.target, stored);
			profile = loadBackupText(`profile ${stored.id}`, text, values.scenarios);
			name = `${remote.target.origin} profile ${stored.id} "${stored.name}"`;
		} else {
			profile = loadProfile(positionals[0], values.scenarios);
			name = reportPath(profile.file);
		}
		return await renderProfile(profile, name, values.service, values, secrets, remote?.target);
	} catch (error) {
		if (!remote || !(error instanceof remote.server.ServerFailure)) throw error;
		process.stderr.write(`provisioning-studio: ${error.message}\n`);
		return error.exitCode;
	}
}

/** Prints one service's request(s) of a profile for one scenario, built here or by a server. */
async function renderProfile(
	profile: LoadedProfile,
	name: string,
	service: string,
	values: { scenario?: string; curl?: boolean },
	secrets: Record<string, string>,
	server: ServerTarget | undefined
): Promise<number> {
	const configured = configuredServices(profile);
	if (!configured.includes(service)) {
		throw new UsageError(
			`${name} does not configure ${service}${configured.length ? `; it configures ${configured.join(', ')}` : ''}.`
		);
	}
	const scenarios = scenariosFor(service, profile.scenarios, profile);
	const all = [...scenarios, ...profile.scenarios.filter((s) => !scenarios.includes(s))];
	const scenario =
		values.scenario === undefined ? scenarios[0] : all.find((s) => s.name === values.scenario);
	if (!scenario) {
		throw new UsageError(
			`No scenario "${values.scenario}" (from ${profile.scenarioSource}); there are: ${all.map((s) => `"${s.name}"`).join(', ')}.`
		);
	}
	const built = await renderService(
		profile,
		service,
		scenarioValues(service, scenario, profile, secrets),
		server
	);
	const forms = secretFormsOf(secrets, server ? [server.token] : []);
	const requests = built.requests;
	const text = values.curl
		? requests.map((r) => toCurl(r as Parameters<typeof toCurl>[0])).join('\n') +
			(requests.length ? '\n' : '')
		: requestText(requests);
	process.stdout.write(maskSecretsIn(text, forms));
	// What reading the file found (a misspelt setting, a scenario value no template uses), then
	// the build's findings.
	for (const f of maskSecretsIn(profile.findings, forms)) {
		const at = f.place ? `:${f.place.line}:${f.place.column}` : '';
		process.stderr.write(`${f.severity}: ${reportPath(f.file)}${at}: ${f.message} [${f.code}]\n`);
	}
	for (const issue of maskSecretsIn(built.issues, forms)) {
		process.stderr.write(
			`${issue.severity}: ${issue.field ? `${issue.field}: ` : ''}${issue.message} [${issue.code}]\n`
		);
	}
	return EXIT.clean;
}

async function exportCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
	const { values, positionals } = parse('export', args);
	if (values.help) {
		process.stdout.write(HELP.export);
		return EXIT.clean;
	}
	if (values.server !== undefined) {
		if (positionals.length > 0 || values.gallery !== undefined || values.profile === undefined) {
			throw new UsageError(
				'export --server exports a profile stored on that server: name it with --profile <id|name> (a file or --gallery is exported here, without --server).'
			);
		}
	} else if (values.profile !== undefined) {
		throw new UsageError('--profile needs --server <origin>.');
	} else if (positionals.length !== (values.gallery === undefined ? 1 : 0)) {
		throw new UsageError('export takes one file, or --gallery <id>.');
	}
	if (values.form !== 'provisioning' && values.form !== 'account') {
		throw new UsageError('export needs --form provisioning or --form account.');
	}
	const remote = await plainServer(values, env);
	if (remote && values.profile !== undefined) {
		let xml: string;
		try {
			const stored = await remote.server.findProfile(remote.target, values.profile);
			xml = await remote.server.serverExport(remote.target, stored, values.form);
		} catch (error) {
			if (!(error instanceof remote.server.ServerFailure)) throw error;
			process.stderr.write(`provisioning-studio: ${error.message}\n`);
			return error.exitCode;
		}
		if (values.output) writeOutput(values.output, xml);
		else process.stdout.write(xml);
		return EXIT.clean;
	}
	let profile;
	if (values.gallery !== undefined) {
		const template = galleryTemplate(values.gallery);
		if (!template) {
			throw new UsageError(
				`No gallery template "${values.gallery}"; there are: ${GALLERY_IDS.join(', ')}.`
			);
		}
		profile = loadGallery(template);
	} else profile = loadProfile(positionals[0]);
	const exported = exportXml(profile.document, values.form, { credentials: 'leave_out' });
	for (const issue of exported.issues) {
		process.stderr.write(`${issue.severity}: ${issue.message} [${issue.code}]\n`);
	}
	if (!exported.ok) return EXIT.findings;
	if (values.output) writeOutput(values.output, exported.value);
	else process.stdout.write(exported.value);
	return EXIT.clean;
}

/** Runs the program with its arguments; resolves to the exit code. */
/**
 * `config`: the app's effective configuration from this environment, as the server would read it
 * at start (its one schema of variables): each value and where it came from, secrets masked;
 * what is wrong, exit code 1.
 */
async function configCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
	const { values } = parse('config', args);
	if (values.help) {
		process.stdout.write(HELP.config);
		return EXIT.clean;
	}
	const { checkEnvironment, describeEnvironment } =
		await import('$lib/server/platform/environment');
	const { SECRET_MASK } = await import('$lib/core/profile');
	const checked = checkEnvironment(env);
	const rows = describeEnvironment(checked, SECRET_MASK);
	if (values.json) {
		const report = { settings: rows, problems: checked.problems, warnings: checked.warnings };
		process.stdout.write(JSON.stringify(report, null, 2) + '\n');
	} else {
		const width = Math.max(...rows.map((r) => r.name.length));
		for (const row of rows) {
			const value = row.source === 'unset' ? '(unset)' : row.value;
			process.stdout.write(`${row.name.padEnd(width)}  ${value}  [${row.source}]\n`);
		}
		for (const warning of checked.warnings) process.stderr.write(`warning: ${warning}\n`);
		for (const problem of checked.problems) process.stderr.write(`error: ${problem.message}\n`);
	}
	return checked.problems.length > 0 ? EXIT.findings : EXIT.clean;
}

export async function main(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
	const [command, ...rest] = args;
	try {
		if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
			const topic = command === 'help' ? rest[0] : undefined;
			process.stdout.write(HELP[topic && topic in HELP ? topic : 'main']);
			return command === undefined ? EXIT.usage : EXIT.clean;
		}
		if (command === '-v' || command === '--version' || command === 'version') {
			process.stdout.write(`${VERSION}\n`);
			return EXIT.clean;
		}
		if (command === 'check') return await check(rest, env);
		if (command === 'render') return await render(rest, env);
		if (command === 'export') return await exportCommand(rest, env);
		if (command === 'config') return await configCommand(rest, env);
		throw new UsageError(
			`Unknown command "${command}": use check, render, export or config (see --help).`
		);
	} catch (error) {
		if (error instanceof UsageError) {
			process.stderr.write(`provisioning-studio: ${error.message}\n`);
			return EXIT.usage;
		}
		if (error instanceof InputError) {
			const at = error.place ? `:${error.place.line}:${error.place.column}` : '';
			process.stderr.write(
				`provisioning-studio: ${reportPath(error.file)}${at}: ${error.message}\n`
			);
			return EXIT.unreadable;
		}
		throw error;
	}
}
