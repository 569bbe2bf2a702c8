/** Profiles: the stored document, its secrets, and differences between revisions. */
export * from './schema';
export * from './secret-keys';
export * from './secrets';
export * from './diff';
export * from './backup';
export * from './merge';
export * from './push-settings';
