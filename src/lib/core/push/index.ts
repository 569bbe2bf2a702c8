/** The push gateway: its vocabulary, the request checker, a pure gateway and its answers read. */
export * from './reference';
export * from './schema';
export * from './outcomes';
export { validatePush } from './validate';
export { CORE_ATTRIBUTES, isPushObject } from './checks';
export * from './gateway';
export * from './interpret';
export * from './verdict';
export * from './http-request';
export { PUSH_SAMPLES, samplePush } from './samples';
export * from './device';
export * from './composer-form';
export { describeValue } from './words';
