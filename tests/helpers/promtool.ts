import { execFile } from 'node:child_process';
import { ensurePromtool } from '../../scripts/ensure-promtool.js';

/**
 * What `promtool check metrics` says of an exposition (empty when it has nothing to say). Run
 * without blocking the test's event loop: a test that waited synchronously for it (seconds on a
 * busy machine) could miss the server closing an idle kept-alive connection meanwhile, and send
 * its next request on that closed connection.
 */
export function promtoolCheckMetrics(exposition: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = execFile(ensurePromtool(), ['check', 'metrics'], (error, stdout, stderr) => {
			if (error) reject(new Error(`promtool check metrics: ${stderr || stdout || error.message}`));
			else resolve(stdout);
		});
		child.stdin!.end(exposition);
	});
}
