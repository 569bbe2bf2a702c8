export * from './pretty';
export * from './bytes';
