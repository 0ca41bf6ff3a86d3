export * from './call';
export * from './call-validation';
export * from './timestamp';
