export * from './envelope';
export * from './signing';
