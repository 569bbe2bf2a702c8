#!/usr/bin/env node
// Makes sure PostgreSQL's server programs are there for the tests that start a throw-away
// cluster (the store's tests, the server tests on PostgreSQL): installs Debian's postgresql
// package when missing and running as root, else says what to do.
import { ensurePostgres } from './postgres-cluster.js';

try {
	ensurePostgres();
} catch (error) {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
}
