export * from './deletion-request';
