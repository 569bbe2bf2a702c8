/** The contract as data: services, variables and the rules the rest of the product reads. */
// Types only: the zod schemas stay out of the browser's bundle (import them from './schema').
export type * from './schema';
export * from './services';
export * from './vocabulary';
export { ACCOUNT_VARIABLES, GLOBAL_VARIABLES } from './variables';
export { ACCOUNT_CORE_PATH } from './keys';
export * from './describe';
export * from './samples';
export * from './scenarios';
export * from './placement';
export * from './labels';
export * from './account-keys';
export * from './sources';
