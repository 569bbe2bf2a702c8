// A throw-away PostgreSQL server for the tests: Debian's `postgresql` package (installed with
// apt-get when missing and running as root), a cluster made by initdb in a temporary directory,
// run as the `postgres` user when we are root (PostgreSQL refuses to run as root), listening on
// 127.0.0.1 only, on a free port. `stop()` removes everything; a process exit hook does the same
// for a cluster left running (a test run that failed or was interrupted).
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const live = new Set();

process.on('exit', () => {
	for (const cluster of live) cluster.destroySync();
});

/** The directory of PostgreSQL's programs (PG_BIN, or the newest of Debian's), or undefined. */
function findBin() {
	if (process.env.PG_BIN) return process.env.PG_BIN;
	const base = '/usr/lib/postgresql';
	if (!existsSync(base)) return undefined;
	const versions = readdirSync(base)
		.filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(base, versions[0], 'bin') : undefined;
}

/** The directory of PostgreSQL's programs, installing Debian's package first when missing. */
export function ensurePostgres() {
	const found = findBin();
	if (found) return found;
	if (!isRoot || !existsSync('/usr/bin/apt-get')) {
		throw new Error(
			'The PostgreSQL tests need PostgreSQL’s server programs (initdb, pg_ctl). Install them ' +
				'(Debian/Ubuntu: `sudo apt-get install -y postgresql`) or point PG_BIN at their directory.'
		);
	}
	console.log('PostgreSQL is missing: installing Debian’s postgresql package…');
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
	execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], { stdio: 'inherit', env });
	const bin = findBin();
	if (!bin) throw new Error('apt-get installed postgresql, but initdb is still missing.');
	return bin;
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/** The `postgres` user's uid and gid. */
function postgresIds() {
	const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
	return { uid: id('-u'), gid: id('-g') };
}

/**
 * Starts a throw-away cluster. Answers its `url` (the `postgres` database; superuser
 * `postgres`, no password), `urlOf(database)`, `createDatabase(name)`, `stopServer()` and
 * `startServer()` (a server outage, data kept), and `stop()` (stops it and removes everything).
 */
export async function startCluster() {
	const bin = ensurePostgres();
	const dir = mkdtempSync(path.join(tmpdir(), 'ps-pg-'));
	const data = path.join(dir, 'data');
	const log = path.join(dir, 'server.log');
	if (isRoot) {
		const { uid, gid } = postgresIds();
		chownSync(dir, uid, gid);
	}
	const run = (program, args) => {
		const command = isRoot ? 'runuser' : path.join(bin, program);
		const argv = isRoot ? ['-u', 'postgres', '--', path.join(bin, program), ...args] : args;
		const result = spawnSync(command, argv, { encoding: 'utf8', cwd: dir });
		if (result.status !== 0) {
			const serverLog = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
			throw new Error(
				`${program} failed (${result.status}): ${result.stderr || result.stdout}\n${serverLog}`
			);
		}
		return result.stdout;
	};
	// The port was free a moment ago; another process may take it before the server binds it,
	// so the first start tries another one (nobody has been told this one yet).
	let port = await freePort();
	let running = false;
	const cluster = {
		get port() {
			return port;
		},
		dir,
		get url() {
			return `postgres://postgres@127.0.0.1:${port}/postgres`;
		},
		urlOf: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
		async createDatabase(name) {
			run('psql', [
				'-h',
				dir,
				'-p',
				String(port),
				'-U',
				'postgres',
				'-qc',
				`CREATE DATABASE "${name}"`
			]);
			return cluster.urlOf(name);
		},
		startServer() {
			// Durability of the throw-away cluster does not matter: fsync off makes it fast.
			const options = [
				`-p ${port}`,
				"-c listen_addresses='127.0.0.1'",
				`-c unix_socket_directories='${dir}'`,
				'-c fsync=off',
				'-c full_page_writes=off',
				'-c max_connections=100'
			].join(' ');
			run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '30', '-o', options, 'start']);
			running = true;
		},
		stopServer(mode = 'fast') {
			if (!running) return;
			run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
			running = false;
		},
		destroySync() {
			live.delete(cluster);
			try {
				cluster.stopServer('immediate');
			} catch {
				// Already gone: nothing to stop.
			}
			rmSync(dir, { recursive: true, force: true });
		},
		async stop() {
			cluster.destroySync();
		}
	};
	live.add(cluster);
	try {
		run('initdb', [
			'-D',
			data,
			'-U',
			'postgres',
			'--auth=trust',
			'-E',
			'UTF8',
			'--no-locale',
			'-N'
		]);
		for (let attempt = 1; ; attempt++) {
			try {
				cluster.startServer();
				break;
			} catch (error) {
				if (attempt >= 3 || !/Address already in use/.test(String(error))) throw error;
				port = await freePort();
			}
		}
	} catch (error) {
		cluster.destroySync();
		throw error;
	}
	return cluster;
}
