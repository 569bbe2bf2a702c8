/** Virtual phones: their state, what they saw, and the checks of every messaging round. */
export * from './rules';
export * from './phone';
export * from './observed';
export * from './checks';
export * from './kinds';
