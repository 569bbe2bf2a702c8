// oidc-provider ships no types; the tests use a few of its calls, checked by running them.
declare module 'oidc-provider';
