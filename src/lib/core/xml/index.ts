/** XML: safe reading, export in both forms, import with review, and the portal field sheet. */
export * from './element';
export * from './parse';
export * from './chars';
export * from './decode';
export * from './export';
export * from './import';
export * from './apply';
export * from './portal';
export * from './account';
