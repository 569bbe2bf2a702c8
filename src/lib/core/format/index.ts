export * from './pretty';
