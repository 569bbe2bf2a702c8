import type { Source, Variable } from './schema';

/**
 * Variables shared by several services: account values (`%account[key]%`) and global
 * parameters. Samples are realistic on purpose: they contain the characters (`+ / = & "`, spaces,
 * emoji, newlines) that break naive substitution, so the preview shows the encodings at work.
 */

type VariableInput = Omit<Variable, 'secret' | 'kind' | 'perRecipient'> & Partial<Variable>;

/** Fills the defaults of a variable entry (not secret, string, one value per call). */
export function variable(input: VariableInput): Variable {
	return { secret: false, kind: 'string', perRecipient: false, ...input };
}

/** Account and global values the contract does not name: the platform's pages show them. */
const PLATFORM_DOCS: Source = {
	kind: 'docs',
	ref: 'api/client/intro (account and global placeholders)'
};

/** The documented account keys (nodes of the Account XML), written `%account[key]%`. */
export const ACCOUNT_VARIABLES: readonly Variable[] = [
	variable({
		name: 'username',
		scope: 'account',
		meaning: 'SIP account username.',
		sample: 'alice'
	}),
	variable({
		name: 'password',
		scope: 'account',
		meaning:
			'SIP account password. Over a plain http: URL the app sends asterisks instead; use %sha1(%account[password]%)% there.',
		sample: 'p@ss word&1',
		secret: true
	}),
	variable({
		name: 'host',
		scope: 'account',
		meaning: 'SIP domain.',
		sample: 'sip.example.com',
		source: PLATFORM_DOCS
	}),
	variable({
		name: 'cloud_username',
		scope: 'account',
		meaning: 'Cloud username: the one used to sign in to the app.',
		sample: 'alice@example.com'
	}),
	variable({
		name: 'cloud_password',
		scope: 'account',
		meaning: 'Cloud password: the one used to sign in to the app.',
		sample: 'Cl0ud pass+word',
		secret: true
	}),
	variable({
		name: 'networkId',
		scope: 'account',
		meaning: 'Network identifier of the account.',
		sample: 'acme-net',
		source: PLATFORM_DOCS
	}),
	variable({
		name: 'userDisplayName',
		scope: 'account',
		meaning: 'Display name of the user.',
		sample: 'Alice O\u2019Neil',
		source: PLATFORM_DOCS
	}),
	variable({
		name: 'authUsername',
		scope: 'account',
		meaning: 'SIP authentication username, when it differs from the username.',
		sample: 'alice-auth',
		source: PLATFORM_DOCS
	}),
	variable({
		name: 'userCallerId',
		scope: 'account',
		meaning: 'Caller id presented for the account.',
		sample: '+14155550100',
		source: PLATFORM_DOCS
	}),
	variable({
		name: 'title',
		scope: 'account',
		meaning: 'Account title shown in the app.',
		sample: 'Acme Mobile',
		source: PLATFORM_DOCS
	}),
	variable({
		name: 'transport',
		scope: 'account',
		meaning: 'SIP transport (udp, tcp, tls).',
		sample: 'tls',
		source: PLATFORM_DOCS
	})
];

/** Global parameters seen in the platform's documentation (the full list is not published). */
export const GLOBAL_VARIABLES: readonly Variable[] = [
	variable({
		name: 'installid',
		scope: 'global',
		meaning: 'Identifier of this installation of the app.',
		sample: '5f0c2a9e-7b1d-4c3e-9a8f-1e2d3c4b5a69',
		source: PLATFORM_DOCS
	}),
	variable({
		name: 'appid',
		scope: 'global',
		meaning: 'Application id (bundle or package id).',
		sample: 'com.provider.app.ios'
	}),
	variable({
		name: 'version',
		scope: 'global',
		meaning: 'Version of the app.',
		sample: '6.12.1'
	})
];

/** The SIP account username, shared by the SSO server's services. */
export const SSO_VARIABLES: readonly Variable[] = [
	variable({
		name: 'username',
		scope: 'service',
		meaning:
			'Username: from the external provisioning account.xml when it has one, else the cloud username from the device.',
		sample: 'alice'
	}),
	variable({
		name: 'password',
		scope: 'service',
		meaning:
			'Password: from the external provisioning account.xml when it has one, else the cloud password from the device.',
		sample: 'p@ss word&1',
		secret: true
	}),
	variable({ name: 'host', scope: 'service', meaning: 'SIP domain.', sample: 'sip.example.com' }),
	variable({
		name: 'cloud_id',
		scope: 'service',
		meaning: 'Cloud identifier of the application.',
		sample: 'AcmeCloud'
	})
];

/** The account keys the SSO server fills (the contract names exactly these). */
export const SSO_ACCOUNT_KEYS = ['cloud_username', 'cloud_password', 'username', 'password'];
