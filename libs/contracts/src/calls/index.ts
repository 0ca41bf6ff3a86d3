export * from './call';
export * from './call-assertions';
export * from './call-validation';
export * from './timestamp';
