import type { ProfileDocument } from '../../src/lib/core/profile';
import { Client, startServer, type TestServer } from './server';

/**
 * Users and documents shared by the server tests. Password hashing is slow by design (scrypt
 * N=2^17), so each file creates few users and signs each in once.
 */

/** The first admin, created from ADMIN_EMAIL and ADMIN_PASSWORD. */
export const ADMIN = { email: 'admin@example.test', password: 'admin-password-1' };

/** The environment that creates {@link ADMIN} at first start. */
export const ADMIN_ENV = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };

/** A user of a test, with a signed-in client. */
export interface TestUser {
	id: number;
	email: string;
	password: string;
	client: Client;
}

/** Starts a server with {@link ADMIN} and returns it with the admin signed in. */
export async function serverWithAdmin(
	env: Record<string, string> = {},
	dataDir?: string
): Promise<{ server: TestServer; admin: Client }> {
	const server = await startServer({ env: { ...ADMIN_ENV, ...env }, dataDir });
	const admin = new Client(server);
	const answer = await admin.login(ADMIN.email, ADMIN.password);
	if (answer.status !== 200) throw new Error(`The admin could not sign in: ${answer.status}`);
	return { server, admin };
}

/** Creates a user as `admin` and signs them in with a client of their own. */
export async function createUser(
	admin: Client,
	role: 'admin' | 'editor' | 'viewer',
	email: string,
	password = `${role}-password-1`
): Promise<TestUser> {
	const created = await admin.json('/api/users', {
		method: 'POST',
		json: { email, name: email.split('@')[0], role, password }
	});
	if (created.status !== 201 || !created.body.user) {
		throw new Error(`Could not create ${email}: ${created.status} ${JSON.stringify(created.body)}`);
	}
	const client = new Client(admin.server);
	const login = await client.login(email, password);
	if (login.status !== 200) throw new Error(`${email} could not sign in: ${login.status}`);
	return { id: created.body.user.id, email, password, client };
}

/** A complete profile document (every field given, so the server answers it unchanged). */
export function profileDocument(values: Record<string, string> = {}): ProfileDocument {
	return {
		version: 1,
		services: {
			sendMessage: {
				genericSmsSendUrl: 'https://sms.example.com/send?to=%sms_to%',
				genericSmsSendPostData: '{"to":"%sms_to%","body":"%sms_body%"}',
				genericSmsSendContentType: 'application/json'
			}
		},
		push: { gatewayUrl: '', appId: '', target: 'unknown' },
		scenarios: [{ name: 'Text message', values: { sms_to: '+14155550123', ...values } }],
		rawSubstitution: false,
		preservedXml: []
	};
}

/** A document holding only these services' settings. */
export function servicesDocument(services: ProfileDocument['services']): ProfileDocument {
	return {
		version: 1,
		services,
		push: { gatewayUrl: '', appId: '', target: 'unknown' },
		scenarios: [],
		rawSubstitution: false,
		preservedXml: []
	};
}

/** Creates a profile as `client` and returns its id (and the answer). */
export async function createProfile(
	client: Client,
	name: string,
	document: ProfileDocument = profileDocument()
): Promise<string> {
	const answer = await client.json('/api/profiles', { method: 'POST', json: { name, document } });
	if (answer.status !== 201 || !answer.body.profile) {
		throw new Error(`Could not create ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
	}
	return answer.body.profile.id;
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
